// The map's one activity: reads the site (map-site.ts) and records the result,
// or the failure, on the map's row. Idempotent: an attempt that finds the row
// ended does nothing.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { createCrawlNetwork } from '../../platform/net/outbound-network.ts';
import { storableJson, storableText } from '../../platform/db/storable.ts';
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import { attemptHolderPrefix } from '../../platform/temporal/attempt-record.ts';
import type { MapRequest } from './map-request.ts';
import { mapSite, type IndexedPages } from './map-site.ts';
import { indexedSitePages } from '../../jobs/search-index/site-pages.ts';
import { MAP_RETRY } from './definitions.ts';
import { countJobEnded } from '../../jobs/job-metrics.ts';
import type { MapFeatureSettings } from './config.ts';
import { HostGate } from '../../jobs/politeness/host-gate.ts';
import { politely } from '../../jobs/politeness/polite-requests.ts';

/** The start page's fetch time limit (platform/net/outbound-network.ts), for the lease of its host turn. */
const START_PAGE_TIMEOUT_MS = 30_000;

export function createMapActivities({ db, config, log }: ActivityDeps<MapFeatureSettings>) {
  const network = createCrawlNetwork(config, log);
  const hostGate = new HostGate({ db, settings: config.crawl, warn: (message, fields) => log.warn(message, fields) });
  return {
    async mapSite(mapId: string): Promise<void> {
      const job = await db.mapJob.findUnique({ where: { id: mapId } });
      if (!job) throw ApplicationFailure.nonRetryable(`map ${mapId} does not exist`, 'MapNotFound');
      if (job.status !== 'running') return;
      // The row keeps the request exactly as POST /v2/map validated it.
      const req = job.options as unknown as MapRequest;
      try {
        const indexed: IndexedPages = async (q) =>
          (await indexedSitePages(db, { ...q, teamId: job.teamId, sharePublicPages: config.search.sharePublicPages })).map((p) => ({
            url: p.url,
            ...(p.title && { title: p.title }),
            ...(p.description && { description: p.description }),
          }));
        // The start page is a page request like a crawl's: it takes its host's turn and waits out a throttled answer.
        const polite = {
          gate: hostGate,
          teamId: job.teamId,
          // Recorded with the attempt (recordingAttempts): a dead worker's turn is ended with it.
          holderPrefix: attemptHolderPrefix(),
          maxRetries: config.crawl.hostThrottleMaxRetries,
          crawlDelayMs: async () => undefined,
        };
        const fetchPage = (url: string) => politely(polite, url, { timeoutMs: START_PAGE_TIMEOUT_MS }, () => network.fetch(url));
        const site = await mapSite(req, network, config, (stage) => Context.current().heartbeat(stage), indexed, fetchPage);
        // Only the attempt that ends the map counts it (a retry after a lost answer finds it ended).
        const { count } = await db.mapJob.updateMany({
          where: { id: mapId, status: 'running' },
          data: { status: 'completed', links: storableJson(site.links).value as object, warning: site.warning ?? null, completedAt: new Date() },
        });
        if (count > 0) countJobEnded('map', 'completed');
        log.info('map finished', { mapId, links: site.links.length });
      } catch (err) {
        const last = Context.current().info.attempt >= (MAP_RETRY.maximumAttempts ?? Infinity);
        if (last) {
          const { count } = await db.mapJob.updateMany({
            where: { id: mapId, status: 'running' },
            data: { status: 'failed', error: storableText((err as Error).message), completedAt: new Date() },
          });
          if (count > 0) countJobEnded('map', 'failed');
        }
        throw err;
      }
    },
  };
}

export type MapActivities = ReturnType<typeof createMapActivities>;
