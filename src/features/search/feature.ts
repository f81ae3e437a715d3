// Search: POST /v2/search over the local index of every page the service stored
// (index/, written by the crawl pipeline's page store) and any configured web
// engine (providers/), one parsed query (query/) for all of them; published as the
// `search` tool (search-tool.ts) for other features' activities.
import type { Feature } from '../../platform/feature.ts';
import { searchRouteDocs } from './route-docs.ts';
import { searchRoutes } from './routes.ts';
import { searchTool } from './search-tool.ts';
import type { SearchFeatureSettings } from './config.ts';

export const searchFeature: Feature<SearchFeatureSettings> = {
  name: 'search',
  routes: searchRoutes,
  routeDocs: searchRouteDocs,
  tools: (deps) => [searchTool(deps)],
};
