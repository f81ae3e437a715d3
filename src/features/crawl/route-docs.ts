// The contract of the crawl routes (routes.ts).
import { z } from 'zod';
import type { RouteDoc } from '../../platform/http/route-doc.ts';
import { crawlRequestSchema } from '../../jobs/crawl-request.ts';
import { activeCrawlsSchema, jobStartedSchema } from '../../jobs/job-responses.ts';
import { jobStatusRouteDocs } from '../../jobs/job-route-docs.ts';
import { paramsPreviewRequestSchema, paramsPreviewSchema } from './params-preview.ts';

export const crawlStartedSchema = jobStartedSchema.extend({
  promptGeneratedOptions: z.record(z.string(), z.unknown()).optional().describe('With a prompt: the options the model generated.'),
  finalCrawlerOptions: z.record(z.string(), z.unknown()).optional().describe('With a prompt: the options the crawl runs with.'),
});

const activeCrawls = (path: string, operationId: string): RouteDoc => ({
  method: 'get',
  path,
  operationId,
  summary: 'The team’s running crawls',
  tag: 'crawl',
  responses: { 200: activeCrawlsSchema },
});

export const crawlRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/v2/crawl',
    operationId: 'startCrawl',
    summary: 'Start a crawl of a site',
    tag: 'crawl',
    body: crawlRequestSchema,
    responses: { 200: crawlStartedSchema },
    errors: [402, 403, 503],
  },
  {
    method: 'post',
    path: '/v2/crawl/params-preview',
    operationId: 'previewCrawlParams',
    summary: 'The crawler options a prompt would produce, without starting a crawl',
    description:
      'Asks the configured LLM (LLM_BASE_URL); without one, or when its answer is unusable, a 400. Keys other than url, prompt and origin are dropped.',
    tag: 'crawl',
    body: paramsPreviewRequestSchema,
    responses: { 200: paramsPreviewSchema },
  },
  activeCrawls('/v2/crawl/active', 'getActiveCrawls'),
  activeCrawls('/v2/crawl/ongoing', 'getOngoingCrawls'),
  ...jobStatusRouteDocs('/crawl', 'crawl', 'crawl', 'Crawl'),
];
