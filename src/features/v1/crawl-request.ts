// Body of POST /v1/crawl and its /v2 form. v1's own fields: maxDepth (path segments
// below the start URL, default 10), ignoreSitemap (v2's sitemap), allowBackwardLinks
// (v2's crawlEntireDomain, which wins when both are sent). v2's sitemap, prompt and
// robotsUserAgent are unknown keys here, as upstream.
import { z } from 'zod';
import { httpUrl, integration, origin } from '../../platform/http/common-schemas.ts';
import { crawlRequestSchema, type CrawlRequestInput, type JobExtras } from '../../jobs/crawl-request.ts';
import { pathDepth } from '../../jobs/frontier/link-filter.ts';
import { webhookSchema } from '../../jobs/webhooks/webhook-schema.ts';
import { toV2ScrapeOptions, v1ScrapeOptionsSchema } from './scrape-options.ts';

export const V1_DEFAULT_MAX_DEPTH = 10;
export const URL_TOO_DEEP_MESSAGE = 'URL depth exceeds the specified maxDepth';

const v2 = crawlRequestSchema.shape;

export const v1CrawlRequestSchema = z
  .strictObject({
    url: httpUrl.describe('Base URL where the crawl starts.'),
    includePaths: v2.includePaths,
    excludePaths: v2.excludePaths,
    maxDepth: z
      .int({ error: 'maxDepth must be a non-negative integer' })
      .min(0, 'maxDepth must be a non-negative integer')
      .default(V1_DEFAULT_MAX_DEPTH)
      .describe('How many path segments a followed URL may have beyond the start URL’s.'),
    maxDiscoveryDepth: v2.maxDiscoveryDepth,
    limit: v2.limit,
    allowBackwardLinks: z.boolean().default(false).describe('Deprecated name of crawlEntireDomain.'),
    crawlEntireDomain: z.boolean().optional(),
    allowExternalLinks: v2.allowExternalLinks,
    allowSubdomains: v2.allowSubdomains,
    ignoreRobotsTxt: v2.ignoreRobotsTxt,
    ignoreSitemap: z.boolean().default(false).describe('true: the sitemap is not read (v2 sitemap "skip").'),
    deduplicateSimilarURLs: v2.deduplicateSimilarURLs,
    ignoreQueryParameters: v2.ignoreQueryParameters,
    regexOnFullURL: v2.regexOnFullURL,
    delay: v2.delay,
    maxConcurrency: v2.maxConcurrency,
    scrapeOptions: v1ScrapeOptionsSchema.prefault({}),
    webhook: webhookSchema.optional(),
    zeroDataRetention: z.boolean().default(false),
    origin,
    integration,
  })
  .superRefine((req, ctx) => {
    if (pathDepth(req.url) > req.maxDepth) ctx.addIssue({ code: 'custom', message: URL_TOO_DEEP_MESSAGE, path: ['maxDepth'] });
  });

export type V1CrawlRequest = z.output<typeof v1CrawlRequestSchema>;

/** The /v2 crawl body, and what the job keeps beyond it. */
export function toV2Crawl(req: V1CrawlRequest): { body: CrawlRequestInput; extras: JobExtras } {
  const { scrapeOptions, jsonFields } = toV2ScrapeOptions(req.scrapeOptions);
  return {
    body: {
      url: req.url,
      includePaths: req.includePaths,
      excludePaths: req.excludePaths,
      maxDiscoveryDepth: req.maxDiscoveryDepth,
      sitemap: req.ignoreSitemap ? 'skip' : 'include',
      ignoreQueryParameters: req.ignoreQueryParameters,
      deduplicateSimilarURLs: req.deduplicateSimilarURLs,
      regexOnFullURL: req.regexOnFullURL,
      limit: req.limit,
      crawlEntireDomain: req.crawlEntireDomain ?? req.allowBackwardLinks,
      allowExternalLinks: req.allowExternalLinks,
      allowSubdomains: req.allowSubdomains,
      ignoreRobotsTxt: req.ignoreRobotsTxt,
      delay: req.delay,
      maxConcurrency: req.maxConcurrency,
      webhook: req.webhook,
      scrapeOptions,
      zeroDataRetention: req.zeroDataRetention,
      origin: req.origin,
      integration: req.integration,
    },
    extras: { maxPathDepth: req.maxDepth, ...(jsonFields && { jsonFields }) },
  };
}
