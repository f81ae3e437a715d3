// WebSocket endpoints of the gateway (a session's CDP proxy and live view, the
// crawl watcher). Features declare them; this module routes the HTTP upgrade by
// path. Each route authenticates by its own rule (a session token, an API key as
// subprotocol), so nothing here reads credentials.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import type { Feature } from '../feature.ts';
import type { GatewayDeps } from './app.ts';
import type { ErrorBody } from './errors.ts';

export interface WebSocketUpgrade {
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  /** Values of the route's `:name` segments, decoded. */
  params: Record<string, string>;
  /** The request's query string, parsed. */
  query: URLSearchParams;
}

export interface WebSocketRoute {
  /** A path with `:name` segments, e.g. `/v2/crawl/:id`. */
  path: string;
  handle(upgrade: WebSocketUpgrade): Promise<void>;
}

/** The route's `:name` values when `pathname` matches `pattern`, else undefined. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | undefined {
  const want = pattern.split('/').filter(Boolean);
  const got = pathname.split('/').filter(Boolean);
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) {
      let value: string;
      try {
        value = decodeURIComponent(got[i]);
      } catch {
        return undefined;
      }
      params[want[i].slice(1)] = value;
    } else if (want[i] !== got[i]) {
      return undefined;
    }
  }
  return params;
}

/** Answers an upgrade request with a plain HTTP error in the API's envelope and closes the socket. */
export function refuseUpgrade(socket: Duplex, status: number, error: string, code: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ success: false, error, code } satisfies ErrorBody);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Routes the server's upgrade requests to the features' WebSocket routes. The answer's close()
 * ends every upgraded connection: server.close() waits for them, and a watcher of a long crawl
 * or a browser session's CDP client would otherwise hold a stopping gateway open.
 */
export function attachWebSockets<C>(server: Server, deps: GatewayDeps<C>, features: Feature<C>[]): { close(): void } {
  const routes = features.flatMap((f) => f.websockets?.(deps) ?? []);
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    socket.on('error', () => socket.destroy());
    const url = URL.parse(req.url ?? '/', 'http://gateway');
    if (!url) return refuseUpgrade(socket, 400, 'Bad request: unreadable URL', 'BAD_REQUEST');
    for (const route of routes) {
      const params = matchPath(route.path, url.pathname);
      if (!params) continue;
      route.handle({ req, socket, head, params, query: url.searchParams }).catch((err: unknown) => {
        deps.log.error('websocket upgrade failed', { path: url.pathname, error: (err as Error).message });
        refuseUpgrade(socket, 500, 'An unexpected error occurred.', 'INTERNAL_ERROR');
      });
      return;
    }
    refuseUpgrade(socket, 404, `Not found: WebSocket ${url.pathname}`, 'NOT_FOUND');
  });
  return {
    close() {
      for (const socket of upgraded) socket.destroy();
    },
  };
}
