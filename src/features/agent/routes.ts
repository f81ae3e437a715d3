import { Router } from 'express';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { noteActivityJob } from '../../platform/http/activity-log.ts';
import { agentRequestSchema } from './agent-request.ts';
import { agentAnswer } from './agent-answers.ts';
import { agentSnapshot, agentThread, agentTrace, beforeParam, listAgents } from './agent-reads.ts';
import { cancelAgent, createAgent, ownAgent } from './start-agent.ts';
import type { AgentFeatureSettings } from './config.ts';

/** A query flag as the SDKs send it (`?liveView=true`, `?includeData=true`). */
const flag = (value: unknown) => value === 'true' || value === '1';

export function agentRoutes(deps: GatewayDeps<AgentFeatureSettings>): Router {
  const router = Router();
  router.post('/agent', async (req, res) => {
    const request = agentRequestSchema.parse(req.body ?? {});
    const { team, apiKeyId } = authOf(res);
    const started = await createAgent(deps, team, apiKeyId, request);
    noteActivityJob(res, started.id);
    res.json({ success: true, ...started });
  });

  router.get('/agent', async (req, res) => {
    res.json(await listAgents(deps.db, deps.config, authOf(res).team.id, beforeParam(req.query.before)));
  });

  router.get('/agent/threads/:threadId', async (req, res) => {
    res.json(await agentThread(deps.db, req.params.threadId, authOf(res).team.id, flag(req.query.includeData)));
  });

  router.get('/agent/:id', async (req, res) => {
    res.json(agentAnswer(await ownAgent(deps.db, req.params.id, authOf(res).team.id), deps.config));
  });

  router.get('/agent/:id/trace', async (req, res) => {
    const job = await ownAgent(deps.db, req.params.id, authOf(res).team.id);
    res.json(await agentTrace(deps.db, deps.config, job, flag(req.query.liveView)));
  });

  router.get('/agent/:id/snapshots/:snapshotId', async (req, res) => {
    res.json(agentSnapshot(await ownAgent(deps.db, req.params.id, authOf(res).team.id), req.params.snapshotId));
  });

  router.delete('/agent/:id', async (req, res) => {
    await cancelAgent(deps, await ownAgent(deps.db, req.params.id, authOf(res).team.id));
    res.json({ success: true });
  });
  return router;
}
