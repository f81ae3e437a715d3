// File parsing: POST /v2/parse converts an uploaded PDF, HTML, Word, text or
// markdown file into the document a scrape gives (docs/api/parse.md).
import type { Feature } from '../../platform/feature.ts';
import { parseRouteDocs } from './route-docs.ts';
import { parseRoutes } from './routes.ts';
import type { ParseFeatureSettings } from './config.ts';

export const parseFeature: Feature<ParseFeatureSettings> = {
  name: 'parse',
  routes: parseRoutes,
  routeDocs: parseRouteDocs,
};
