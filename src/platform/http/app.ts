// The Express gateway: stateless; under /v2 (and /v1, the older API translated into /v2) it authenticates, applies the key's rate limit,
// only then reads and parses the body, records the request in the activity log,
// answers a repeated x-idempotency-key with its first answer, validates, then reads Postgres or talks to Temporal. An anonymous request gets
// its 401 without its body being read: Node discards the body once the answer
// is sent (or closes the connection when server.requestTimeout runs out).
import type { Client } from '@temporalio/client';
import express, { type RequestHandler } from 'express';
import type { Db } from '../db/prisma.ts';
import type { GatewaySettings } from './config.ts';
import type { Logger } from '../log.ts';
import { recordActivity } from './activity-log.ts';
import { assignRequestId, rebindRequestId } from './request-id.ts';
import { httpMetrics } from './http-metrics.ts';
import { idempotency, type IdempotencySettings } from './idempotency.ts';
import { refuseUnstorableBody } from './unstorable-body.ts';
import { authenticate } from './auth.ts';
import { rateLimit } from './rate-limit.ts';
import { errorHandler, notFoundRoute } from './errors.ts';
import { healthRouteDocs, healthRoutes } from './health.ts';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-document.ts';
import { openApiRouteDocs, openApiRoutes } from './openapi-routes.ts';
import type { Feature } from '../feature.ts';
import { inProcessApi } from './in-process-api.ts';
import { requestDeadline } from './request-deadline.ts';
import { markStep, serverTiming } from './server-timing.ts';
import { serviceChecks, serviceReadiness } from '../process/readiness.ts';

/** `C` is the part of the settings its user reads (the sections it names; src/config.ts composes them all). */
export interface GatewayDeps<C = unknown> {
  db: Db;
  temporal: Client;
  config: C;
  log: Logger;
}

/** One line per answered request; a job-creating one names the job it created, whose workflow carries the same requestId. */
function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = Date.now();
    res.on('finish', () => {
      log.info('request', {
        requestId: res.locals.requestId,
        jobId: res.locals.activityJobId,
        method: req.method,
        // The router has rewritten req.url by the time the answer is sent; the query is left out.
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        ms: Date.now() - started,
        teamId: (res.locals.auth as { team?: { id: string } } | undefined)?.team?.id,
      });
    });
    next();
  };
}

/** The contract of every route the app registers: the platform's own and the features'. */
export function apiDocument(features: Pick<Feature, 'routeDocs'>[]): OpenApiDocument {
  return buildOpenApiDocument([...healthRouteDocs, ...openApiRouteDocs, ...features.flatMap((f) => f.routeDocs ?? [])], {
    title: 'Crawl, search and browser session API',
    version: '2',
    description:
      'Crawl jobs, single and batch scrapes, site maps, web search, remote browser sessions and team usage (Firecrawl v2 compatible; the routes under /v1 answer Firecrawl’s older v1 clients by translating into /v2). ' +
      'Every error answers the envelope `{ success: false, error, code, details?, requestId }`; `requestId` is also the `X-Request-Id` answer header. ' +
      'WebSocket upgrades (a job’s watcher at /v2/crawl/{id}, /v2/batch/scrape/{id} and /v1/crawl/{id}, a session’s cdpUrl and live view stream) are not described here.',
  });
}

/** What every keyed request goes through before its route, whichever API version it speaks. */
function keyedRequest(deps: GatewayDeps<AppSettings>): RequestHandler[] {
  return [
    authenticate(deps.db),
    rateLimit(deps.db, deps.config.gateway.rateLimit),
    (_req, res, next) => {
      markStep(res, 'auth');
      next();
    },
    express.json({ limit: deps.config.gateway.bodyLimit }),
    rebindRequestId(),
    recordActivity(deps.db, deps.log),
    refuseUnstorableBody(),
    idempotency(deps.db, deps.log, deps.config.idempotency),
  ];
}

/** The settings the app reads itself; every feature is given the deps with the whole of `C`. */
export interface AppSettings {
  gateway: GatewaySettings;
  idempotency: IdempotencySettings;
}

export function createApp<C extends AppSettings>(deps: GatewayDeps<C>, features: Feature<C>[]) {
  const app = express();
  app.disable('x-powered-by');
  // Every route has the deadline, the public ones (a live view page reads its session) too; its probes are shared by every request.
  app.use(
    assignRequestId(),
    serverTiming(),
    requestDeadline(serviceChecks(deps), { deadlineMs: deps.config.gateway.requestDeadlineMs }),
    requestLog(deps.log),
    httpMetrics(),
  );
  app.use(healthRoutes(deps, serviceReadiness(deps)));
  app.use(openApiRoutes(apiDocument(features)));
  for (const feature of features) if (feature.publicRoutes) app.use(feature.publicRoutes(deps));
  const v2Routes = features.flatMap((f) => (f.routes ? [f.routes(deps)] : []));
  app.use('/v2', ...keyedRequest(deps), ...v2Routes);
  const v2 = inProcessApi(v2Routes);
  const v1Routes = features.flatMap((f) => (f.v1Routes ? [f.v1Routes(deps, v2)] : []));
  if (v1Routes.length > 0) app.use('/v1', ...keyedRequest(deps), ...v1Routes);
  app.use(notFoundRoute());
  app.use(errorHandler(deps.log));
  return app;
}
