// POST and DELETE /v2/scrape/{id}/interact (the SDKs' interact, scrapeExecute and
// deleteScrapeBrowser).
import { Router } from 'express';
import type { GatewayDeps } from '../../../../platform/http/app.ts';
import { authOf } from '../../../../platform/http/auth.ts';
import { ownJob } from '../../../../jobs/job-routes.ts';
import { interactRequestSchema } from './interact-request.ts';
import { interactWithScrape, stopInteraction } from './scrape-interaction.ts';
import { executeRequesterOf } from '../execute-requester.ts';
import type { BrowserSessionsFeatureSettings } from '../../config.ts';

export function interactRoutes(deps: GatewayDeps<BrowserSessionsFeatureSettings>): Router {
  const router = Router();

  router.post('/scrape/:id/interact', async (req, res) => {
    const { team, apiKeyId } = authOf(res);
    const job = await ownJob(deps.db, req.params.id, team.id, 'scrape');
    const request = interactRequestSchema.parse(req.body ?? {});
    res.json(await interactWithScrape(deps, team, apiKeyId, job, request, executeRequesterOf(res)));
  });

  router.delete('/scrape/:id/interact', async (req, res) => {
    const job = await ownJob(deps.db, req.params.id, authOf(res).team.id, 'scrape');
    res.json({ success: true, ...(await stopInteraction(deps, job)) });
  });

  return router;
}
