// The crawl feature: POST/GET/DELETE /v2/crawl. Its jobs run on the job engine
// (src/jobs/job-engine.ts) like every other kind.
import type { Feature } from '../../platform/feature.ts';
import { crawlRouteDocs } from './route-docs.ts';
import { crawlRoutes } from './routes.ts';
import type { JobSettings } from '../../jobs/config.ts';

export const crawlFeature: Feature<JobSettings> = {
  name: 'crawl',
  routes: crawlRoutes,
  routeDocs: crawlRouteDocs,
};
