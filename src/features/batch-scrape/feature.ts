// Batch scrape: POST /v2/batch/scrape and its status, errors and cancel routes. A batch is a
// job of the crawl pipeline (src/jobs/job-kind.ts): its workflow, activities and
// reconciler are the job engine's (src/jobs/job-engine.ts).
import type { Feature } from '../../platform/feature.ts';
import { batchScrapeRouteDocs } from './route-docs.ts';
import { batchScrapeRoutes } from './routes.ts';

export const batchScrapeFeature: Feature = {
  name: 'batch-scrape',
  routes: batchScrapeRoutes,
  routeDocs: batchScrapeRouteDocs,
};
