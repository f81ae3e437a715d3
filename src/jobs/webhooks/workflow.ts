// The webhook deliveries of one crawl (id `crawl-webhooks-<crawlId>`), started by
// the crawl's workflow and left running when the crawl ends, until every event of
// the crawl's outbox was delivered or given up. The events, their order and their
// retry times live in PostgreSQL; a long-running, heartbeating activity delivers
// them, so the history stays small however many pages the crawl has.
import { continueAsNew, proxyActivities, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { WebhookActivities } from './activities.ts';
import type { CrawlWebhooksInput, CrawlWebhooksResult } from './definitions.ts';

/** One activity runs at most this long, so a run's progress shows up in the UI now and then. */
const ROUND_MS = 10 * 60_000;

const { webhookSettings } = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 35 },
});

export async function crawlWebhooksWorkflow(input: CrawlWebhooksInput): Promise<CrawlWebhooksResult> {
  // Runs started before the worker decided these carry them in their input.
  const settings = input.activityTaskQueue ? { taskQueue: input.activityTaskQueue, heartbeatTimeoutMs: input.heartbeatTimeoutMs! } : await webhookSettings();
  const { deliverCrawlWebhooks } = proxyActivities<WebhookActivities>({
    taskQueue: settings.taskQueue,
    startToCloseTimeout: ROUND_MS + 5 * 60_000,
    heartbeatTimeout: settings.heartbeatTimeoutMs,
    // Each round settles what it can and records every attempt; a round that keeps failing
    // (the database is gone for about half an hour) fails this workflow, and the events stay pending.
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 35 },
  });
  for (;;) {
    const round = await deliverCrawlWebhooks({ crawlId: input.crawlId, roundMs: ROUND_MS });
    if (round.drained) return { crawlId: input.crawlId, delivered: round.delivered, failed: round.failed };
    if (workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > 500)
      await continueAsNew<typeof crawlWebhooksWorkflow>({
        crawlId: input.crawlId,
        ...(input.activityTaskQueue && { activityTaskQueue: input.activityTaskQueue, heartbeatTimeoutMs: input.heartbeatTimeoutMs }),
      });
  }
}
