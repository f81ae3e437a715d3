// Body of POST /v1/scrape and its /v2 form: a URL and v1's scrape options at the top
// level. A v1 scrape waits 30 s by default (v2: 60 s).
import { z } from 'zod';
import { httpUrl, integration, origin } from '../../platform/http/common-schemas.ts';
import type { JsonField } from '../../jobs/crawl-request.ts';
import { pickScrapeOptions, refineV1ScrapeOptions, toV2ScrapeOptions, v1AgentField, v1ScrapeOptionsShape, V1_SDK_TIMEOUT_MS } from './scrape-options.ts';

export const v1ScrapeRequestSchema = z
  .strictObject({
    ...v1ScrapeOptionsShape,
    url: httpUrl,
    zeroDataRetention: z.boolean().default(false),
    agent: v1AgentField,
    origin,
    integration,
  })
  .superRefine(refineV1ScrapeOptions);

export type V1ScrapeRequest = z.output<typeof v1ScrapeRequestSchema>;

/** The /v2 scrape body, and where the answer's document keeps the json result. */
export function toV2Scrape(req: V1ScrapeRequest): { body: Record<string, unknown>; jsonFields?: JsonField[] } {
  const { scrapeOptions, jsonFields } = toV2ScrapeOptions(pickScrapeOptions(req), V1_SDK_TIMEOUT_MS);
  return {
    body: { ...scrapeOptions, url: req.url, zeroDataRetention: req.zeroDataRetention, origin: req.origin, integration: req.integration },
    jsonFields,
  };
}
