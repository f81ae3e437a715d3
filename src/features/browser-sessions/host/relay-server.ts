// The browser host's door for gateways: a WebSocket server that joins a gateway's
// connection to a session's Chromium DevTools endpoint, which listens on the
// host's loopback only, and runs the executes gateways send (relay-execute.ts).
// Gateways prove themselves with the host's secret (read from browser_host);
// clients never reach this server directly.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import type { Logger } from '../../../platform/log.ts';
import { matchPath, refuseUpgrade } from '../../../platform/http/websockets.ts';
import { pipeWebSockets } from '../../../platform/http/ws-pipe.ts';
import type { HostedSessions } from './hosted-sessions.ts';
import type { ExecuteResponse } from '../protocol/execute-response.ts';
import type { HostExecute } from './execute-on-host.ts';
import { serveRelayExecute } from './relay-execute.ts';
import { RELAY_ROUTES, RELAY_SECRET_HEADER } from '../protocol/relay.ts';
import { serveLiveView } from './serve-live-view.ts';

export interface RelayServer {
  port: number;
  close(): Promise<void>;
}

/** Whether the request carries the host's secret. */
function sameSecret(req: IncomingMessage, secret: string): boolean {
  const header = req.headers[RELAY_SECRET_HEADER];
  const given = Array.isArray(header) ? header[0] : header;
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function startRelayServer(opts: {
  bind: string;
  port: number;
  secret: string;
  sessions: HostedSessions;
  maxMessageBytes: number;
  executeOnHost(input: HostExecute): Promise<ExecuteResponse>;
  log: Logger;
}): Promise<RelayServer> {
  const { sessions, log } = opts;
  const wss = new WebSocketServer({ noServer: true, maxPayload: opts.maxMessageBytes, perMessageDeflate: false });
  const open = new Set<WebSocket>();
  const server: Server = createServer((req, res) => {
    const params = req.method === 'POST' ? matchPath(RELAY_ROUTES.execute, URL.parse(req.url ?? '/', 'http://relay')?.pathname ?? '/') : undefined;
    if (!params) return void res.writeHead(404).end();
    if (!sameSecret(req, opts.secret)) return void res.writeHead(401).end();
    serveRelayExecute(req, res, params.sessionId, opts).catch((err: unknown) => {
      log.warn('relay execute failed', { sessionId: params.sessionId, error: (err as Error).message });
      res.destroy();
    });
  });
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const url = URL.parse(req.url ?? '/', 'http://relay');
    const path = url?.pathname ?? '/';
    const live = matchPath(RELAY_ROUTES.live, path);
    const params = matchPath(RELAY_ROUTES.cdp, path) ?? live;
    if (!params) return refuseUpgrade(socket, 404, 'Not found', 'NOT_FOUND');
    if (!sameSecret(req, opts.secret)) return refuseUpgrade(socket, 401, 'Unauthorized', 'UNAUTHORIZED');
    const hosted = sessions.get(params.sessionId);
    if (!hosted) return refuseUpgrade(socket, 410, 'Browser session has been destroyed.', 'SESSION_DESTROYED');
    if (live) {
      // The gateway checked the viewer's token and says which kind it was.
      const interactive = url?.searchParams.get('interactive') === '1';
      return wss.handleUpgrade(req, socket, head, (client) => {
        open.add(client);
        serveLiveView(client, hosted.chromium.cdpUrl, { interactive, log })
          .catch((err: unknown) => {
            log.warn('live view failed', { sessionId: params.sessionId, error: (err as Error).message });
            client.close(1011, 'live view failed');
          })
          .finally(() => open.delete(client));
      });
    }
    const upstream = new WebSocket(hosted.chromium.cdpUrl, { maxPayload: opts.maxMessageBytes, perMessageDeflate: false });
    const unreachable = (err: Error) => {
      log.warn('relay could not reach the session browser', { sessionId: params.sessionId, error: err.message });
      refuseUpgrade(socket, 502, 'The session browser is not reachable.', 'HOST_UNREACHABLE');
    };
    upstream.once('error', unreachable);
    upstream.once('open', () => {
      upstream.off('error', unreachable);
      wss.handleUpgrade(req, socket, head, (client) => {
        open.add(client);
        open.add(upstream);
        void pipeWebSockets(client, upstream).then(() => {
          open.delete(client);
          open.delete(upstream);
        });
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.bind, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      for (const ws of open) ws.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
