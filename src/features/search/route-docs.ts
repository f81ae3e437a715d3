// The contract of POST /v2/search (routes.ts).
import { z } from 'zod';
import type { RouteDoc } from '../../platform/http/route-doc.ts';
import { pageDocumentSchema } from '../../page/document-schema.ts';
import { CATEGORIES, searchRequestSchema } from './search-request.ts';

// A result the request asked to scrape carries the scraped document's fields too.
const scraped = pageDocumentSchema.partial();
const position = z.number().int().describe('1-based rank among the results of its source.');

export const searchAnswerSchema = z.object({
  success: z.literal(true),
  data: z.object({
    web: z.array(scraped.extend({ url: z.string(), title: z.string(), description: z.string(), category: z.enum(CATEGORIES).optional(), position })).optional(),
    news: z
      .array(
        scraped.extend({
          url: z.string(),
          title: z.string(),
          snippet: z.string(),
          date: z.string().optional(),
          imageUrl: z.string().optional(),
          category: z.enum(CATEGORIES).optional(),
          position,
        }),
      )
      .optional(),
    images: z
      .array(
        z.object({
          url: z.string().describe('The page the image is on.'),
          title: z.string(),
          imageUrl: z.string(),
          imageWidth: z.number().int().optional(),
          imageHeight: z.number().int().optional(),
          position,
        }),
      )
      .optional(),
    tools: z
      .array(z.record(z.string(), z.unknown()))
      .max(0)
      .optional()
      .describe('With the alexandria source or domainTools: always empty, tools are a Firecrawl cloud service (the warning says so).'),
  }),
  warning: z.string().nullable(),
  id: z.string(),
  creditsUsed: z.number(),
});

export const searchRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/v2/search',
    operationId: 'search',
    summary: 'Search the local index of crawled pages and any configured web engine',
    tag: 'search',
    body: searchRequestSchema,
    responses: { 200: searchAnswerSchema },
    errors: [402, 403, 501, 503],
  },
];
