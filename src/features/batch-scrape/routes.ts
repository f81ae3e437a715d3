import { Router } from 'express';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { noteActivityJob } from '../../platform/http/activity-log.ts';
import { HttpError } from '../../platform/http/http-error.ts';
import { publicBase } from '../../platform/http/public-url.ts';
import { jobStatusRoutes } from '../../jobs/job-routes.ts';
import { batchScrapeRequestSchema } from './batch-request.ts';
import { startBatchScrape } from './start-batch.ts';

const MAX_IDEMPOTENCY_KEY = 256;

function idempotencyKey(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (raw.length === 0 || raw.length > MAX_IDEMPOTENCY_KEY) {
    throw new HttpError(400, `x-idempotency-key must be 1 to ${MAX_IDEMPOTENCY_KEY} characters`, 'BAD_REQUEST');
  }
  return raw;
}

export function batchScrapeRoutes(deps: GatewayDeps): Router {
  const router = Router();

  router.post('/batch/scrape', async (req, res) => {
    const request = batchScrapeRequestSchema.parse(req.body ?? {});
    const { team, apiKeyId } = authOf(res);
    const { id, invalidURLs } = await startBatchScrape(deps, team, apiKeyId, request, idempotencyKey(req.get('x-idempotency-key')));
    noteActivityJob(res, id);
    res.json({
      success: true,
      id,
      url: `${publicBase(req, deps.config.gateway.publicBaseUrl)}/v2/batch/scrape/${id}`,
      ...(invalidURLs.length > 0 && { invalidURLs }),
    });
  });

  jobStatusRoutes(router, deps, '/batch/scrape', 'batch_scrape');

  return router;
}
