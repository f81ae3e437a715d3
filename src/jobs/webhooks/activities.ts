// Delivers a crawl's (or batch scrape's) webhook outbox with the shared outbox
// delivery (outbox-delivery.ts): the crawl's events, crawl.started first and
// crawl.completed / crawl.failed last, signed with the team's secret.
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import type { WebhookDeliverySettings } from './config.ts';
import { crawlOptions } from '../crawl-options.ts';
import { TERMINAL_EVENT_TYPES } from './crawl-events.ts';
import { createOutboxDelivery, type DeliverWebhooksResult } from './outbox-delivery.ts';

export type { DeliverWebhooksResult } from './outbox-delivery.ts';

export interface DeliverWebhooksInput {
  crawlId: string;
  /** Return after about this long even if events remain, so the workflow can continue as new. */
  roundMs: number;
}

export function createWebhookActivities(deps: ActivityDeps<WebhookDeliverySettings>) {
  const { db, config } = deps;
  const crawlOutbox = createOutboxDelivery(deps, {
    column: 'crawlId',
    startedType: 'crawl.started',
    terminalTypes: TERMINAL_EVENT_TYPES,
    async owner(crawlId) {
      const crawl = await db.job.findUnique({ where: { id: crawlId }, include: { team: { select: { webhookSigningSecret: true } } } });
      if (!crawl) return null;
      return {
        running: crawl.status === 'scraping',
        signingSecret: crawl.team.webhookSigningSecret,
        zeroDataRetention: crawlOptions(crawl).zeroDataRetention === true,
      };
    },
  });

  return {
    /** Local activity: where and how this deployment delivers (the worker's own settings). */
    async webhookSettings(): Promise<{ taskQueue: string; heartbeatTimeoutMs: number }> {
      return { taskQueue: config.temporal.webhookTaskQueue, heartbeatTimeoutMs: config.crawl.heartbeatTimeoutMs };
    },

    async deliverCrawlWebhooks(input: DeliverWebhooksInput): Promise<DeliverWebhooksResult> {
      return crawlOutbox.deliver(input.crawlId, input.roundMs);
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
