import { Router } from 'express';
import { z } from 'zod';
import { HttpError } from '../../platform/http/http-error.ts';
import { crawlStatusBody, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './crawl-status.ts';
import { activeCrawls, cancelCrawl, crawlErrors } from './crawl-admin.ts';
import { parseCrawlRequest, startCrawl } from './start-crawl.ts';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { noteActivityJob } from '../../platform/http/activity-log.ts';
import { notFound } from '../../platform/http/errors.ts';
import { webhookDeliveries } from '../webhooks/delivery-report.ts';
import { publicBase } from '../../platform/http/public-url.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const paginationSchema = z.object({
  skip: z.coerce.number({ error: 'skip must be a non-negative integer' }).int('skip must be a non-negative integer').min(0, 'skip must be a non-negative integer').default(0),
  limit: z.coerce
    .number({ error: `limit must be an integer from 1 to ${MAX_PAGE_SIZE}` })
    .int(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}`)
    .min(1, `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`)
    .max(MAX_PAGE_SIZE, `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
});

function jobId(raw: string): string {
  if (!UUID.test(raw)) throw new HttpError(400, 'Invalid job ID format. Job ID must be a valid UUID.', 'BAD_REQUEST');
  return raw.toLowerCase();
}

export function crawlRoutes(deps: GatewayDeps): Router {
  const router = Router();

  router.post('/crawl', async (req, res) => {
    const { request, prompt } = await parseCrawlRequest(req.body, deps.config);
    const { team, apiKeyId } = authOf(res);
    const id = await startCrawl(deps, team, apiKeyId, request);
    noteActivityJob(res, id);
    res.json({ success: true, id, url: `${publicBase(req, deps.config.gateway.publicBaseUrl)}/v2/crawl/${id}`, ...prompt });
  });

  // Before /crawl/:id, which would take "active" for an id.
  router.get(['/crawl/active', '/crawl/ongoing'], async (_req, res) => {
    res.json({ success: true, crawls: await activeCrawls(deps.db, authOf(res).team.id) });
  });

  /** The caller's crawl, or the same 404 for unknown, foreign and expired ids. */
  async function ownCrawl(rawId: string, teamId: string) {
    const id = jobId(rawId);
    const crawl = await deps.db.crawl.findFirst({ where: { id, teamId } });
    if (!crawl || (crawl.expiresAt && crawl.expiresAt.getTime() <= Date.now())) throw notFound();
    return crawl;
  }

  router.get('/crawl/:id/errors', async (req, res) => {
    const crawl = await ownCrawl(req.params.id, authOf(res).team.id);
    res.json(await crawlErrors(deps.db, crawl.id));
  });

  router.get('/crawl/:id/webhooks', async (req, res) => {
    const crawl = await ownCrawl(req.params.id, authOf(res).team.id);
    res.json(await webhookDeliveries(deps.db, crawl.id));
  });

  router.delete('/crawl/:id', async (req, res) => {
    const crawl = await ownCrawl(req.params.id, authOf(res).team.id);
    await cancelCrawl(deps.db, deps.temporal, crawl);
    res.json({ success: true, status: 'cancelled' });
  });

  router.get('/crawl/:id', async (req, res) => {
    const page = paginationSchema.safeParse(req.query);
    if (!page.success) throw new HttpError(400, `Invalid pagination: ${page.error.issues[0].message}`, 'BAD_REQUEST');
    const crawl = await ownCrawl(req.params.id, authOf(res).team.id);
    const id = crawl.id;
    res.json(await crawlStatusBody(deps.db, crawl, page.data, `${publicBase(req, deps.config.gateway.publicBaseUrl)}/v2/crawl/${id}`, deps.config.crawl.retentionHours));
  });

  return router;
}
