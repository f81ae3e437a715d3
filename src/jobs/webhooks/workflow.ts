// The webhook deliveries of one job (id `<kind>-webhooks-<jobId>`, see definitions.ts), started by
// the crawl's workflow and left running when the crawl ends, until every event of
// the crawl's outbox was delivered or given up. The events, their order and their
// retry times live in PostgreSQL; a long-running, heartbeating activity delivers
// them, so the history stays small however many pages the crawl has. An agent
// run's deliveries (features/agent) are made of the same pieces.
import { continueAsNew, proxyActivities, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import { DATABASE_RETRY } from '../../platform/temporal/retry-policies.ts';
import type { DeliverWebhooksResult, WebhookActivities } from './activities.ts';
import type { JobWebhooksInput, JobWebhooksResult } from './definitions.ts';

/** One activity runs at most this long, so a run's progress shows up in the UI now and then. */
const ROUND_MS = 10 * 60_000;

const { webhookSettings } = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  retry: DATABASE_RETRY,
});

/** Where and how this deployment delivers: the worker's own settings, or those a run started before that carries. */
export async function deliverySettings(legacy?: { activityTaskQueue?: string; heartbeatTimeoutMs?: number }) {
  return legacy?.activityTaskQueue ? { taskQueue: legacy.activityTaskQueue, heartbeatTimeoutMs: legacy.heartbeatTimeoutMs! } : await webhookSettings();
}

/** The activity options of a delivery round, on the webhook task queue. */
export function deliveryRoundOptions(settings: { taskQueue: string; heartbeatTimeoutMs: number }) {
  return {
    taskQueue: settings.taskQueue,
    startToCloseTimeout: ROUND_MS + 5 * 60_000,
    heartbeatTimeout: settings.heartbeatTimeoutMs,
    // Each round settles what it can and records every attempt; a round that keeps failing
    // (the database is gone for about half an hour) fails this workflow, and the events stay pending.
    retry: DATABASE_RETRY,
  };
}

/** Runs delivery rounds until the job's outbox is drained, continuing as new when the history grows. */
export async function deliverUntilDrained(
  round: (roundMs: number) => Promise<DeliverWebhooksResult>,
  continueAsNewRun: () => Promise<never>,
): Promise<DeliverWebhooksResult> {
  for (;;) {
    const result = await round(ROUND_MS);
    if (result.drained) return result;
    if (workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > 500) await continueAsNewRun();
  }
}

export async function jobWebhooksWorkflow(input: JobWebhooksInput): Promise<JobWebhooksResult> {
  // Runs started before the worker decided these carry them in their input.
  const { deliverCrawlWebhooks } = proxyActivities<WebhookActivities>(deliveryRoundOptions(await deliverySettings(input)));
  const round = await deliverUntilDrained(
    (roundMs) => deliverCrawlWebhooks({ crawlId: input.crawlId, roundMs }),
    () =>
      continueAsNew<typeof jobWebhooksWorkflow>({
        crawlId: input.crawlId,
        ...(input.activityTaskQueue && { activityTaskQueue: input.activityTaskQueue, heartbeatTimeoutMs: input.heartbeatTimeoutMs }),
      }),
  );
  return { crawlId: input.crawlId, delivered: round.delivered, failed: round.failed };
}
