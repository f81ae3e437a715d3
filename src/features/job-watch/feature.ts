// Live job watching: the WebSocket routes the official JS SDK's watcher opens for crawls and
// batch scrapes, fed by PostgreSQL notifications the page store sends (jobs/job-events.ts).
import type { Feature } from '../../platform/feature.ts';
import { jobWatchRoutes } from './watch-routes.ts';
import type { JobSettings } from '../../jobs/config.ts';

export const jobWatchFeature: Feature<JobSettings> = {
  name: 'job-watch',
  websockets: jobWatchRoutes,
};
