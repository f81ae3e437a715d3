// One crawl = one workflow (id `crawl-<crawlId>`). The frontier and pages live
// in PostgreSQL; this code only holds counters, keeps a sliding window of batch
// activities in flight, and continues as new before its history grows large.
// Control activities (plan, finish) run on this workflow's own task queue; scrape
// batches on the browser queue, where each waits for a worker's browser slot.
import {
  ActivityCancellationType,
  CancellationScope,
  ChildWorkflowCancellationType,
  condition,
  ContinueAsNew,
  continueAsNew,
  isCancellation,
  ParentClosePolicy,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { CrawlActivities, ScrapeBatchResult } from './activities.ts';
import { urlsAddedSignal, type CrawlRunSettings, type CrawlWorkflowInput, type CrawlWorkflowResult } from './definitions.ts';
import { CrawlStatusAttribute, PagesCrawledAttribute } from '../platform/temporal/search-attribute-keys.ts';
import { BATCH_RETRY, CONTROL_RETRY } from './retry-policies.ts';
import { crawlWebhooksWorkflowId } from './webhooks/definitions.ts';
import { crawlWebhooksWorkflow } from './webhooks/workflow.ts';

const { planCrawl, finishCrawl } = proxyActivities<CrawlActivities>({
  // Planning fetches robots.txt and up to 20 sitemaps; it heartbeats per fetch.
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '2 minutes',
  retry: CONTROL_RETRY,
});

const { crawlSettings, queueForBrowser } = proxyLocalActivities<CrawlActivities>({
  startToCloseTimeout: '30 seconds',
  retry: CONTROL_RETRY,
});

/** Dispatch order on the browser queue: lower goes first (Temporal task-queue priority). */
const FIRST_BATCH_PRIORITY = 1;
const MORE_BATCHES_PRIORITY = 2;
/** A batch that gave its browser up to another crawl queues behind the crawl it yielded to. */
const AFTER_YIELD_PRIORITY = 4;

function scrapeActivity(settings: CrawlRunSettings | undefined, heartbeatTimeoutMs: number, priorityKey: number | undefined, waitForCancellation: boolean) {
  return proxyActivities<CrawlActivities>({
    startToCloseTimeout: '30 minutes',
    // A batch on a dead worker is noticed after this long and retried elsewhere.
    heartbeatTimeout: heartbeatTimeoutMs,
    retry: BATCH_RETRY,
    // Runs started before the browser queue existed send their batches where the worker's
    // default browser queue is (their workflow's queue + "-browser"); the queue is not part of
    // what a replay compares.
    taskQueue: settings?.browserTaskQueue ?? `${workflowInfo().taskQueue}-browser`,
    // A cancelled crawl finishes only once its batches stopped storing pages; the SDK's
    // default (TRY_CANCEL) reports a batch cancelled as soon as it is asked to stop.
    ...(waitForCancellation && { cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED }),
    ...(settings && { priority: { priorityKey, fairnessKey: settings.teamId } }),
  }).scrapeBatch;
}

/**
 * Deliveries outlive this workflow, and its cancellation (ABANDON twice): the crawl may
 * end while a receiver is still retried, and a cancelled crawl still reports its end.
 */
async function startWebhookDeliveries(crawlId: string, legacy: { activityTaskQueue?: string; heartbeatTimeoutMs?: number }): Promise<void> {
  try {
    await startChild(crawlWebhooksWorkflow, {
      workflowId: crawlWebhooksWorkflowId(crawlId),
      args: [{ crawlId, ...(legacy.activityTaskQueue && legacy) }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      cancellationType: ChildWorkflowCancellationType.ABANDON,
      staticSummary: `Webhook deliveries of crawl ${crawlId}`,
    });
  } catch (err) {
    // A reset run of this crawl finds its deliveries already going.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** What a run started before the worker decided its settings carries in its input. */
function legacySettings(input: CrawlWorkflowInput) {
  if (input.parallelBatches === undefined) return undefined;
  return {
    parallelBatches: input.parallelBatches,
    batchSize: input.batchSize!,
    pagesPerBatch: input.pagesPerBatch!,
    heartbeatTimeoutMs: input.heartbeatTimeoutMs!,
    historyEventBudget: input.historyEventBudget ?? 3_000,
    delayMs: input.delayMs,
  };
}

export async function crawlWorkflow(input: CrawlWorkflowInput): Promise<CrawlWorkflowResult> {
  const { crawlId } = input;
  const legacy = legacySettings(input);
  const settings = legacy ? undefined : await crawlSettings(crawlId);
  const run = legacy ?? settings!;
  let pagesHandled = input.pagesHandled ?? 0;
  let batchSeq = 0;
  let inFlight = 0;
  let failure: unknown;
  let outOfCredits = false;
  let lastBatchEnded = input.lastBatchEndedAt;
  // Batches that claim URLs as they are found and wait for work: while one batch runs, every
  // parallel slot gets a batch, until one comes back having found nothing left to claim.
  const batchesWaitForWork = patched('batches-wait-for-work');
  const cancelWaitsForBatches = patched('cancel-waits-for-batches');
  let starved = false;
  let yielded = false;

  const historyFull = () => {
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.historyLength > run.historyEventBudget;
  };

  try {
    if (!input.planned) {
      upsertSearchAttributes([{ key: CrawlStatusAttribute, value: 'scraping' }]);
      if (settings?.hasWebhook) await startWebhookDeliveries(crawlId, {});
      else if (input.webhookTaskQueue)
        await startWebhookDeliveries(crawlId, { activityTaskQueue: input.webhookTaskQueue, heartbeatTimeoutMs: input.heartbeatTimeoutMs });
    }
    let queued = input.planned ? run.parallelBatches * run.batchSize : (await planCrawl(crawlId)).queued;
    setHandler(urlsAddedSignal, (added) => {
      queued += added;
    });

    const launch = async () => {
      const batchKey = `${workflowInfo().runId}:${batchSeq++}`;
      queued = Math.max(0, queued - run.batchSize);
      let priorityKey: number | undefined;
      if (settings) {
        priorityKey = yielded ? AFTER_YIELD_PRIORITY : inFlight === 0 ? FIRST_BATCH_PRIORITY : MORE_BATCHES_PRIORITY;
        yielded = false;
        // Running batches of other crawls see this and may give their browser up (fair share).
        await queueForBrowser({ holder: batchKey, crawlId, teamId: settings.teamId });
      }
      // Counted only once scheduled: a launch that failed or was cancelled above has no
      // batch whose end would uncount it, and the cleanup below waits for inFlight === 0.
      inFlight++;
      scrapeActivity(
        settings,
        run.heartbeatTimeoutMs,
        priorityKey,
        cancelWaitsForBatches,
      )({ crawlId, batchKey, size: run.batchSize, concurrency: run.pagesPerBatch })
        .then((r: ScrapeBatchResult) => {
          pagesHandled += r.succeeded + r.failed;
          queued = r.queued;
          starved = r.starved === true && r.queued === 0;
          outOfCredits ||= r.outOfCredits;
          if (r.yielded) {
            yielded = true;
            // The batch stopped early for another crawl: what it left is still to do.
            queued = Math.max(queued, 1);
          }
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
    const canLaunch = () => inFlight < run.parallelBatches && (queued > 0 || workMayCome()) && !outOfCredits && !historyFull();

    for (;;) {
      await condition(() => failure !== undefined || inFlight === 0 || canLaunch());
      if (failure !== undefined) throw failure;
      if (canLaunch()) {
        // delay: seconds between scrapes, kept by a durable timer (visible in the UI).
        if (run.delayMs && lastBatchEnded !== undefined) {
          await sleep(Math.max(0, lastBatchEnded + run.delayMs - Date.now()));
        }
        await launch();
        continue;
      }
      if (inFlight > 0) continue;
      if (historyFull()) {
        // The next run asks the worker for its settings, also when this one had them in its input.
        await continueAsNew<typeof crawlWorkflow>({
          crawlId,
          planned: true,
          pagesHandled,
          lastBatchEndedAt: lastBatchEnded,
        });
      }
      const done = await finishCrawl({ crawlId, status: 'completed', outOfCredits });
      if (done.finished) {
        upsertSearchAttributes([
          { key: CrawlStatusAttribute, value: 'completed' },
          { key: PagesCrawledAttribute, value: pagesCrawled(done, pagesHandled) },
        ]);
        return { crawlId, status: 'completed', pagesHandled };
      }
      // Another batch's late snapshot hid work still in the frontier.
      queued = Math.max(done.queued, 1);
    }
  } catch (err) {
    // continueAsNew ends this run by throwing; the crawl goes on in the next one.
    if (err instanceof ContinueAsNew) throw err;
    const status = isCancellation(err) ? 'cancelled' : 'failed';
    await CancellationScope.nonCancellable(async () => {
      await condition(() => inFlight === 0);
      const done = await finishCrawl({ crawlId, status, error: status === 'failed' ? failureReason(err) : undefined });
      upsertSearchAttributes([
        { key: CrawlStatusAttribute, value: status },
        { key: PagesCrawledAttribute, value: pagesCrawled(done, pagesHandled) },
      ]);
    });
    throw err;
  }
}

/**
 * PagesCrawled: the pages the crawl stored successfully, so the UI agrees with `completed` in
 * GET /v2/crawl/{id} (failed pages are left out there too). Counted by finishCrawl, because the
 * workflow's own count misses what its batches stored when a cancellation stopped them before
 * they returned. A finishCrawl result recorded before it counted has no number; such a history
 * upserted pagesHandled. No patch: replay checks the upsert, not the values it carries.
 */
function pagesCrawled(done: { completed?: number }, pagesHandled: number): number {
  return done.completed ?? pagesHandled;
}

/** The innermost message of an activity failure: what actually went wrong, for the status and the crawl.failed event. */
function failureReason(err: unknown): string {
  let e = err as { message?: string; cause?: unknown } | undefined;
  while (e?.cause) e = e.cause as typeof e;
  return String(e?.message ?? err);
}
