// The whole first step of a single scrape's run in one local activity: its settings, its plan
// (stale claims released, its counts) and the browser demand of its first batch (`holder`), so
// that its first workflow task schedules that batch right away.
import type { JobRunSettings, JobCounts } from './definitions.ts';
import { readJob, type JobContextDeps } from './job-context.ts';
import { releaseClaims } from './frontier/frontier.ts';
import { requestJobBrowser } from './batch/browser-demand.ts';
import { jobCounts } from './job-status.ts';
import { runSettings } from './run-settings.ts';

export interface SingleScrapeStart {
  crawlId: string;
  holder: string;
}

export interface SingleScrapeOpened {
  settings: JobRunSettings;
  planned: { queued: number; counts?: JobCounts };
}

/**
 * The three writes and reads are independent and run at once; a cancelled scrape (its row no
 * longer scraping) plans nothing and asks for no browser.
 */
export async function openSingleScrape(deps: JobContextDeps, { crawlId, holder }: SingleScrapeStart): Promise<SingleScrapeOpened> {
  const { db, config } = deps;
  const [read] = await Promise.all([
    readJob(deps, crawlId),
    releaseClaims(db, crawlId),
    requestJobBrowser(db, { holder, pool: config.temporal.scrapeTaskQueue, crawlId }),
  ]);
  const settings = runSettings(config, read);
  if (read.crawl.status !== 'scraping') return { settings, planned: { queued: 0 } };
  const counts = await jobCounts(db, crawlId);
  return { settings, planned: { queued: counts.queued, counts } };
}
