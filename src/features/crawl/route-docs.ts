// The contract of the crawl routes (routes.ts).
import { z } from 'zod';
import type { RouteDoc } from '../../platform/http/route-doc.ts';
import { crawlRequestSchema } from '../../jobs/crawl-request.ts';
import { activeCrawlsSchema, jobStartedSchema } from '../../jobs/job-responses.ts';
import { jobStatusRouteDocs } from '../../jobs/job-route-docs.ts';

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
  activeCrawls('/v2/crawl/active', 'getActiveCrawls'),
  activeCrawls('/v2/crawl/ongoing', 'getOngoingCrawls'),
  ...jobStatusRouteDocs('/crawl', 'crawl', 'crawl', 'Crawl'),
];
