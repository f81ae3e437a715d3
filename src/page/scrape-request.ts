// Body of POST /v2/scrape: a URL and the scrape options crawl pages take, at the top level.
import { z } from 'zod';
import { httpUrl, integration, origin } from '../platform/http/common-schemas.ts';
import { scrapeOptionsSchema, type ScrapeOptions } from './scrape-options.ts';

export const scrapeRequestSchema = scrapeOptionsSchema.safeExtend({
  url: httpUrl,
  // The Python SDK sends fastMode: false with every scrape; pages load one way here.
  fastMode: z.boolean().optional(),
  zeroDataRetention: z.boolean().default(false),
  origin,
  integration,
});

export type ScrapeRequest = z.output<typeof scrapeRequestSchema>;

export function scrapeRequestOptions(req: ScrapeRequest): ScrapeOptions {
  const { url: _u, fastMode: _f, zeroDataRetention: _z, origin: _o, integration: _i, ...scrapeOptions } = req;
  return scrapeOptions;
}
