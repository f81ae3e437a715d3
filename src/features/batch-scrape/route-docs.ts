// The contract of the batch scrape routes (routes.ts).
import { z } from 'zod';
import type { RouteDoc } from '../../platform/http/route-doc.ts';
import { jobStartedSchema } from '../../jobs/job-responses.ts';
import { jobStatusRouteDocs } from '../../jobs/job-route-docs.ts';
import { batchScrapeRequestSchema } from '../../jobs/batch-request.ts';

export const batchStartedSchema = jobStartedSchema.extend({
  invalidURLs: z.array(z.string()).optional().describe('With ignoreInvalidURLs: the URLs left out.'),
});

export const batchScrapeRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/v2/batch/scrape',
    operationId: 'startBatchScrape',
    summary: 'Scrape a list of URLs as one job',
    description: 'An `x-idempotency-key` header (1 to 256 characters) makes a repeated request answer the first batch instead of starting another.',
    tag: 'batch scrape',
    body: batchScrapeRequestSchema,
    responses: { 200: batchStartedSchema },
    errors: [402, 403, 409, 503],
  },
  ...jobStatusRouteDocs('/batch/scrape', 'batch scrape', 'batch scrape', 'BatchScrape'),
];
