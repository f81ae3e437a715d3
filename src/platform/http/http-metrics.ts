// Requests the gateway answered, by route pattern (never the URL, so the series
// stay few), method and status, and how long each took.
import type { RequestHandler, Request } from 'express';
import { counter, DURATION_BUCKETS, histogram } from '../metrics/registry.ts';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

const requests = counter({
  name: 'http_requests_total',
  help: 'HTTP requests the gateway answered, by route pattern, method and status (route "none": answered before routing — auth, rate limit, body errors, unknown paths)',
  labelNames: ['route', 'method', 'status'],
});

const duration = histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from a request arriving to its answer being sent, by route pattern and method',
  labelNames: ['route', 'method'],
  buckets: DURATION_BUCKETS,
});

/**
 * Remembers the full pattern of the route that takes the request (e.g. /v2/crawl/:id), learnt when
 * the router sets `req.route`: by the time the answer is sent an error has left the routers and
 * `req.baseUrl` no longer holds their mount paths.
 */
function watchRoute(req: Request): () => string {
  let route: unknown;
  let label = 'none';
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set(value: { path?: unknown } | undefined) {
      route = value;
      if (typeof value?.path === 'string') label = `${req.baseUrl}${value.path}`;
    },
  });
  return () => label;
}

export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const stop = duration.startTimer();
    const routeLabel = watchRoute(req);
    res.on('finish', () => {
      const route = routeLabel();
      const method = METHODS.has(req.method) ? req.method : 'other';
      stop({ route, method });
      requests.inc({ route, method, status: String(res.statusCode) });
    });
    next();
  };
}
