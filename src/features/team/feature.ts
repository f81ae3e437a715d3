// Team usage and activity: balances and history from the usage ledger's monthly summary,
// queue status, and the 24-hour activity listing.
import type { Feature } from '../../platform/feature.ts';
import { teamRouteDocs } from './route-docs.ts';
import { teamRoutes } from './routes.ts';

export const teamFeature: Feature = { name: 'team', routes: teamRoutes, routeDocs: teamRouteDocs };
