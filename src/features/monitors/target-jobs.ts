// What a check runs for each target: the job of the engine (a batch scrape for a
// scrape target, a crawl for a crawl target) with the changeTracking format added
// under the monitor's own tag, so its pages are compared with the monitor's previous
// check and never with the team's other scrapes of the same URLs.
import { changeTrackingOf } from '../../page/formats/change-tracking/change-tracking-format.ts';
import { defaultScrapeOptions, type ScrapeFormat, type ScrapeOptions } from '../../page/scrape-options.ts';
import { crawlRequestSchema, type CrawlRequest } from '../../jobs/crawl-request.ts';
import { jobOptions } from '../../jobs/job-options.ts';
import type { JobKind } from '../../jobs/job-kind.ts';
import { targetSchema, type MonitorTarget } from './monitor-request.ts';

/** A stored target with the id the monitor gave it. */
export type StoredTarget = MonitorTarget & { id: string };

export function monitorTag(monitorId: string): string {
  return `monitor-${monitorId}`;
}

/** The target's scrape options with markdown and the monitor's changeTracking format (its modes kept, git-diff by default). */
export function trackedScrapeOptions(so: ScrapeOptions | undefined, monitorId: string): ScrapeOptions {
  const base = so ?? defaultScrapeOptions();
  const own = changeTrackingOf(base);
  const formats: ScrapeFormat[] = base.formats.filter((f) => f.type !== 'changeTracking');
  if (!formats.some((f) => f.type === 'markdown')) formats.unshift({ type: 'markdown' });
  formats.push({
    type: 'changeTracking',
    modes: own && own.modes.length > 0 ? own.modes : ['git-diff'],
    ...(own?.schema !== undefined && { schema: own.schema }),
    ...(own?.prompt !== undefined && { prompt: own.prompt }),
    tag: monitorTag(monitorId),
  });
  return { ...base, formats };
}

export interface TargetJob {
  kind: JobKind;
  url: string;
  options: CrawlRequest;
  /** The URLs a batch scrape starts with; a crawl plans its own. */
  urls?: string[];
}

/** The job a scrape or crawl target runs as; undefined for a search target (search-targets.ts runs those). */
export function targetJob(stored: unknown, monitorId: string): TargetJob | undefined {
  const target = targetSchema.parse(stored);
  if (target.type === 'scrape') {
    const options = jobOptions({ url: target.urls[0], scrapeOptions: trackedScrapeOptions(target.scrapeOptions, monitorId), zeroDataRetention: false });
    return { kind: 'batch_scrape', url: target.urls[0], options, urls: target.urls };
  }
  if (target.type === 'crawl') {
    const parsed = crawlRequestSchema.parse({ ...(stored as { crawlOptions?: object }).crawlOptions, url: target.url });
    return { kind: 'crawl', url: target.url, options: { ...parsed, scrapeOptions: trackedScrapeOptions(target.scrapeOptions, monitorId) } };
  }
  return undefined;
}
