// The job's decisions about a page that are plain arithmetic on what it knows: whether its links
// are followed at its depth, what it costs, and whether a copy of it goes to the page cache.
import { pageCredits } from '../../platform/usage/credits.ts';
import type { PageLoad } from '../../page/page-load.ts';
import type { ModelUse } from '../../page/page-document.ts';
import type { ScrapeOptions } from '../../page/scrape-options.ts';
import type { ChangeTrackingFormat } from '../../page/formats/change-tracking/change-tracking-format.ts';
import { answeredCredits } from '../../page/formats/format-costs.ts';
import type { JobOptions } from '../crawl-request.ts';
import { discoversLinks, type JobKind } from '../job-kind.ts';
import { cacheWritable } from '../pages/page-cache.ts';
import type { LoadPath } from '../pages/page-metrics.ts';

/** The job follows the links of a page found at `depth` (its URL filter has the last word, see followsLinksOn). */
export function followsLinksAt(kind: JobKind, options: Pick<JobOptions, 'sitemap' | 'maxDiscoveryDepth'>, depth: number): boolean {
  return discoversLinks(kind) && options.sitemap !== 'only' && (options.maxDiscoveryDepth === undefined || depth < options.maxDiscoveryDepth);
}

export interface PageCostTerms {
  zeroDataRetention: boolean;
  redacted: boolean;
  /** The PDF parser's maxPages: pages beyond it are neither parsed nor charged. */
  pdfMaxPages: number | undefined;
  tracking: ChangeTrackingFormat | undefined;
}

/** The page's credits; change tracking's fields, when a model extracted them, are the format's answer. */
export function storedPageCredits(terms: PageCostTerms, pdf: PageLoad['pdf'], modelUse: ModelUse, fieldsExtracted: boolean): number {
  return pageCredits({
    zeroDataRetention: terms.zeroDataRetention,
    pdfPages: pdf && Math.min(pdf.numPages, terms.pdfMaxPages ?? Infinity),
    formatCredits: answeredCredits([...modelUse.answered, ...(terms.tracking && fieldsExtracted ? [terms.tracking.type] : [])]),
    redacted: terms.redacted,
  });
}

/** A page read from the cache is not cached again, nor is an error page, nor what the request keeps out of it. */
export function keepsCacheCopy(path: LoadPath, statusCode: number, so: ScrapeOptions, zeroDataRetention: boolean): boolean {
  return path !== 'cache' && statusCode < 400 && cacheWritable(so, zeroDataRetention);
}
