// Body of POST /v2/batch/scrape: the scrape options at the top level (as upstream),
// the URLs and the batch's own fields. Strict, like every body.
import { z } from 'zod';
import { normaliseHttpUrl } from '../platform/http/common-schemas.ts';
import { scrapeOptionsSchema, type ScrapeOptions } from '../page/scrape-options.ts';
import { webhookSchema } from './webhooks/webhook-schema.ts';
import { MAX_CONCURRENCY_MESSAGE } from './crawl-request.ts';

/** Longest URL string read from the list; the crawl pipeline's own length limit applies after parsing. */
const MAX_URL_STRING = 8192;

export const batchScrapeRequestSchema = scrapeOptionsSchema
  .safeExtend({
    urls: z
      .array(z.string({ error: 'urls must be an array of URL strings' }).max(MAX_URL_STRING, `URLs must be at most ${MAX_URL_STRING} characters`), {
        error: 'urls must be an array of URL strings',
      })
      .min(1, 'urls must contain at least one URL'),
    webhook: webhookSchema.optional(),
    appendToId: z.uuid('appendToId must be the id of a batch scrape').optional(),
    /**
     * Sent as true: malformed and refused URLs are skipped and listed in invalidURLs. Absent:
     * malformed URLs are refused (400), refused addresses skipped. Sent as false: both refused.
     */
    ignoreInvalidURLs: z.boolean().optional(),
    maxConcurrency: z.int({ error: MAX_CONCURRENCY_MESSAGE }).min(1, MAX_CONCURRENCY_MESSAGE).optional(),
    zeroDataRetention: z.boolean().default(false),
  })
  .superRefine((req, ctx) => {
    if (req.ignoreInvalidURLs === true) return;
    req.urls.forEach((url, i) => {
      const parsed = normaliseHttpUrl(url);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', path: ['urls', i], message: `${parsed.message}: ${url.slice(0, 200)}`, input: url });
    });
  });

export type BatchScrapeRequest = z.output<typeof batchScrapeRequestSchema>;

/** The request's scrape options, apart from the batch's own fields. */
export function batchScrapeOptions(req: BatchScrapeRequest): ScrapeOptions {
  const {
    urls: _u,
    webhook: _w,
    appendToId: _a,
    ignoreInvalidURLs: _i,
    maxConcurrency: _m,
    zeroDataRetention: _z,
    origin: _o,
    integration: _n,
    ...scrapeOptions
  } = req;
  return scrapeOptions;
}
