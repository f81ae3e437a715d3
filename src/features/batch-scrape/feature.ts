// Batch scrape: POST /v2/batch/scrape and its status, errors and cancel routes. A batch is a
// job of the crawl pipeline (src/features/crawl/job-kind.ts): its workflow, activities and
// reconciler are the crawl feature's.
import type { Feature } from '../../platform/feature.ts';
import { batchScrapeRoutes } from './routes.ts';

export const batchScrapeFeature: Feature = {
  name: 'batch-scrape',
  routes: batchScrapeRoutes,
};
