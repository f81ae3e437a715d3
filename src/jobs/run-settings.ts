// How this deployment runs a job: from the worker's own settings and the job's options (the
// gateway decides none of it). Read once per workflow run, by crawlSettings or openSingleScrape.
import type { JobRunSettings } from './definitions.ts';
import type { JobSettings } from './config.ts';
import { readJob, type JobContextDeps } from './job-context.ts';
import type { JobOptions } from './crawl-request.ts';
import { crawlConcurrency } from './concurrency.ts';
import { discoversLinks, jobKind } from './job-kind.ts';

/** What of the job's row the settings depend on. */
export interface RunSettingsJob {
  crawl: { kind: string; url: string; teamId: string; team: { concurrencyLimit: number } };
  options: Pick<JobOptions, 'delay' | 'maxConcurrency' | 'webhook'>;
}

export function runSettings(config: Pick<JobSettings, 'crawl' | 'temporal'>, { crawl, options }: RunSettingsJob): JobRunSettings {
  const delay = options.delay;
  const { parallelBatches, pagesPerBatch } = crawlConcurrency({
    teamLimit: crawl.team.concurrencyLimit,
    // A single scrape has one page: a second batch would only wait for work that never comes.
    maxConcurrency: jobKind(crawl) === 'scrape' ? 1 : options.maxConcurrency,
    delay,
    pagesPerBrowser: config.crawl.pagesPerBrowser,
  });
  return {
    parallelBatches,
    pagesPerBatch,
    // With a delay every page is its own batch, so the pause is a workflow timer.
    batchSize: delay !== undefined ? 1 : config.crawl.batchSize,
    heartbeatTimeoutMs: config.crawl.heartbeatTimeoutMs,
    historyEventBudget: config.crawl.historyEventBudget,
    ...(delay !== undefined && { delayMs: Math.round(delay * 1000) }),
    // Recorded with the run's settings: a run keeps the queue it started with across deploys.
    browserTaskQueue: jobKind(crawl) === 'scrape' ? config.temporal.scrapeTaskQueue : config.temporal.browserTaskQueue,
    hasWebhook: options.webhook !== undefined,
    teamId: crawl.teamId,
    // A batch scrape's URLs may be of many sites: its summaries name none.
    site: jobKind(crawl) === 'batch_scrape' ? undefined : URL.parse(crawl.url)?.host,
    discoversLinks: discoversLinks(jobKind(crawl)),
    progressIntervalMs: config.crawl.progressIntervalMs,
    singleScrape: jobKind(crawl) === 'scrape',
    pauseMaxMs: config.crawl.pauseMaxHours * 3_600_000,
  };
}

/** The crawlSettings activity: the job's run settings, read from its row. */
export async function crawlSettings(deps: JobContextDeps, crawlId: string): Promise<JobRunSettings> {
  return runSettings(deps.config, await readJob(deps, crawlId));
}
