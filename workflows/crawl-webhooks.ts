// The webhook deliveries of one crawl (id `crawl-webhooks-<crawlId>`), started by
// the crawl's workflow and left running when the crawl ends, until every event of
// the crawl's outbox was delivered or given up. The events, their order and their
// retry times live in PostgreSQL; a long-running, heartbeating activity delivers
// them, so the history stays small however many pages the crawl has.
import { continueAsNew, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks.ts';
import type { CrawlWebhooksInput, CrawlWebhooksResult } from '../src/temporal/definitions.ts';

/** One activity runs at most this long, so a run's progress shows up in the UI now and then. */
const ROUND_MS = 10 * 60_000;

export async function crawlWebhooksWorkflow(input: CrawlWebhooksInput): Promise<CrawlWebhooksResult> {
  const { deliverCrawlWebhooks } = proxyActivities<WebhookActivities>({
    taskQueue: input.activityTaskQueue,
    startToCloseTimeout: ROUND_MS + 5 * 60_000,
    heartbeatTimeout: input.heartbeatTimeoutMs,
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute' },
  });
  for (;;) {
    const round = await deliverCrawlWebhooks({ crawlId: input.crawlId, roundMs: ROUND_MS });
    if (round.drained) return { crawlId: input.crawlId, delivered: round.delivered, failed: round.failed };
    if (workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > 500) await continueAsNew<typeof crawlWebhooksWorkflow>(input);
  }
}
