import type { Client } from '@temporalio/client';
import { Router } from 'express';
import { z } from 'zod';
import type { Db } from '../db/prisma.ts';
import { probe, probeSchema, serviceChecks, type Readiness } from '../process/readiness.ts';
import type { RouteDoc } from './route-doc.ts';

export const healthAnswerSchema = z.object({
  success: z.boolean(),
  status: z.enum(['ok', 'degraded']),
  postgres: probeSchema,
  temporal: probeSchema,
});
type HealthAnswer = z.infer<typeof healthAnswerSchema>;

const liveAnswerSchema = z.object({ live: z.literal(true) });
const readyAnswerSchema = z.object({
  ready: z.boolean(),
  checks: z.object({ postgres: probeSchema, temporal: probeSchema }),
});

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
  {
    method: 'get',
    path: '/health/live',
    operationId: 'getHealthLive',
    summary: "Whether the gateway's process answers at all (a liveness probe: restart it when this fails)",
    tag: 'meta',
    auth: 'public',
    responses: { 200: liveAnswerSchema.describe('The process answers') },
  },
  {
    method: 'get',
    path: '/health/ready',
    operationId: 'getHealthReady',
    summary: 'Whether the gateway can serve requests: PostgreSQL and Temporal both answer (checked at most once a second)',
    tag: 'meta',
    auth: 'public',
    responses: {
      200: readyAnswerSchema.describe('Both answer'),
      503: readyAnswerSchema.describe('One does not; its check has ok false and an error'),
    },
  },
];

/** Unauthenticated: load balancers and operators call it. */
export function healthRoutes(deps: { db: Db; temporal: Client }, readiness: () => Promise<Readiness>): Router {
  const router = Router();
  const checks = serviceChecks(deps);
  router.get('/health', async (_req, res) => {
    const [postgres, temporal] = await Promise.all([probe(checks.postgres, 3000), probe(checks.temporal, 3000)]);
    const ok = postgres.ok && temporal.ok;
    res.status(ok ? 200 : 503).json({ success: ok, status: ok ? 'ok' : 'degraded', postgres, temporal } satisfies HealthAnswer);
  });
  router.get('/health/live', (_req, res) => {
    res.json({ live: true } satisfies z.infer<typeof liveAnswerSchema>);
  });
  router.get('/health/ready', async (_req, res) => {
    const answer: Readiness = await readiness();
    res.status(answer.ready ? 200 : 503).json(answer);
  });
  return router;
}
