import { Router } from 'express';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { noteActivityJob } from '../../platform/http/activity-log.ts';
import { searchProviders } from './search-providers.ts';
import { searchRequestSchema } from './search-request.ts';
import { runSearch } from './search-service.ts';
import type { SearchFeatureSettings } from './config.ts';

export function searchRoutes(deps: GatewayDeps<SearchFeatureSettings>): Router {
  const router = Router();
  const providers = searchProviders(deps.db, deps.config);
  router.post('/search', async (req, res) => {
    const request = searchRequestSchema.parse(req.body ?? {});
    const { team, apiKeyId } = authOf(res);
    res.json(await runSearch(deps, providers, team, apiKeyId, request, { onCreated: (id) => noteActivityJob(res, id) }));
  });
  return router;
}
