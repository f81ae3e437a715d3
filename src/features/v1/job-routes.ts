// The /v1 routes of crawls and batch scrapes. Starts go to the job engine's own start
// functions (as /v2's do) with the extras only v1 sets; status, cancel, errors and the
// active list read the engine's tables through the same functions /v2's routes use.
// As upstream, the crawl and batch status routes are one: either serves either kind
// (the JS SDK polls a batch at /v1/crawl/{id}), and `next` keeps the route's path.
import { Router } from 'express';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { noteActivityJob } from '../../platform/http/activity-log.ts';
import { HttpError } from '../../platform/http/http-error.ts';
import { publicBase } from '../../platform/http/public-url.ts';
import { crawlRequestSchema } from '../../jobs/crawl-request.ts';
import { activeCrawls, cancelCrawl, crawlErrors } from '../../jobs/job-admin.ts';
import type { JobKind } from '../../jobs/job-kind.ts';
import { ownJob, paginationSchema } from '../../jobs/job-routes.ts';
import { crawlStatusBody } from '../../jobs/job-status.ts';
import { startBatchScrape } from '../../jobs/start-batch.ts';
import { startCrawl } from '../../jobs/start-crawl.ts';
import { v1CrawlOptions, v1JobStatus } from './answers.ts';
import { toV2BatchScrape, v1BatchScrapeRequestSchema } from './batch-request.ts';
import { toV2Crawl, v1CrawlRequestSchema } from './crawl-request.ts';
import type { JobSettings } from '../../jobs/config.ts';

const PIPELINE_JOBS: readonly JobKind[] = ['crawl', 'batch_scrape'];

export function v1JobRoutes(deps: GatewayDeps<JobSettings>): Router {
  const router = Router();
  const base = () => `${publicBase(deps.config)}/v1`;

  router.post('/crawl', async (req, res) => {
    const { body, extras } = toV2Crawl(v1CrawlRequestSchema.parse(req.body ?? {}));
    const request = crawlRequestSchema.parse(body);
    const { team, apiKeyId } = authOf(res);
    const id = await startCrawl(deps, team, apiKeyId, { ...request, ...extras });
    noteActivityJob(res, id);
    res.json({ success: true, id, url: `${base()}/crawl/${id}` });
  });

  router.post('/batch/scrape', async (req, res) => {
    const v1 = v1BatchScrapeRequestSchema.parse(req.body ?? {});
    const { request, extras } = toV2BatchScrape(v1);
    const { team, apiKeyId } = authOf(res);
    const { id, invalidURLs } = await startBatchScrape(deps, team, apiKeyId, request, extras);
    noteActivityJob(res, id);
    res.json({ success: true, id, url: `${base()}/batch/scrape/${id}`, ...(v1.ignoreInvalidURLs && { invalidURLs }) });
  });

  // Before /crawl/:id, which would take "active" for an id.
  router.get(['/crawl/active', '/crawl/ongoing'], async (_req, res) => {
    const crawls = await activeCrawls(deps.db, authOf(res).team.id);
    res.json({ success: true, crawls: crawls.map((c) => ({ ...c, options: v1CrawlOptions(c.options) })) });
  });

  for (const path of ['/crawl', '/batch/scrape']) {
    router.get(`${path}/:id`, async (req, res) => {
      const page = paginationSchema.safeParse(req.query);
      if (!page.success) throw new HttpError(400, `Invalid pagination: ${page.error.issues[0].message}`, 'BAD_REQUEST');
      const job = await ownJob(deps.db, req.params.id, authOf(res).team.id, PIPELINE_JOBS);
      const status = await crawlStatusBody(deps.db, job, page.data, `${base()}${path}/${job.id}`, deps.config.crawl.retentionHours);
      res.json(v1JobStatus(status, job.error));
    });

    // The JS SDK asks for errors with DELETE: that route reads them, it never cancels.
    router.get(`${path}/:id/errors`, async (req, res) => {
      const job = await ownJob(deps.db, req.params.id, authOf(res).team.id, PIPELINE_JOBS);
      res.json(await crawlErrors(deps.db, job.id));
    });
    router.delete(`${path}/:id/errors`, async (req, res) => {
      const job = await ownJob(deps.db, req.params.id, authOf(res).team.id, PIPELINE_JOBS);
      res.json(await crawlErrors(deps.db, job.id));
    });

    router.delete(`${path}/:id`, async (req, res) => {
      const job = await ownJob(deps.db, req.params.id, authOf(res).team.id, PIPELINE_JOBS);
      await cancelCrawl(deps.db, deps.temporal, job);
      res.json({ status: 'cancelled' });
    });
  }

  return router;
}
