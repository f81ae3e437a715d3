// The WebSocket routes of running jobs: /v2/crawl/{id} and /v2/batch/scrape/{id},
// as the JS SDK's watcher opens them (the API key as the subprotocol; an
// Authorization header works too), and /v1/crawl/{id}, which the v1 clients' watchers
// open for crawls and batch scrapes alike. Upgrades are refused in the API's envelope.
import { WebSocketServer } from 'ws';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { refuseUpgrade, type WebSocketRoute, type WebSocketUpgrade } from '../../platform/http/websockets.ts';
import { hashApiKey } from '../../platform/teams/api-keys.ts';
import type { JobKind } from '../../jobs/job-kind.ts';
import { isZeroDataRetention } from '../../jobs/job-status.ts';
import { createJobFeed } from '../../jobs/job-feed.ts';
import { watchJob } from './watch-session.ts';
import type { JobSettings } from '../../jobs/config.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The key a client sent: the first subprotocol, else a Bearer header. */
function apiKeyOf(upgrade: WebSocketUpgrade): string | undefined {
  const protocol = upgrade.req.headers['sec-websocket-protocol']?.split(',')[0]?.trim();
  if (protocol) return protocol;
  return /^Bearer\s+(\S+)\s*$/i.exec(upgrade.req.headers.authorization ?? '')?.[1];
}

export function jobWatchRoutes(deps: GatewayDeps<JobSettings>): WebSocketRoute[] {
  const databaseUrl = deps.config.database.url;
  const feed = databaseUrl ? createJobFeed({ db: deps.db, databaseUrl, log: deps.log, limits: deps.config.database }) : undefined;
  // Clients send nothing the watcher reads; the subprotocol they asked for (their key) is echoed, as the protocol requires.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096, handleProtocols: (protocols) => protocols.values().next().value ?? false });

  const route = (path: string, kinds: JobKind[], endInCloseReason = false): WebSocketRoute => ({
    path,
    async handle(upgrade) {
      const { socket } = upgrade;
      const key = apiKeyOf(upgrade);
      if (!key) return refuseUpgrade(socket, 401, 'Unauthorized: Token missing', 'UNAUTHORIZED');
      const apiKey = await deps.db.apiKey.findUnique({ where: { keyHash: hashApiKey(key) } });
      if (!apiKey || apiKey.revokedAt) return refuseUpgrade(socket, 401, 'Unauthorized: Invalid token', 'UNAUTHORIZED');
      const id = upgrade.params.id;
      if (!UUID.test(id)) return refuseUpgrade(socket, 400, 'Invalid job ID format. Job ID must be a valid UUID.', 'BAD_REQUEST');
      const job = await deps.db.job.findFirst({ where: { id: id.toLowerCase(), teamId: apiKey.teamId, kind: { in: kinds } } });
      if (!job || (job.expiresAt && job.expiresAt.getTime() <= Date.now())) return refuseUpgrade(socket, 404, 'Job not found', 'NOT_FOUND');
      if (isZeroDataRetention(job)) {
        return refuseUpgrade(
          socket,
          400,
          'A zero data retention job hands each document out once, through its status endpoint; it cannot be watched.',
          'BAD_REQUEST',
        );
      }
      if (!feed) return refuseUpgrade(socket, 503, 'Job watching needs DATABASE_URL', 'SERVICE_UNAVAILABLE');
      wss.handleUpgrade(upgrade.req, socket, upgrade.head, (ws) => {
        watchJob(ws, job, { db: deps.db, feed, retentionHours: deps.config.crawl.retentionHours, endInCloseReason }).catch((err: unknown) => {
          deps.log.warn('job watcher failed', { jobId: job.id, error: (err as Error).message });
          ws.close(1011, 'internal error');
        });
      });
    },
  });
  return [route('/v2/crawl/:id', ['crawl']), route('/v2/batch/scrape/:id', ['batch_scrape']), route('/v1/crawl/:id', ['crawl', 'batch_scrape'], true)];
}
