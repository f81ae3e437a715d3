// The routes every job of the crawl pipeline with a status has (crawls and batch
// scrapes): status with pagination, errors, webhook deliveries, cancel. A job is
// found by id, team and kind, so an unknown id, another team's job and a job of
// another kind (a batch id under /v2/crawl) all answer the same 404.
import type { Router } from 'express';
import { z } from 'zod';
import type { GatewayDeps } from '../platform/http/app.ts';
import type { JobSettings } from './config.ts';
import { authOf } from '../platform/http/auth.ts';
import { notFound } from '../platform/http/errors.ts';
import { HttpError } from '../platform/http/http-error.ts';
import { publicBase } from '../platform/http/public-url.ts';
import type { Db } from '../platform/db/prisma.ts';
import { webhookDeliveries } from './webhooks/delivery-report.ts';
import { cancelCrawl, crawlErrors } from './job-admin.ts';
import { crawlStatusBody, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './job-status.ts';
import type { JobKind } from './job-kind.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const paginationSchema = z.object({
  skip: z.coerce
    .number({ error: 'skip must be a non-negative integer' })
    .int('skip must be a non-negative integer')
    .min(0, 'skip must be a non-negative integer')
    .default(0),
  limit: z.coerce
    .number({ error: `limit must be an integer from 1 to ${MAX_PAGE_SIZE}` })
    .int(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}`)
    .min(1, `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`)
    .max(MAX_PAGE_SIZE, `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
  after: z
    .string()
    .regex(/^\d{1,18}$/, 'after must be the position a next link carries')
    .optional()
    .describe('Where the previous page ended, as the `next` link carries it: the page continues after it (skip then only counts the documents handed out).'),
});

export function jobIdParam(raw: string): string {
  if (!UUID.test(raw)) throw new HttpError(400, 'Invalid job ID format. Job ID must be a valid UUID.', 'BAD_REQUEST');
  return raw.toLowerCase();
}

/** The caller's job of this kind (or of one of these kinds), or the same 404 for unknown, foreign, other-kind and expired ids. */
export async function ownJob(db: Db, rawId: string, teamId: string, kind: JobKind | readonly JobKind[]) {
  const id = jobIdParam(rawId);
  const job = await db.job.findFirst({ where: { id, teamId, kind: typeof kind === 'string' ? kind : { in: [...kind] } } });
  if (!job || (job.expiresAt && job.expiresAt.getTime() <= Date.now())) throw notFound();
  return job;
}

/** Registers GET `<base>/:id`, GET `<base>/:id/errors`, GET `<base>/:id/webhooks` and DELETE `<base>/:id`. */
export function jobStatusRoutes(router: Router, deps: GatewayDeps<JobSettings>, base: string, kind: JobKind): void {
  router.get(`${base}/:id/errors`, async (req, res) => {
    const job = await ownJob(deps.db, req.params.id, authOf(res).team.id, kind);
    res.json(await crawlErrors(deps.db, job.id));
  });

  router.get(`${base}/:id/webhooks`, async (req, res) => {
    const job = await ownJob(deps.db, req.params.id, authOf(res).team.id, kind);
    res.json(await webhookDeliveries(deps.db, job.id));
  });

  router.delete(`${base}/:id`, async (req, res) => {
    const job = await ownJob(deps.db, req.params.id, authOf(res).team.id, kind);
    await cancelCrawl(deps.db, deps.temporal, job);
    res.json({ success: true, status: 'cancelled' });
  });

  router.get(`${base}/:id`, async (req, res) => {
    const page = paginationSchema.safeParse(req.query);
    if (!page.success) throw new HttpError(400, `Invalid pagination: ${page.error.issues[0].message}`, 'BAD_REQUEST');
    const job = await ownJob(deps.db, req.params.id, authOf(res).team.id, kind);
    res.json(await crawlStatusBody(deps.db, job, page.data, `${publicBase(deps.config)}/v2${base}/${job.id}`, deps.config.crawl.retentionHours));
  });
}
