// Search: POST /v2/search over the local index of every page the service stored
// (index/, written by the crawl pipeline's page store) and any configured web
// engine (providers/), one parsed query (query/) for all of them.
import type { Feature } from '../../platform/feature.ts';
import { searchRouteDocs } from './route-docs.ts';
import { searchRoutes } from './routes.ts';

export const searchFeature: Feature = {
  name: 'search',
  routes: searchRoutes,
  routeDocs: searchRouteDocs,
};
