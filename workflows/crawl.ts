// One crawl = one workflow (id `crawl-<crawlId>`). The frontier and pages live
// in PostgreSQL; this code only holds counters, keeps a sliding window of batch
// activities in flight, and continues as new before its history grows large.
import {
  CancellationScope,
  ChildWorkflowCancellationType,
  condition,
  ContinueAsNew,
  continueAsNew,
  isCancellation,
  ParentClosePolicy,
  patched,
  proxyActivities,
  sleep,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { CrawlActivities, ScrapeBatchResult } from '../activities/crawl.ts';
import {
  CrawlStatusAttribute,
  crawlWebhooksWorkflowId,
  PagesCrawledAttribute,
  type CrawlWorkflowInput,
  type CrawlWorkflowResult,
} from '../src/temporal/definitions.ts';
import { crawlWebhooksWorkflow } from './crawl-webhooks.ts';

const { planCrawl, finishCrawl } = proxyActivities<CrawlActivities>({
  // Planning fetches robots.txt and up to 20 sitemaps; it heartbeats per fetch.
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: ['CrawlNotFound'] },
});

function scrapeActivities(heartbeatTimeoutMs: number) {
  return proxyActivities<CrawlActivities>({
    startToCloseTimeout: '30 minutes',
    // A batch on a dead worker is noticed after this long and retried elsewhere.
    heartbeatTimeout: heartbeatTimeoutMs,
    retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: ['CrawlNotFound'] },
  });
}

/**
 * Deliveries outlive this workflow, and its cancellation (ABANDON twice): the crawl may
 * end while a receiver is still retried, and a cancelled crawl still reports its end.
 */
async function startWebhookDeliveries(input: CrawlWorkflowInput & { webhookTaskQueue: string }): Promise<void> {
  try {
    await startChild(crawlWebhooksWorkflow, {
      workflowId: crawlWebhooksWorkflowId(input.crawlId),
      args: [{ crawlId: input.crawlId, activityTaskQueue: input.webhookTaskQueue, heartbeatTimeoutMs: input.heartbeatTimeoutMs }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      cancellationType: ChildWorkflowCancellationType.ABANDON,
      staticSummary: `Webhook deliveries of crawl ${input.crawlId}`,
    });
  } catch (err) {
    // A reset run of this crawl finds its deliveries already going.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

export async function crawlWorkflow(input: CrawlWorkflowInput): Promise<CrawlWorkflowResult> {
  const { crawlId } = input;
  const { scrapeBatch } = scrapeActivities(input.heartbeatTimeoutMs);
  let pagesHandled = input.pagesHandled ?? 0;
  let batchSeq = 0;
  let inFlight = 0;
  let failure: unknown;
  let outOfCredits = false;
  let lastBatchEnded = input.lastBatchEndedAt;
  // Batches that claim URLs as they are found and wait for work: while one batch runs, every
  // parallel slot gets a batch, until one comes back having found nothing left to claim.
  const batchesWaitForWork = patched('batches-wait-for-work');
  let starved = false;

  const historyFull = () => {
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.historyLength > (input.historyEventBudget ?? 3_000);
  };

  try {
    if (!input.planned) {
      upsertSearchAttributes([{ key: CrawlStatusAttribute, value: 'scraping' }]);
      if (input.webhookTaskQueue) await startWebhookDeliveries({ ...input, webhookTaskQueue: input.webhookTaskQueue });
    }
    let queued = input.planned ? input.parallelBatches * input.batchSize : (await planCrawl(crawlId)).queued;

    const launch = () => {
      const batchKey = `${workflowInfo().runId}:${batchSeq++}`;
      inFlight++;
      queued = Math.max(0, queued - input.batchSize);
      scrapeBatch({ crawlId, batchKey, size: input.batchSize, concurrency: input.pagesPerBatch })
        .then((r: ScrapeBatchResult) => {
          pagesHandled += r.succeeded + r.failed;
          queued = r.queued;
          starved = r.starved === true && r.queued === 0;
          outOfCredits ||= r.outOfCredits;
        })
        .catch((err) => {
          failure ??= err;
        })
        .finally(() => {
          inFlight--;
          lastBatchEnded = Date.now();
        });
    };
    const workMayCome = () => batchesWaitForWork && inFlight > 0 && !starved;
    const canLaunch = () => inFlight < input.parallelBatches && (queued > 0 || workMayCome()) && !outOfCredits && !historyFull();

    for (;;) {
      await condition(() => failure !== undefined || inFlight === 0 || canLaunch());
      if (failure !== undefined) throw failure;
      if (canLaunch()) {
        // delay: seconds between scrapes, kept by a durable timer (visible in the UI).
        if (input.delayMs && lastBatchEnded !== undefined) {
          await sleep(Math.max(0, lastBatchEnded + input.delayMs - Date.now()));
        }
        launch();
        continue;
      }
      if (inFlight > 0) continue;
      if (historyFull()) {
        await continueAsNew<typeof crawlWorkflow>({ ...input, planned: true, pagesHandled, lastBatchEndedAt: lastBatchEnded });
      }
      const done = await finishCrawl({ crawlId, status: 'completed', outOfCredits });
      if (done.finished) break;
      // Another batch's late snapshot hid work still in the frontier.
      queued = Math.max(done.queued, 1);
    }
    upsertSearchAttributes([
      { key: CrawlStatusAttribute, value: 'completed' },
      { key: PagesCrawledAttribute, value: pagesHandled },
    ]);
    return { crawlId, status: 'completed', pagesHandled };
  } catch (err) {
    // continueAsNew ends this run by throwing; the crawl goes on in the next one.
    if (err instanceof ContinueAsNew) throw err;
    const status = isCancellation(err) ? 'cancelled' : 'failed';
    await CancellationScope.nonCancellable(async () => {
      await condition(() => inFlight === 0);
      await finishCrawl({ crawlId, status, error: status === 'failed' ? String((err as Error).message ?? err) : undefined });
      upsertSearchAttributes([
        { key: CrawlStatusAttribute, value: status },
        { key: PagesCrawledAttribute, value: pagesHandled },
      ]);
    });
    throw err;
  }
}
