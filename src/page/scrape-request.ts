// Body of POST /v2/scrape: a URL and the scrape options crawl pages take, at the top level.
import { z } from 'zod';
import { httpUrl } from '../platform/http/common-schemas.ts';
import { scrapeOptionsSchema, type ScrapeOptions } from './scrape-options.ts';

export const scrapeRequestSchema = scrapeOptionsSchema.safeExtend({
  url: httpUrl,
  zeroDataRetention: z.boolean().default(false),
});

export type ScrapeRequest = z.output<typeof scrapeRequestSchema>;

export function scrapeRequestOptions(req: ScrapeRequest): ScrapeOptions {
  const { url: _u, zeroDataRetention: _z, origin: _o, integration: _i, ...scrapeOptions } = req;
  return scrapeOptions;
}
