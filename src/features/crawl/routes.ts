import { Router } from 'express';
import { activeCrawls } from '../../jobs/job-admin.ts';
import { parseCrawlRequest, startCrawl } from './start-crawl.ts';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { noteActivityJob } from '../../platform/http/activity-log.ts';
import { publicBase } from '../../platform/http/public-url.ts';
import { jobStatusRoutes } from '../../jobs/job-routes.ts';
import { configuredLlm } from '../../platform/llm/chat-completion.ts';
import { previewCrawlParams } from './params-preview.ts';

export function crawlRoutes(deps: GatewayDeps): Router {
  const router = Router();

  router.post('/crawl', async (req, res) => {
    const { request, prompt } = await parseCrawlRequest(req.body, deps.config);
    const { team, apiKeyId } = authOf(res);
    const id = await startCrawl(deps, team, apiKeyId, request);
    noteActivityJob(res, id);
    res.json({ success: true, id, url: `${publicBase(deps.config)}/v2/crawl/${id}`, ...prompt });
  });

  router.post('/crawl/params-preview', async (req, res) => {
    res.json(await previewCrawlParams(req.body, configuredLlm(deps.config.llm)));
  });

  // Before /crawl/:id, which would take "active" for an id.
  router.get(['/crawl/active', '/crawl/ongoing'], async (_req, res) => {
    res.json({ success: true, crawls: await activeCrawls(deps.db, authOf(res).team.id) });
  });

  jobStatusRoutes(router, deps, '/crawl', 'crawl');

  return router;
}
