import { Router } from 'express';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { noteActivityJob } from '../../platform/http/activity-log.ts';
import { mapRequestSchema } from './map-request.ts';
import { createMap, runMap } from './start-map.ts';
import type { MapFeatureSettings } from './config.ts';

export function mapRoutes(deps: GatewayDeps<MapFeatureSettings>): Router {
  const router = Router();
  router.post('/map', async (req, res) => {
    const started = Date.now();
    const request = mapRequestSchema.parse(req.body ?? {});
    const { team, apiKeyId } = authOf(res);
    const id = await createMap(deps, team, apiKeyId, request);
    noteActivityJob(res, id);
    const { links, warning } = await runMap(deps, id, request, Math.max(0, request.timeout - (Date.now() - started)));
    res.json({ success: true, id, links, ...(warning && { warning }) });
  });
  return router;
}
