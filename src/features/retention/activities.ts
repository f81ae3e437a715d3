// The scheduled purge: crawls past their expiry (results readable 24 h after
// the end), page-cache entries and activity-log rows past their retention are
// deleted, and maps past MAP_RETENTION_HOURS, idempotency keys past IDEMPOTENCY_KEY_WINDOW_HOURS, extracts
// and agent runs past their expiry, then agent threads left without runs, and hosts of the host budget idle for a day. Rows of a crawl go with it, an
// agent run's steps (with the pages its tools read) and webhook events with the run (foreign keys cascade);
// usage ledger rows stay, they are the team's billing history.
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import type { RetentionFeatureSettings } from './config.ts';
import { forgetIdleHosts } from '../../jobs/politeness/host-leases.ts';

export interface PurgeResult {
  crawls: number;
  cacheEntries: number;
  activityLogRows: number;
  maps: number;
  idempotencyKeys: number;
  extracts: number;
  agents: number;
  agentThreads: number;
  /** Hosts of the host budget (jobs/politeness/) no request started at for a day. */
  idleHosts: number;
}

/** A thread touched this recently may be taking a turn right now: its new run commits with the touch. */
const THREAD_GRACE_MS = 60_000;

export function createRetentionActivities({ db, config, log }: ActivityDeps<RetentionFeatureSettings>) {
  return {
    async purgeExpired(): Promise<PurgeResult> {
      const now = Date.now();
      const crawls = await db.job.deleteMany({ where: { expiresAt: { lte: new Date(now) } } });
      const cache = await db.pageCache.deleteMany({ where: { createdAt: { lt: new Date(now - config.crawl.cacheRetentionHours * 3_600_000) } } });
      const activity = await db.activityLog.deleteMany({ where: { createdAt: { lt: new Date(now - config.activityLog.retentionHours * 3_600_000) } } });
      const maps = await db.mapJob.deleteMany({ where: { createdAt: { lt: new Date(now - config.scrape.mapRetentionHours * 3_600_000) } } });
      const keys = await db.idempotencyKey.deleteMany({ where: { createdAt: { lt: new Date(now - config.idempotency.windowHours * 3_600_000) } } });
      const extracts = await db.extractJob.deleteMany({ where: { expiresAt: { lte: new Date(now) } } });
      const agents = await db.agentJob.deleteMany({ where: { expiresAt: { lte: new Date(now) } } });
      const threads = await db.agentThread.deleteMany({ where: { runs: { none: {} }, updatedAt: { lt: new Date(now - THREAD_GRACE_MS) } } });
      const idleHosts = await forgetIdleHosts(db);
      const proxyTiers = await db.proxyHostTier.deleteMany({ where: { expiresAt: { lte: new Date(now) } } });
      const result = {
        crawls: crawls.count,
        cacheEntries: cache.count,
        activityLogRows: activity.count,
        maps: maps.count,
        idempotencyKeys: keys.count,
        extracts: extracts.count,
        agents: agents.count,
        agentThreads: threads.count,
        idleHosts,
        lapsedProxyTiers: proxyTiers.count,
      };
      log.info('purged expired data', { ...result });
      return result;
    },
  };
}
