import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { activeCrawls } from '../../jobs/job-admin.ts';
import { parseCrawlRequest } from './parse-crawl-request.ts';
import { startCrawl } from '../../jobs/start-crawl.ts';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { noteActivityJob } from '../../platform/http/activity-log.ts';
import { publicBase } from '../../platform/http/public-url.ts';
import { jobStatusRoutes } from '../../jobs/job-routes.ts';
import { recordModelTokens } from '../../platform/usage/credits.ts';
import { configuredLlm } from '../../platform/llm/chat-completion.ts';
import { previewCrawlParams } from './params-preview.ts';
import type { JobSettings } from '../../jobs/config.ts';

export function crawlRoutes(deps: GatewayDeps<JobSettings>): Router {
  const router = Router();

  router.post('/crawl', async (req, res) => {
    const { request, prompt, promptUsage } = await parseCrawlRequest(req.body, deps.config);
    const { team, apiKeyId } = authOf(res);
    const id = await startCrawl(deps, team, apiKeyId, request);
    if (promptUsage) {
      const tokens = promptUsage.promptTokens + promptUsage.completionTokens;
      await recordModelTokens(deps.db, { teamId: team.id, apiKeyId, endpoint: 'crawl', jobId: id, itemKey: 'prompt' }, tokens);
    }
    noteActivityJob(res, id);
    res.json({ success: true, id, url: `${publicBase(deps.config)}/v2/crawl/${id}`, ...prompt });
  });

  router.post('/crawl/params-preview', async (req, res) => {
    const { team, apiKeyId } = authOf(res);
    let tokens = 0;
    const preview = await previewCrawlParams(req.body, configuredLlm(deps.config.llm), (u) => (tokens += u.promptTokens + u.completionTokens));
    // Nothing is started, so the tokens are the ledger's only trace of the call: an item of their own.
    await recordModelTokens(deps.db, { teamId: team.id, apiKeyId, endpoint: 'crawl', jobId: randomUUID(), itemKey: 'params-preview' }, tokens);
    res.json(preview);
  });

  // Before /crawl/:id, which would take "active" for an id.
  router.get(['/crawl/active', '/crawl/ongoing'], async (_req, res) => {
    res.json({ success: true, crawls: await activeCrawls(deps.db, authOf(res).team.id) });
  });

  jobStatusRoutes(router, deps, '/crawl', 'crawl');

  return router;
}
