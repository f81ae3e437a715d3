// The contract of the single-page scrape routes (routes.ts).
import { z } from 'zod';
import type { RouteDoc } from '../../platform/http/route-doc.ts';
import { pageDocumentSchema } from '../../page/document-schema.ts';
import { scrapeRequestSchema } from '../../page/scrape-request.ts';
import { alexandriaScrapeRequestSchema } from './alexandria-request.ts';

export const scrapeAnswerSchema = z.object({ success: z.literal(true), data: pageDocumentSchema });

export const scrapeRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/v2/scrape',
    operationId: 'scrape',
    summary: 'Scrape one page and wait for its document',
    description:
      'Waits at most `timeout` ms. Past it the answer is a 408 `SCRAPE_TIMEOUT` and the scrape goes on; `details` `{ id, state: "processing_continues", retryAfterSeconds }` ' +
      'and `Retry-After` say so, and the same body sent again (as both official SDKs do) is answered by that scrape: the page is fetched and charged once. ' +
      'An identical request while a scrape of it runs shares it too. Not with `zeroDataRetention` (its 408 carries only `details.id`).' +
      ' A body of Alexandria exchange calls (`alexandria`, the SDKs’ findTools) is validated and refused: 501 CLOUD_SERVICE_NOT_OFFERED (docs/api/cloud-services.md).',
    tag: 'scrape',
    body: z.union([scrapeRequestSchema, alexandriaScrapeRequestSchema]),
    responses: { 200: scrapeAnswerSchema },
    errors: [402, 403, 408, 501, 503],
  },
  {
    method: 'get',
    path: '/v2/scrape/:id',
    operationId: 'getScrape',
    summary: 'The document of a finished scrape',
    tag: 'scrape',
    params: z.object({ id: z.uuid().describe('The scrape id (metadata.scrapeId).') }),
    responses: { 200: scrapeAnswerSchema },
    errors: [400, 404, 409],
  },
];
