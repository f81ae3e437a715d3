// The crawl feature: POST/GET/DELETE /v2/crawl, the crawl workflow's activities
// by resource class, and the reconciler that starts workflows of crawl rows whose
// gateway died before it could.
import { everyInterval, type Feature } from '../../platform/feature.ts';
import { createCrawlActivities } from './activities.ts';
import { forgetAbandonedBrowserDemand } from './browser-demand.ts';
import { reconcileCrawlStarts } from './crawl-workflow-start.ts';
import { crawlRoutes } from './routes.ts';

/** How often each worker looks for crawl rows without a started workflow. */
const RECONCILE_INTERVAL_MS = 5_000;

export const crawlFeature: Feature = {
  name: 'crawl',
  routes: crawlRoutes,
  activities(deps) {
    const { crawlSettings, queueForBrowser, planCrawl, finishCrawl, scrapeBatch } = createCrawlActivities(deps);
    return {
      control: { crawlSettings, queueForBrowser, planCrawl, finishCrawl },
      browser: { scrapeBatch },
    };
  },
  workerServices: (deps) => [
    everyInterval('crawl start reconciler', RECONCILE_INTERVAL_MS, deps, async () => {
      await reconcileCrawlStarts(deps);
      await forgetAbandonedBrowserDemand(deps.db);
    }),
  ],
};
