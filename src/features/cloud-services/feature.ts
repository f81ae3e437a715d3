// Cloud services: the routes the official SDKs call for Firecrawl cloud services this
// self-hosted service does not offer (the research paper index, the developer and
// government indexes, job feedback, agent history). Each validates its request and
// refuses with its service's 501 (docs/api/cloud-services.md); no state, no jobs.
import type { Feature } from '../../platform/feature.ts';
import { cloudServiceRouteDocs } from './route-docs.ts';
import { cloudServiceRoutes } from './routes.ts';

export const cloudServicesFeature: Feature = {
  name: 'cloud-services',
  routes: cloudServiceRoutes,
  routeDocs: cloudServiceRouteDocs,
};
