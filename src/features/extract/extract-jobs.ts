// The engine jobs an extract runs to fetch its pages: one batch scrape for its
// plain URLs, one crawl per `/*` URL (limited to EXTRACT_MAX_PAGES), each with
// markdown only, so fair share, team slots, credits and the address guard apply
// to them as to any job. Their ids derive from the extract's, so a retried commit
// finds them instead of making new ones.
import { v5 as uuidv5 } from 'uuid';
import { defaultScrapeOptions, type ScrapeOptions } from '../../page/scrape-options.ts';
import { crawlRequestSchema, type CrawlRequest } from '../../jobs/crawl-request.ts';
import { jobOptions } from '../../jobs/job-options.ts';
import type { JobKind } from '../../jobs/job-kind.ts';
import { WILDCARD_SUFFIX, type ExtractRequest } from './extract-request.ts';

const EXTRACT_JOB_NAMESPACE = 'c3a1d9e4-5b7f-4e2a-8d61-0f9b2c4e7a15';

export interface PlannedJob {
  id: string;
  kind: Extract<JobKind, 'batch_scrape' | 'crawl'>;
  url: string;
  options: CrawlRequest;
  /** The URLs a batch scrape starts with; a crawl plans its own. */
  urls?: string[];
}

/**
 * The caller's scrape options with markdown as the only format (the model reads the markdown), under
 * the extract's own threatProtection when it names one (the SDKs send it at the top level).
 */
function markdownOnly(so: ScrapeOptions | undefined, threatProtection: ExtractRequest['threatProtection']): ScrapeOptions {
  const options = so ?? defaultScrapeOptions();
  return { ...options, formats: [{ type: 'markdown' }], threatProtection: threatProtection ?? options.threatProtection };
}

export function isWildcard(url: string): boolean {
  return url.endsWith(WILDCARD_SUFFIX);
}

export function plannedJobs(extractId: string, req: ExtractRequest, maxPages: number): PlannedJob[] {
  const scrapeOptions = markdownOnly(req.scrapeOptions, req.threatProtection);
  const plain = [...new Set(req.urls.filter((u) => !isWildcard(u)))];
  const jobs: PlannedJob[] = [];
  if (plain.length > 0) {
    jobs.push({
      id: uuidv5(`${extractId}/batch`, EXTRACT_JOB_NAMESPACE),
      kind: 'batch_scrape',
      url: plain[0]!,
      options: jobOptions({ url: plain[0]!, scrapeOptions, zeroDataRetention: req.zeroDataRetention }),
      urls: plain,
    });
  }
  const wildcards = [...new Set(req.urls.filter(isWildcard).map((u) => u.slice(0, -WILDCARD_SUFFIX.length)))];
  for (const url of wildcards) {
    const crawl = crawlRequestSchema.parse({ url, limit: maxPages, allowExternalLinks: req.allowExternalLinks, sitemap: 'include' });
    jobs.push({
      id: uuidv5(`${extractId}/crawl/${url}`, EXTRACT_JOB_NAMESPACE),
      kind: 'crawl',
      url,
      options: { ...crawl, scrapeOptions, zeroDataRetention: req.zeroDataRetention },
    });
  }
  return jobs;
}
