// cdpUrl: a WebSocket on the gateway, authenticated by the session's CDP token
// (in the query, or as Authorization: Bearer), joined to the session's Chromium
// through its host's relay. Closing it never ends the session; a client may
// reconnect for as long as the session lives. Every client message counts as use.
import { timingSafeEqual } from 'node:crypto';
import { WebSocket, WebSocketServer } from 'ws';
import type { GatewayDeps } from '../../../platform/http/app.ts';
import { refuseUpgrade, type WebSocketRoute, type WebSocketUpgrade } from '../../../platform/http/websockets.ts';
import { pipeWebSockets } from '../../../platform/http/ws-pipe.ts';
import type { BrowserSession } from '../../../generated/prisma/client.ts';
import { hostById } from '../shared/host-registry.ts';
import { relayCdpPath, RELAY_SECRET_HEADER } from '../protocol/relay.ts';
import type { SessionToucher } from './session-touch.ts';
import type { BrowserSessionsFeatureSettings } from '../config.ts';

function tokenOf(upgrade: WebSocketUpgrade): string | undefined {
  const fromQuery = upgrade.query.get('token');
  if (fromQuery) return fromQuery;
  const auth = upgrade.req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7).trim() : undefined;
}

export function sameToken(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The live session a token opens, or a refusal already sent. */
export async function sessionForToken(
  deps: GatewayDeps<BrowserSessionsFeatureSettings>,
  upgrade: WebSocketUpgrade,
  accept: (row: BrowserSession, token: string | undefined) => boolean,
): Promise<BrowserSession | undefined> {
  const { socket, params } = upgrade;
  const token = tokenOf(upgrade);
  const row = /^[0-9a-f-]{36}$/i.test(params.id) ? await deps.db.browserSession.findUnique({ where: { id: params.id } }) : null;
  // An unknown session and a wrong token get the same answer: a token is the only key to a session.
  if (!row || !accept(row, token)) {
    refuseUpgrade(socket, 401, 'Unauthorized: a valid session token is required (the token in the URL the session was created with).', 'UNAUTHORIZED');
    return undefined;
  }
  if (row.status === 'destroyed' || row.status === 'error') {
    refuseUpgrade(socket, 410, 'Browser session has been destroyed.', 'SESSION_DESTROYED');
    return undefined;
  }
  if (!row.hostId) {
    refuseUpgrade(socket, 409, 'Browser session is still starting.', 'SESSION_STARTING');
    return undefined;
  }
  return row;
}

/** Opens the relay to the session's host; undefined (refusal sent) when it cannot be reached. */
export async function openRelay(
  deps: GatewayDeps<BrowserSessionsFeatureSettings>,
  upgrade: WebSocketUpgrade,
  row: BrowserSession,
  path: string,
): Promise<WebSocket | undefined> {
  const host = await hostById(deps.db, row.hostId!);
  if (!host) {
    refuseUpgrade(upgrade.socket, 502, 'The session browser is not reachable.', 'HOST_UNREACHABLE');
    return undefined;
  }
  const upstream = new WebSocket(`${host.relayUrl}${path}`, {
    headers: { [RELAY_SECRET_HEADER]: host.relaySecret },
    maxPayload: deps.config.browserSessions.maxCdpMessageBytes,
    perMessageDeflate: false,
  });
  return new Promise((resolve) => {
    upstream.once('open', () => resolve(upstream));
    upstream.once('unexpected-response', (_req, res) => {
      refuseUpgrade(
        upgrade.socket,
        res.statusCode === 410 ? 410 : 502,
        res.statusCode === 410 ? 'Browser session has been destroyed.' : 'The session browser is not reachable.',
        res.statusCode === 410 ? 'SESSION_DESTROYED' : 'HOST_UNREACHABLE',
      );
      upstream.terminate();
      resolve(undefined);
    });
    upstream.once('error', (err) => {
      deps.log.warn('session relay unreachable', { sessionId: row.id, hostId: row.hostId, error: err.message });
      refuseUpgrade(upgrade.socket, 502, 'The session browser is not reachable.', 'HOST_UNREACHABLE');
      resolve(undefined);
    });
  });
}

export function cdpProxyRoute(deps: GatewayDeps<BrowserSessionsFeatureSettings>, toucher: SessionToucher): WebSocketRoute {
  const wss = new WebSocketServer({ noServer: true, maxPayload: deps.config.browserSessions.maxCdpMessageBytes, perMessageDeflate: false });
  return {
    path: '/v2/browser/:id/cdp',
    async handle(upgrade) {
      const row = await sessionForToken(deps, upgrade, (r, token) => sameToken(token, r.cdpToken));
      if (!row) return;
      const upstream = await openRelay(deps, upgrade, row, relayCdpPath(row.id));
      if (!upstream) return;
      wss.handleUpgrade(upgrade.req, upgrade.socket, upgrade.head, (client) => {
        toucher.touch(row.id, row.activityTtlSeconds);
        void pipeWebSockets(client, upstream, { onClientMessage: () => toucher.touch(row.id, row.activityTtlSeconds) });
      });
    },
  };
}
