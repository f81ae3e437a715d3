import { Router } from 'express';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { noteActivityJob } from '../../platform/http/activity-log.ts';
import { agentRequestSchema } from './agent-request.ts';
import { agentAnswer, cancelAgent, createAgent, ownAgent } from './start-agent.ts';

export function agentRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.post('/agent', async (req, res) => {
    const request = agentRequestSchema.parse(req.body ?? {});
    const { team, apiKeyId } = authOf(res);
    const id = await createAgent(deps, team, apiKeyId, request);
    noteActivityJob(res, id);
    res.json({ success: true, id });
  });

  router.get('/agent/:id', async (req, res) => {
    res.json(agentAnswer(await ownAgent(deps.db, req.params.id, authOf(res).team.id), deps.config));
  });

  router.delete('/agent/:id', async (req, res) => {
    await cancelAgent(deps, await ownAgent(deps.db, req.params.id, authOf(res).team.id));
    res.json({ success: true });
  });
  return router;
}
