// Batch scrape: POST /v2/batch/scrape and its status, errors and cancel routes. A batch is a
// job of the crawl pipeline (src/jobs/job-kind.ts): its workflow, activities and
// reconciler are the job engine's (src/jobs/job-engine.ts).
import type { Feature } from '../../platform/feature.ts';
import { batchScrapeRouteDocs } from './route-docs.ts';
import { batchScrapeRoutes } from './routes.ts';
import type { JobSettings } from '../../jobs/config.ts';

export const batchScrapeFeature: Feature<JobSettings> = {
  name: 'batch-scrape',
  routes: batchScrapeRoutes,
  routeDocs: batchScrapeRouteDocs,
};
