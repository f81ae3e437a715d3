// The contract of the /v1 routes (routes.ts, job-routes.ts).
import { z } from 'zod';
import type { RouteDoc } from '../../platform/http/route-doc.ts';
import { activeCrawlsSchema, jobErrorsSchema, jobStartedSchema } from '../../jobs/job-responses.ts';
import { paginationSchema } from '../../jobs/job-routes.ts';
import {
  sameAsV2Schema,
  v1CancelledSchema,
  v1CreditHistorySchema,
  v1CreditUsageSchema,
  v1ExtractStartedSchema,
  v1ExtractStatusSchema,
  v1JobStatusSchema,
  v1MapAnswerSchema,
  v1ScrapeAnswerSchema,
  v1SearchAnswerSchema,
  v1TokenHistorySchema,
  v1TokenUsageSchema,
} from './answers.ts';
import { v1BatchScrapeRequestSchema } from './batch-request.ts';
import { v1CrawlRequestSchema } from './crawl-request.ts';
import { v1ExtractRequestSchema } from './extract-request.ts';
import { v1MapRequestSchema } from './map-request.ts';
import { v1ScrapeRequestSchema } from './scrape-request.ts';
import { v1SearchRequestSchema } from './search-request.ts';
import { RETIRED_ROUTES } from './retired-routes.ts';

const TAG = 'v1';
// As GET /v2/team/*/historical reads it: the /v1 route hands its query string on.
const historyQuerySchema = z.object({ byApiKey: z.enum(['true', 'false']).default('false').describe('true: one period per API key and month.') });
const idParams = z.object({ id: z.string().describe('The job id.') });
const V1 = 'Firecrawl v1 shape; see docs/api/v1.md for what maps to what.';

function jobRoutes(path: string, noun: string, prefix: string): RouteDoc[] {
  return [
    {
      method: 'get',
      path: `/v1${path}/:id`,
      operationId: `v1Get${prefix}Status`,
      summary: `Status of a ${noun} and a page of its documents (v1)`,
      description: `Serves crawls and batch scrapes alike; \`next\` keeps this path. ${V1}`,
      tag: TAG,
      params: idParams,
      query: paginationSchema,
      responses: { 200: v1JobStatusSchema },
      errors: [400, 404],
    },
    {
      method: 'delete',
      path: `/v1${path}/:id`,
      operationId: `v1Cancel${prefix}`,
      summary: `Cancel a ${noun} (v1)`,
      tag: TAG,
      params: idParams,
      responses: { 200: v1CancelledSchema },
      errors: [400, 404, 409, 503],
    },
    ...(['get', 'delete'] as const).map((method): RouteDoc => ({
      method,
      path: `/v1${path}/:id/errors`,
      operationId: `v1${method === 'get' ? 'Get' : 'DeleteRead'}${prefix}Errors`,
      summary: `Pages of a ${noun} that failed, and URLs robots.txt blocked (v1)`,
      ...(method === 'delete' && { description: 'The JS v1 SDK asks with DELETE; this reads the errors and cancels nothing.' }),
      tag: TAG,
      params: idParams,
      responses: { 200: jobErrorsSchema },
      errors: [400, 404],
    })),
  ];
}

const team = (path: string, operationId: string, summary: string, answer: z.ZodType, query?: z.ZodObject): RouteDoc => ({
  method: 'get',
  path: `/v1${path}`,
  operationId,
  summary,
  tag: TAG,
  ...(query && { query, errors: [400] }),
  responses: { 200: answer },
});

