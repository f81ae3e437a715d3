// Map: POST /v2/map lists a site's URLs from its sitemaps and its start page. Each map is a
// short workflow whose one activity (on the control queue: network reads, no browser) stores
// the links with the map's row. Published as the `map` tool (map-tool.ts).
import type { Feature } from '../../platform/feature.ts';
import { createMapActivities } from './activities.ts';
import { mapRouteDocs } from './route-docs.ts';
import { mapRoutes } from './routes.ts';
import { mapTool } from './map-tool.ts';
import { recordingAttempts } from '../../platform/temporal/attempt-record.ts';
import type { MapFeatureSettings } from './config.ts';

export const mapFeature: Feature<MapFeatureSettings> = {
  name: 'map',
  routes: mapRoutes,
  routeDocs: mapRouteDocs,
  activities: (deps) => ({ control: recordingAttempts(deps, createMapActivities(deps)) }),
  tools: (deps) => [mapTool(deps)],
};
