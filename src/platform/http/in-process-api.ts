// The /v2 routes called from inside a request of another API version: the /v1 layer
// translates a request into its /v2 form, runs it through the very handlers /v2 answers
// with, and reshapes their answer. The call reuses the caller's request and answer
// objects (its authenticated team, its activity log entry, its idempotency key, its
// client connection), pointing them at the /v2 route for the time of the call: the
// caller's middleware already ran, so nothing is authenticated, charged or logged twice.
import { Router, type Request, type Response } from 'express';

export interface InProcessRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** The path under /v2, with its query string: `/crawl`, `/extract/<id>`. */
  path: string;
  body?: unknown;
}

export interface InProcessAnswer {
  status: number;
  /** What the /v2 handler handed res.json, before serialization. */
  body: unknown;
}

/**
 * Runs one request through the /v2 routes. A route that throws rejects with its error (the caller
 * lets the error handler answer it, or reshapes it); every /v2 route answers JSON, so the answer is
 * what the handler gives res.json, and nothing is sent to the client.
 */
export type InProcessApi = (req: Request, res: Response, request: InProcessRequest) => Promise<InProcessAnswer>;

/** An InProcessApi over the routers mounted under /v2. */
export function inProcessApi(routers: Router[]): InProcessApi {
  const api = Router();
  if (routers.length > 0) api.use(...routers);
  return (req, res, request) =>
    new Promise<InProcessAnswer>((resolve, reject) => {
      const saved = { url: req.url, method: req.method, body: req.body as unknown, params: req.params, route: req.route as unknown };
      const ownJson = Object.hasOwn(res, 'json') ? res.json : undefined;
      let settled = false;
      const restore = () => {
        if (settled) return false;
        settled = true;
        req.url = saved.url;
        req.method = saved.method;
        req.body = saved.body;
        req.params = saved.params;
        req.route = saved.route;
        if (ownJson) res.json = ownJson;
        else delete (res as Partial<Response>).json;
        return true;
      };
      res.json = ((body: unknown) => {
        const status = res.statusCode;
        res.statusCode = 200;
        if (restore()) resolve({ status, body });
        return res;
      }) as Response['json'];
      req.url = request.path;
      req.method = request.method;
      req.body = request.body;
      api(req, res, (err?: unknown) => {
        if (!restore()) return;
        reject(err ?? new Error(`no /v2 route answers ${request.method} ${request.path}`));
      });
    });
}
