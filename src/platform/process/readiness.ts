// Readiness checks shared by the gateway's /health routes and the worker's and
// browser host's operations port: each check is raced against a short timeout,
// and one answer serves every caller for a second so a scraper cannot load the
// database.
import { z } from 'zod';
import { probeDatabase, type Db } from '../db/prisma.ts';

export const probeSchema = z.object({ ok: z.boolean(), latencyMs: z.number().int().optional(), error: z.string().optional() });
export type Probe = z.infer<typeof probeSchema>;

/** Resolves (any value) when the dependency answers; throws or never settles when it does not. */
export type Check = () => Promise<unknown> | unknown;

export interface Readiness {
  ready: boolean;
  checks: Record<string, Probe>;
}

export async function probe(check: Check, timeoutMs: number): Promise<Probe> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    await Promise.race([Promise.resolve().then(check), timeout]);
    return { ok: true, latencyMs: Date.now() - started };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every check at most once per `cacheMs`; concurrent callers share one run. */
export function cachedReadiness(checks: Record<string, Check>, opts: { timeoutMs: number; cacheMs: number }): () => Promise<Readiness> {
  let last: { at: number; answer: Promise<Readiness> } | undefined;
  const run = async (): Promise<Readiness> => {
    const names = Object.keys(checks);
    const probes = await Promise.all(names.map((name) => probe(checks[name], opts.timeoutMs)));
    return { ready: probes.every((p) => p.ok), checks: Object.fromEntries(names.map((name, i) => [name, probes[i]])) };
  };
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= opts.cacheMs) {
      const answer = run();
      last = { at: now, answer };
      // The cache starts when the answer is known, so a slow check is not re-run by the next caller at once.
      void answer.then(() => {
        if (last?.answer === answer) last.at = Date.now();
      });
    }
    return last.answer;
  };
}

/** How long one check may take, and how long one answer serves every caller. */
const READINESS_TIMEOUT_MS = 2000;
const CACHE_MS = 1000;

type ServiceDeps = { db: Db; temporal: { workflowService: { getSystemInfo(request: object): Promise<unknown> } } };

/** The checks every process has: PostgreSQL and Temporal answer. */
export function serviceChecks(deps: ServiceDeps): Record<'postgres' | 'temporal', Check> {
  return { postgres: () => probeDatabase(deps.db), temporal: () => deps.temporal.workflowService.getSystemInfo({}) };
}

/** Every process is ready when PostgreSQL and Temporal answer; `own` adds the process's own checks. */
export function serviceReadiness(deps: ServiceDeps, own: Record<string, Check> = {}): () => Promise<Readiness> {
  return cachedReadiness({ ...serviceChecks(deps), ...own }, { timeoutMs: READINESS_TIMEOUT_MS, cacheMs: CACHE_MS });
}
