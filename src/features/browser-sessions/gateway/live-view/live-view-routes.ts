// The live view on the gateway: GET /v2/browser/{id}/live?token= answers the
// viewer page, and the same URL upgraded to a WebSocket is its stream, relayed
// to the session's host, which runs the screencast. The token decides the kind:
// the session's view token gives a view-only stream, its interactive token one
// that forwards input (each input a use of the session, re-arming its idle timer).
import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import { WebSocketServer } from 'ws';
import type { GatewayDeps } from '../../../../platform/http/app.ts';
import { publicBase } from '../../../../platform/http/public-url.ts';
import type { WebSocketRoute } from '../../../../platform/http/websockets.ts';
import { pipeWebSockets } from '../../../../platform/http/ws-pipe.ts';
import type { BrowserSession } from '../../../../generated/prisma/client.ts';
import { openRelay, sameToken, sessionForToken } from '../cdp-proxy.ts';
import { relayLivePath } from '../../protocol/relay.ts';
import type { SessionToucher } from '../session-touch.ts';
import { liveViewContentSecurityPolicy, liveViewPage } from './live-view-page.ts';
import type { BrowserSessionsFeatureSettings } from '../../config.ts';

/** Largest message a viewer may send (pasted text is capped at 10,000 characters). */
const MAX_VIEWER_MESSAGE_BYTES = 64 * 1024;

/** Which live view a token opens, if any. */
function viewKind(row: BrowserSession, token: string | undefined): 'view' | 'interactive' | undefined {
  if (!row.streamWebView) return undefined;
  if (sameToken(token, row.interactiveToken)) return 'interactive';
  if (sameToken(token, row.viewToken)) return 'view';
  return undefined;
}

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><p>${text}</p></body></html>`;

export function liveViewPageRoutes(deps: GatewayDeps<BrowserSessionsFeatureSettings>): Router {
  const router = Router();
  router.get('/v2/browser/:id/live', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    // The token is in the URL: it must not leave in a Referer.
    res.setHeader('Referrer-Policy', 'no-referrer');
    const token = typeof req.query.token === 'string' ? req.query.token : undefined;
    const row = /^[0-9a-f-]{36}$/i.test(req.params.id) ? await deps.db.browserSession.findUnique({ where: { id: req.params.id } }) : null;
    const kind = row ? viewKind(row, token) : undefined;
    if (!row || !kind) return void res.status(401).type('html').send(page('Unauthorized', 'This live view needs the URL the session was created with.'));
    if (row.status === 'destroyed' || row.status === 'error')
      return void res.status(410).type('html').send(page('Session ended', 'Browser session has been destroyed.'));
    const base = publicBase(deps.config);
    const socketOrigin = base.replace(/^http/, 'ws');
    const nonce = randomBytes(16).toString('base64');
    res.setHeader('Content-Security-Policy', liveViewContentSecurityPolicy(nonce, socketOrigin));
    res.type('html').send(
      liveViewPage({
        sessionId: row.id,
        socketUrl: `${socketOrigin}/v2/browser/${row.id}/live?token=${encodeURIComponent(token!)}`,
        interactive: kind === 'interactive',
        nonce,
      }),
    );
  });
  return router;
}

export function liveViewSocketRoute(deps: GatewayDeps<BrowserSessionsFeatureSettings>, toucher: SessionToucher): WebSocketRoute {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_VIEWER_MESSAGE_BYTES, perMessageDeflate: false });
  return {
    path: '/v2/browser/:id/live',
    async handle(upgrade) {
      let kind: 'view' | 'interactive' | undefined;
      const row = await sessionForToken(deps, upgrade, (r, token) => (kind = viewKind(r, token)) !== undefined);
      if (!row) return;
      const upstream = await openRelay(deps, upgrade, row, relayLivePath(row.id, kind === 'interactive'));
      if (!upstream) return;
      wss.handleUpgrade(upgrade.req, upgrade.socket, upgrade.head, (client) => {
        const onClientMessage = kind === 'interactive' ? () => toucher.touch(row.id, row.activityTtlSeconds) : undefined;
        void pipeWebSockets(client, upstream, { onClientMessage });
      });
    },
  };
}
