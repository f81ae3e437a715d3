import { Router } from 'express';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { noteActivityJob } from '../../platform/http/activity-log.ts';
import { publicBase } from '../../platform/http/public-url.ts';
import { jobStatusRoutes } from '../../jobs/job-routes.ts';
import { batchScrapeRequestSchema } from '../../jobs/batch-request.ts';
import { startBatchScrape } from '../../jobs/start-batch.ts';
import type { JobSettings } from '../../jobs/config.ts';

export function batchScrapeRoutes(deps: GatewayDeps<JobSettings>): Router {
  const router = Router();

  router.post('/batch/scrape', async (req, res) => {
    const request = batchScrapeRequestSchema.parse(req.body ?? {});
    const { team, apiKeyId } = authOf(res);
    const { id, invalidURLs } = await startBatchScrape(deps, team, apiKeyId, request);
    noteActivityJob(res, id);
    res.json({
      success: true,
      id,
      url: `${publicBase(deps.config)}/v2/batch/scrape/${id}`,
      ...(invalidURLs.length > 0 && { invalidURLs }),
    });
  });

  jobStatusRoutes(router, deps, '/batch/scrape', 'batch_scrape');

  return router;
}
