// Body of POST /v1/batch/scrape and its /v2 form: v1's scrape options at the top level
// beside the batch's own fields. ignoreInvalidURLs defaults to false in v1 (one bad URL
// refuses the batch), and invalidURLs is answered exactly when it was true.
import { z } from 'zod';
import { integration, origin } from '../../platform/http/common-schemas.ts';
import { batchScrapeRequestSchema, type BatchScrapeRequest } from '../../jobs/batch-request.ts';
import type { JobExtras } from '../../jobs/crawl-request.ts';
import { webhookSchema } from '../../jobs/webhooks/webhook-schema.ts';
import { pickScrapeOptions, refineV1ScrapeOptions, toV2ScrapeOptions, v1AgentField, v1ScrapeOptionsShape } from './scrape-options.ts';

const v2 = batchScrapeRequestSchema.shape;

export const v1BatchScrapeRequestSchema = z
  .strictObject({
    ...v1ScrapeOptionsShape,
    urls: v2.urls,
    webhook: webhookSchema.optional(),
    appendToId: v2.appendToId,
    ignoreInvalidURLs: z.boolean().default(false).describe('true: malformed and refused URLs are skipped and listed in invalidURLs.'),
    maxConcurrency: v2.maxConcurrency,
    zeroDataRetention: z.boolean().default(false),
    agent: v1AgentField,
    origin,
    integration,
  })
  .superRefine(refineV1ScrapeOptions);

export type V1BatchScrapeRequest = z.output<typeof v1BatchScrapeRequestSchema>;

/** The /v2 batch request (validated by /v2's schema, so its URL rules and limits apply), and what the job keeps beyond it. */
export function toV2BatchScrape(req: V1BatchScrapeRequest): { request: BatchScrapeRequest; extras: JobExtras } {
  const { scrapeOptions, jsonFields } = toV2ScrapeOptions(pickScrapeOptions(req));
  const request = batchScrapeRequestSchema.parse({
    ...scrapeOptions,
    urls: req.urls,
    webhook: req.webhook,
    appendToId: req.appendToId,
    ignoreInvalidURLs: req.ignoreInvalidURLs,
    maxConcurrency: req.maxConcurrency,
    zeroDataRetention: req.zeroDataRetention,
    origin: req.origin,
    integration: req.integration,
  });
  return { request, extras: jsonFields ? { jsonFields } : {} };
}