export const v1RouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/v1/scrape',
    operationId: 'v1Scrape',
    summary: 'Scrape one page and wait for its document (v1)',
    description: V1,
    tag: TAG,
    body: v1ScrapeRequestSchema,
    responses: { 200: v1ScrapeAnswerSchema },
    errors: [402, 403, 408, 503],
  },
  {
    method: 'get',
    path: '/v1/scrape/:id',
    operationId: 'v1GetScrape',
    summary: 'The document of a finished scrape (v1)',
    tag: TAG,
    params: idParams,
    responses: { 200: v1ScrapeAnswerSchema },
    errors: [400, 404, 409],
  },
  {
    method: 'post',
    path: '/v1/crawl',
    operationId: 'v1StartCrawl',
    summary: 'Start a crawl (v1)',
    description: V1,
    tag: TAG,
    body: v1CrawlRequestSchema,
    responses: { 200: jobStartedSchema },
    errors: [402, 403, 503],
  },
  ...(['active', 'ongoing'] as const).map((name): RouteDoc => ({
    method: 'get',
    path: `/v1/crawl/${name}`,
    operationId: `v1${name === 'active' ? 'Active' : 'Ongoing'}Crawls`,
    summary: 'The team’s running crawls, their options under v1’s names (v1)',
    tag: TAG,
    responses: { 200: activeCrawlsSchema },
  })),
  ...jobRoutes('/crawl', 'crawl', 'Crawl'),
  {
    method: 'post',
    path: '/v1/batch/scrape',
    operationId: 'v1StartBatchScrape',
    summary: 'Scrape a list of URLs as one job (v1)',
    description: V1,
    tag: TAG,
    body: v1BatchScrapeRequestSchema,
    responses: { 200: jobStartedSchema.extend({ invalidURLs: z.array(z.string()).optional().describe('Only with ignoreInvalidURLs: the URLs left out.') }) },
    errors: [402, 403, 404, 503],
  },
  ...jobRoutes('/batch/scrape', 'batch scrape', 'BatchScrape'),
  {
    method: 'post',
    path: '/v1/map',
    operationId: 'v1Map',
    summary: 'List a site’s URLs (v1: plain strings)',
    tag: TAG,
    body: v1MapRequestSchema,
    responses: { 200: v1MapAnswerSchema },
    errors: [402, 403, 408, 503],
  },
  {
    method: 'post',
    path: '/v1/search',
    operationId: 'v1Search',
    summary: 'Search the web results (v1: a flat list)',
    tag: TAG,
    body: v1SearchRequestSchema,
    responses: { 200: v1SearchAnswerSchema },
    errors: [402, 403, 503],
  },
  {
    method: 'post',
    path: '/v1/extract',
    operationId: 'v1StartExtract',
    summary: 'Start an extract (v1, deprecated: POST /v2/extract)',
    description: 'Answers carry Deprecation, Link and Warning headers.',
    tag: TAG,
    body: v1ExtractRequestSchema,
    responses: { 200: v1ExtractStartedSchema },
    errors: [402, 403, 503],
  },
  {
    method: 'get',
    path: '/v1/extract/:id',
    operationId: 'v1GetExtract',
    summary: 'An extract’s status and data (v1, deprecated: GET /v2/extract/{id})',
    tag: TAG,
    params: idParams,
    responses: { 200: v1ExtractStatusSchema },
    errors: [404],
  },
  team('/team/credit-usage', 'v1GetCreditUsage', 'The team’s remaining credits (v1: snake_case)', v1CreditUsageSchema),
  team('/team/token-usage', 'v1GetTokenUsage', 'The team’s remaining tokens (v1: snake_case)', v1TokenUsageSchema),
  team('/team/credit-usage/historical', 'v1GetCreditUsageHistory', 'Credits used month by month (v1)', v1CreditHistorySchema, historyQuerySchema),
  team('/team/token-usage/historical', 'v1GetTokenUsageHistory', 'Tokens used month by month (v1)', v1TokenHistorySchema, historyQuerySchema),
  team('/team/queue-status', 'v1GetQueueStatus', 'The team’s running jobs and its concurrency (v1)', sameAsV2Schema('GET /v2/team/queue-status')),
  team('/concurrency-check', 'v1GetConcurrency', 'Pages of the team being scraped now, beside its limit (v1)', sameAsV2Schema('GET /v2/concurrency-check')),
  ...RETIRED_ROUTES.flatMap(({ path, replacement }): RouteDoc[] => {
    const name = path === '/deep-research' ? 'DeepResearch' : 'LlmsTxt';
    return [
      {
        method: 'post',
        path: `/v1${path}`,
        operationId: `v1Start${name}`,
        summary: `Not offered: always 410 (v1${replacement ? `; use ${replacement}` : ''})`,
        tag: TAG,
        responses: {},
        errors: [410],
      },
      {
        method: 'get',
        path: `/v1${path}/:id`,
        operationId: `v1Get${name}`,
        summary: 'Not offered: always 404 (v1)',
        tag: TAG,
        params: idParams,
        responses: {},
        errors: [404],
      },
    ];
  }),
];
