// Live job watching: the WebSocket routes the official JS SDK's watcher opens for crawls and
// batch scrapes, fed by PostgreSQL notifications the page store sends (jobs/job-events.ts).
import type { Feature } from '../../platform/feature.ts';
import { jobWatchRoutes } from './watch-routes.ts';

export const jobWatchFeature: Feature = {
  name: 'job-watch',
  websockets: jobWatchRoutes,
};
