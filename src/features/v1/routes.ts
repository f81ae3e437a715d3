// The /v1 routes answered by a /v2 route in-process: the v1 body is validated and
// translated, the /v2 route runs it as it runs its own (its checks, its job, its
// charges, its errors), and its answer is reshaped into v1's. Deep research and
// llms.txt, retired upstream, are refused.
import { Router, type Response } from 'express';
import type { GatewayDeps } from '../../platform/http/app.ts';
import type { InProcessApi } from '../../platform/http/in-process-api.ts';
import { HttpError } from '../../platform/http/http-error.ts';
import { notFound } from '../../platform/http/errors.ts';
import type { PageDocument } from '../../page/document-schema.ts';
import { v1JobRoutes } from './job-routes.ts';
import { EXTRACT_DEPRECATION, v1CreditUsage, v1Document, v1ExtractStatus, v1History, v1MapAnswer, v1SearchAnswer, v1TokenUsage } from './answers.ts';
import { toV2Scrape, v1ScrapeRequestSchema } from './scrape-request.ts';
import { toV2Map, v1MapRequestSchema } from './map-request.ts';
import { toV2Search, v1SearchRequestSchema } from './search-request.ts';
import { toV2Extract, v1ExtractRequestSchema } from './extract-request.ts';
import { AGENT_NOT_OFFERED_WARNING, asksForAgent, pickScrapeOptions } from './scrape-options.ts';
import { RETIRED_ROUTES } from './retired-routes.ts';
import type { JobSettings } from '../../jobs/config.ts';

/** The headers upstream puts on a deprecated route's answers. */
function markDeprecated(res: Response): void {
  res.setHeader('Deprecation', 'true');
  res.setHeader('Link', `<${EXTRACT_DEPRECATION.replacement}>; rel="successor-version"`);
  res.setHeader('Warning', `299 - "${EXTRACT_DEPRECATION.message}"`);
}

/** Scrape, map and search: the v1 body translated, the v2 answer reshaped. */
function pageRoutes(router: Router, v2: InProcessApi): void {
  router.post('/scrape', async (req, res) => {
    const v1 = v1ScrapeRequestSchema.parse(req.body ?? {});
    const { body, jsonFields } = toV2Scrape(v1);
    const answer = await v2(req, res, { method: 'POST', path: '/scrape', body });
    const { data } = answer.body as { data: PageDocument };
    res.json({ success: true, data: v1Document(data, jsonFields, asksForAgent(pickScrapeOptions(v1)) ? [AGENT_NOT_OFFERED_WARNING] : []) });
  });

  router.get('/scrape/:id', async (req, res) => {
    const answer = await v2(req, res, { method: 'GET', path: `/scrape/${encodeURIComponent(req.params.id)}` });
    res.json(answer.body);
  });

  router.post('/map', async (req, res) => {
    const body = toV2Map(v1MapRequestSchema.parse(req.body ?? {}));
    const answer = await v2(req, res, { method: 'POST', path: '/map', body });
    res.json(v1MapAnswer(answer.body as { links: { url: string }[] }));
  });

  router.post('/search', async (req, res) => {
    const { body, formats, jsonFields } = toV2Search(v1SearchRequestSchema.parse(req.body ?? {}));
    const answer = await v2(req, res, { method: 'POST', path: '/search', body });
    res.json(v1SearchAnswer(answer.body as Parameters<typeof v1SearchAnswer>[0], { formats, jsonFields }));
  });
}

/** Extract, deprecated upstream: answered, with the deprecation headers and warning. */
function extractRoutes(router: Router, v2: InProcessApi): void {
  router.post('/extract', async (req, res) => {
    markDeprecated(res);
    const body = toV2Extract(v1ExtractRequestSchema.parse(req.body ?? {}));
    const answer = await v2(req, res, { method: 'POST', path: '/extract', body });
    const { id } = answer.body as { id: string };
    res.json({ success: true, id, urlTrace: [], warnings: [EXTRACT_DEPRECATION.message], replacement: EXTRACT_DEPRECATION.replacement });
  });

  router.get('/extract/:id', async (req, res) => {
    markDeprecated(res);
    const answer = await v2(req, res, { method: 'GET', path: `/extract/${encodeURIComponent(req.params.id)}` });
    res.json(v1ExtractStatus(answer.body as Record<string, unknown>));
  });
}

/** The team's usage and queue, in v1's shapes. */
function teamRoutes(router: Router, v2: InProcessApi): void {
  router.get('/team/credit-usage', async (req, res) => {
    const answer = await v2(req, res, { method: 'GET', path: '/team/credit-usage' });
    res.json(v1CreditUsage((answer.body as { data: Parameters<typeof v1CreditUsage>[0] }).data));
  });

  router.get('/team/token-usage', async (req, res) => {
    const answer = await v2(req, res, { method: 'GET', path: '/team/token-usage' });
    res.json(v1TokenUsage((answer.body as { data: Parameters<typeof v1TokenUsage>[0] }).data));
  });

  for (const [kind, field] of [
    ['credit', 'creditsUsed'],
    ['token', 'tokensUsed'],
  ] as const) {
    router.get(`/team/${kind}-usage/historical`, async (req, res) => {
      const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
      const answer = await v2(req, res, { method: 'GET', path: `/team/${kind}-usage/historical${query}` });
      res.json({ success: true, periods: v1History((answer.body as { periods: Parameters<typeof v1History>[0] }).periods, field) });
    });
  }

  for (const path of ['/team/queue-status', '/concurrency-check']) {
    router.get(path, async (req, res) => {
      res.json((await v2(req, res, { method: 'GET', path })).body);
    });
  }
}

/** Routes retired upstream: 410 for a new job, 404 for the status of one. */
function retiredRoutes(router: Router): void {
  for (const retired of RETIRED_ROUTES) {
    router.post(retired.path, () => {
      throw new HttpError(410, retired.refusal, 'ENDPOINT_RETIRED', { replacement: retired.replacement });
    });
    router.get(`${retired.path}/:id`, () => {
      throw notFound(retired.statusNotFound);
    });
  }
}

export function v1Routes(deps: GatewayDeps<JobSettings>, v2: InProcessApi): Router {
  const router = Router();
  pageRoutes(router, v2);
  extractRoutes(router, v2);
  teamRoutes(router, v2);
  retiredRoutes(router);
  router.use(v1JobRoutes(deps));
  return router;
}
