// A benchmark's team, with an API key and a client for the gateway at `base`:
// JSON in and out, and each answer's time handed to `timed` (the soak keeps them
// per kind of request).
import type { Db } from '../src/platform/db/prisma.ts';
import { createTeam, issueApiKey } from '../src/platform/teams/teams.ts';
import type { Api } from '../test/support/mixed-load-jobs.ts';

export interface BenchTeam {
  id: string;
  /** Its API key (for an SDK's client). */
  key: string;
  api: Api;
}

/** Longer than any single request of the benches may take (a scrape's own timeout is at most 300 s). */
const REQUEST_TIMEOUT_MS = 330_000;

export type Timed = (method: string, path: string, status: number, ms: number) => void;

export async function benchTeam(db: Db, base: string, team: { name: string; concurrencyLimit: number; credits: number }, timed?: Timed): Promise<BenchTeam> {
  const { id } = await createTeam(db, team);
  const { key } = await issueApiKey(db, id);
  const api: Api = async (path, init = {}) => {
    const method = init.method ?? 'GET';
    const started = performance.now();
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const body = await res.json();
    timed?.(method, path, res.status, performance.now() - started);
    return { status: res.status, body };
  };
  return { id, key, api };
}
