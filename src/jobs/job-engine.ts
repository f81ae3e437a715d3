// The job engine as the worker runs it: the activities every job kind shares
// (crawl, batch scrape, single scrape), by resource class, and the reconciler that
// starts the workflows of job rows whose gateway died before it could. Endpoint
// features only commit jobs (commit-job.ts) and read them back.
import { everyInterval, type Feature } from '../platform/feature.ts';
import { createCrawlActivities } from './activities.ts';
import { forgetAbandonedBrowserDemand } from './batch/browser-demand.ts';
import { reconcileCrawlStarts } from './job-workflow-start.ts';

/** How often each worker looks for job rows without a started workflow. */
const RECONCILE_INTERVAL_MS = 5_000;

export const jobEngine: Feature = {
  name: 'jobs',
  activities(deps) {
    const { crawlSettings, queueForBrowser, planCrawl, finishCrawl, scrapeBatch } = createCrawlActivities(deps);
    return {
      control: { crawlSettings, queueForBrowser, planCrawl, finishCrawl },
      browser: { scrapeBatch },
    };
  },
  workerServices: (deps) => [
    everyInterval('job start reconciler', RECONCILE_INTERVAL_MS, deps, async () => {
      await reconcileCrawlStarts(deps);
      await forgetAbandonedBrowserDemand(deps.db);
    }),
  ],
};
