import type { Client } from '@temporalio/client';
import { Router } from 'express';
import { z } from 'zod';
import type { Db } from '../db/prisma.ts';
import type { RouteDoc } from './route-doc.ts';

const probeSchema = z.object({ ok: z.boolean(), latencyMs: z.number().int().optional(), error: z.string().optional() });

export const healthAnswerSchema = z.object({
  success: z.boolean(),
  status: z.enum(['ok', 'degraded']),
  postgres: probeSchema,
  temporal: probeSchema,
});
type HealthAnswer = z.infer<typeof healthAnswerSchema>;

async function probe(check: () => Promise<unknown>, timeoutMs = 3000): Promise<HealthAnswer['postgres']> {
  const started = Date.now();
  try {
    await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs))]);
    return { ok: true, latencyMs: Date.now() - started };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

export const healthRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Whether the gateway reaches PostgreSQL and Temporal',
    tag: 'meta',
    auth: 'public',
    responses: { 200: healthAnswerSchema.describe('Both reachable'), 503: healthAnswerSchema.describe('One of them is not (status degraded)') },
  },
];

/** Unauthenticated: load balancers and operators call it. */
export function healthRoutes(deps: { db: Db; temporal: Client }): Router {
  const router = Router();
  router.get('/health', async (_req, res) => {
    const [postgres, temporal] = await Promise.all([probe(() => deps.db.$queryRaw`SELECT 1`), probe(() => deps.temporal.workflowService.getSystemInfo({}))]);
    const ok = postgres.ok && temporal.ok;
    res.status(ok ? 200 : 503).json({ success: ok, status: ok ? 'ok' : 'degraded', postgres, temporal } satisfies HealthAnswer);
  });
  return router;
}
