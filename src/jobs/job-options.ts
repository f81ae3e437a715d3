// The stored options of a batch or a single scrape. Their rows are read by the
// same activities as a crawl's, so they hold a crawl request: no discovery, no
// sitemap, no page limit beyond the URLs given (the frontier was seeded with
// them); robots.txt is a crawl rule (job-kind.ts), not set here.
import type { CrawlSettings } from './config.ts';
import type { ScrapeOptions } from '../page/scrape-options.ts';
import type { Webhook } from './webhooks/webhook-schema.ts';
import { crawlRequestSchema, MAX_CRAWL_LIMIT, type CrawlRequest } from './crawl-request.ts';
import type { NewFrontierUrl } from './frontier/frontier.ts';
import { canonicalUrl, urlKey } from './frontier/normalize-url.ts';
import { isTooLong, tooLongReason } from './frontier/url-length.ts';

export interface JobFields {
  url: string;
  scrapeOptions: ScrapeOptions;
  webhook?: Webhook;
  maxConcurrency?: number;
  zeroDataRetention: boolean;
  origin?: string;
  integration?: string | null;
}

export function jobOptions(fields: JobFields): CrawlRequest {
  return {
    ...crawlRequestSchema.parse({ url: fields.url }),
    ...fields,
    sitemap: 'skip',
    maxDiscoveryDepth: 0,
    limit: MAX_CRAWL_LIMIT,
  };
}

/** Frontier rows for URLs a caller named, or why a URL cannot be one. */
export function seedRow(url: string, config: { crawl: Pick<CrawlSettings, 'maxUrlLength'> }): { row: NewFrontierUrl } | { problem: string } {
  const norm = { ignoreQueryParameters: false };
  const row = { url: canonicalUrl(url, norm), urlKey: urlKey(url, norm), depth: 0 };
  return isTooLong(row, config.crawl.maxUrlLength) ? { problem: `The URL ${tooLongReason(row, config.crawl.maxUrlLength)}` } : { row };
}
