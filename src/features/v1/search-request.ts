// Body of POST /v1/search and its /v2 form: web results only (v1 has no sources or
// categories), 5 of them by default, and scrapeOptions whose formats default to none,
// which means the results are not scraped.
import { z } from 'zod';
import { integration, origin } from '../../platform/http/common-schemas.ts';
import type { JsonField } from '../../jobs/crawl-request.ts';
import { refineV1ScrapeOptions, toV2ScrapeOptions, V1_FORMATS, v1ScrapeOptionsShape } from './scrape-options.ts';

export const V1_DEFAULT_SEARCH_LIMIT = 5;

const searchScrapeOptions = z
  .strictObject({ ...v1ScrapeOptionsShape, formats: v1ScrapeOptionsShape.formats.removeDefault().default([]) })
  .superRefine(refineV1ScrapeOptions)
  .describe(`How each result is scraped: formats among ${V1_FORMATS.join(', ')}; none (the default) leaves the results unscraped.`);

export const v1SearchRequestSchema = z.strictObject({
  query: z.string({ error: 'query must be a string' }),
  limit: z.int().default(V1_DEFAULT_SEARCH_LIMIT),
  tbs: z.string().optional(),
  filter: z.string().optional(),
  lang: z.string().default('en'),
  country: z.string().optional(),
  location: z.string().optional(),
  timeout: z.int().optional(),
  ignoreInvalidURLs: z.boolean().default(false),
  scrapeOptions: searchScrapeOptions.optional(),
  origin,
  integration,
});

export type V1SearchRequest = z.output<typeof v1SearchRequestSchema>;

/** The /v2 search body; `scraped` says whether results are scraped (then markdown decides which are kept), `jsonFields` where their json result goes. */
export function toV2Search(req: V1SearchRequest): { body: Record<string, unknown>; formats: string[]; jsonFields?: JsonField[] } {
  const formats = req.scrapeOptions?.formats ?? [];
  const translated = req.scrapeOptions && formats.length > 0 ? toV2ScrapeOptions(req.scrapeOptions) : undefined;
  return {
    body: {
      query: req.query,
      limit: req.limit,
      sources: ['web'],
      tbs: req.tbs,
      filter: req.filter,
      lang: req.lang,
      country: req.country,
      location: req.location,
      timeout: req.timeout,
      ignoreInvalidURLs: req.ignoreInvalidURLs,
      ...(translated && { scrapeOptions: translated.scrapeOptions }),
      origin: req.origin,
      integration: req.integration,
    },
    formats: formats.map((f) => (f === 'content' ? 'markdown' : f)),
    jsonFields: translated?.jsonFields,
  };
}
