import type { Client } from '@temporalio/client';
import { Router } from 'express';
import type { Db } from '../db/prisma.ts';

async function probe(check: () => Promise<unknown>, timeoutMs = 3000) {
  const started = Date.now();
  try {
    await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs))]);
    return { ok: true, latencyMs: Date.now() - started };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/** Unauthenticated: load balancers and operators call it. */
export function healthRoutes(deps: { db: Db; temporal: Client }): Router {
  const router = Router();
  router.get('/health', async (_req, res) => {
    const [postgres, temporal] = await Promise.all([probe(() => deps.db.$queryRaw`SELECT 1`), probe(() => deps.temporal.workflowService.getSystemInfo({}))]);
    const ok = postgres.ok && temporal.ok;
    res.status(ok ? 200 : 503).json({ success: ok, status: ok ? 'ok' : 'degraded', postgres, temporal });
  });
  return router;
}
