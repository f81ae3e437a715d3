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
  setCurrentDetails,
  setHandler,
  sleep,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { HandlerUnfinishedPolicy, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { CrawlActivities, ScrapeBatchResult } from './activities.ts';
import {
  progressQuery,
  scrapeSettledUpdate,
  urlsAddedSignal,
  type CrawlPhase,
  type CrawlProgress,
  type CrawlRunSettings,
  type CrawlStatus,
  type CrawlWorkflowInput,
  type CrawlWorkflowResult,
  type JobCounts,
} from './definitions.ts';
import { crawlDetails } from './crawl-details.ts';
import { durationText } from '../platform/duration-text.ts';
import { CrawlStatusAttribute, PagesCrawledAttribute, PagesQueuedAttribute } from '../platform/temporal/search-attribute-keys.ts';
import { BATCH_RETRY, CONTROL_RETRY } from './retry-policies.ts';
import { crawlWebhooksWorkflowId } from './webhooks/definitions.ts';
import { crawlWebhooksWorkflow } from './webhooks/workflow.ts';

/**
 * Control activities (plan, finish), with the line the Temporal UI shows for this call. They
 * heartbeat on a clock, so a killed worker's plan or finish is retried after the crawl's
 * heartbeat timeout, as its batches are.
 */
function controlActivities(summary: string, heartbeatTimeoutMs: number) {
  return proxyActivities<CrawlActivities>({
    // Planning fetches robots.txt and up to 20 sitemaps.
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout: heartbeatTimeoutMs,
    retry: CONTROL_RETRY,
    summary,
  });
}

const {
  crawlSettings,
  queueForBrowser,
  planCrawl: planLocally,
  openSingleScrape,
} = proxyLocalActivities<CrawlActivities>({
  startToCloseTimeout: '30 seconds',
  retry: CONTROL_RETRY,
});

/** Dispatch order on the browser queue: lower goes first (Temporal task-queue priority). */
const FIRST_BATCH_PRIORITY = 1;
const MORE_BATCHES_PRIORITY = 2;
/** A batch that gave its browser up to another crawl queues behind the crawl it yielded to. */
const AFTER_YIELD_PRIORITY = 4;

/** Least time between two progress upserts of a run whose settings do not say (legacy input). */
const PROGRESS_INTERVAL_MS = 10_000;

const NO_COUNTS: JobCounts = { completed: 0, total: 0, failed: 0, queued: 0, creditsUsed: 0 };

function scrapeActivity(
  settings: CrawlRunSettings | undefined,
  heartbeatTimeoutMs: number,
  priorityKey: number | undefined,
  waitForCancellation: boolean,
  summary: string,
) {
  return proxyActivities<CrawlActivities>({
    summary,
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
    site: undefined,
    discoversLinks: undefined,
    progressIntervalMs: undefined,
    singleScrape: undefined,
  };
}

function pages(n: number): string {
  return n === 1 ? '1 page' : `${n} pages`;
}

export async function crawlWorkflow(input: CrawlWorkflowInput): Promise<CrawlWorkflowResult> {
  const { crawlId } = input;
  let pagesHandled = input.pagesHandled ?? 0;
  let batchSeq = 0;
  let inFlight = 0;
  let failure: unknown;
  let outOfCredits = false;
  let lastBatchEnded = input.lastBatchEndedAt;
  let counts = input.counts ?? NO_COUNTS;
  // Until an activity reported them, the counts are placeholders, not worth an upsert.
  let countsKnown = input.counts !== undefined;
  let status: CrawlStatus = 'scraping';
  let phase: CrawlPhase = input.planned ? 'scraping' : 'planning';
  let delayMs: number | undefined;
  const progress = (): CrawlProgress => ({
    ...counts,
    status,
    phase,
    batchesInFlight: inFlight,
    batchesStarted: batchSeq,
    outOfCredits,
    ...(phase === 'delay' && { delayMs }),
  });
  // Answered from the first activation on, also while the settings are read.
  setHandler(progressQuery, progress);
  let batchesEnded = 0;
  // No command of its own: a run nobody asks keeps its history; one that ends first answers too.
  setHandler(
    scrapeSettledUpdate,
    async () => {
      await condition(() => batchesEnded > 0 || phase === 'ended');
      return pagesHandled > (input.pagesHandled ?? 0);
    },
    { unfinishedPolicy: HandlerUnfinishedPolicy.ABANDON },
  );
  const legacy = legacySettings(input);
  const batchKeyOf = (seq: number) => `${workflowInfo().runId}:${seq}`;
  // A single scrape its starter marked as such: settings, plan and its first batch's browser demand
  // in one local activity, so its first workflow task does one database visit before scheduling the
  // batch. A run started without the mark (or before this patch) reads its settings first.
  const askedFor = !legacy && input.singleScrape === true && !input.planned && patched('single-scrape-one-local-activity') ? batchKeyOf(0) : undefined;
  const opened = askedFor === undefined ? undefined : await openSingleScrape({ crawlId, holder: askedFor });
  const settings = legacy ? undefined : (opened?.settings ?? (await crawlSettings(crawlId)));
  const run = legacy ?? settings!;
  // Batches that claim URLs as they are found and wait for work: while one batch runs, every
  // parallel slot gets a batch, until one comes back having found nothing left to claim.
  const batchesWaitForWork = patched('batches-wait-for-work');
  const cancelWaitsForBatches = patched('cancel-waits-for-batches');
  // PagesCrawled and PagesQueued kept current while the crawl runs: upserts are commands.
  const progressUpserts = patched('progress-search-attributes');
  // A single scrape plans in a local activity, within its first workflow task (no activity task and
  // no workflow task of its own): its caller waits. Its scrape batch and its finish stay activities.
  const localPlan = !opened && run.singleScrape === true && patched('single-scrape-local-plan');
  const progressIntervalMs = run.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
  let upserted = input.counts && { completed: input.counts.completed, queued: input.counts.queued };
  let upsertedAt: number | undefined;
  const site = run.site ? ` of ${run.site}` : '';

  /** Shows the progress as current details, and upserts its search attributes when due. */
  const report = () => {
    setCurrentDetails(crawlDetails(progress()));
    if (!progressUpserts || !countsKnown || phase === 'ended') return;
    if (upserted?.completed === counts.completed && upserted.queued === counts.queued) return;
    if (upsertedAt !== undefined && Date.now() < upsertedAt + progressIntervalMs) return;
    upsertSearchAttributes([
      { key: PagesCrawledAttribute, value: counts.completed },
      { key: PagesQueuedAttribute, value: counts.queued },
    ]);
    upserted = { completed: counts.completed, queued: counts.queued };
    upsertedAt = Date.now();
  };
  /** The final search attributes; PagesQueued only from runs that keep it. */
  const upsertEnd = (ended: Exclude<CrawlStatus, 'scraping'>, done: { completed?: number; counts?: JobCounts }) => {
    if (done.counts) counts = done.counts;
    status = ended;
    phase = 'ended';
    upsertSearchAttributes([
      { key: CrawlStatusAttribute, value: ended },
      { key: PagesCrawledAttribute, value: pagesCrawled(done, pagesHandled) },
      ...(progressUpserts ? [{ key: PagesQueuedAttribute, value: counts.queued }] : []),
    ]);
    report();
  };
  report();
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
    let queued = run.parallelBatches * run.batchSize;
    if (!input.planned) {
      const planned = opened
        ? opened.planned
        : localPlan
          ? await planLocally(crawlId)
          : await controlActivities(
              run.discoversLinks === false ? 'plan: count the URLs to scrape' : `plan: robots.txt and sitemaps${site}`,
              run.heartbeatTimeoutMs,
            ).planCrawl(crawlId);
      queued = planned.queued;
      counts = planned.counts ?? { ...counts, queued };
      countsKnown = true;
      phase = 'scraping';
      report();
    }
    setHandler(urlsAddedSignal, (added) => {
      queued += added;
    });

    const launch = async () => {
      const batchKey = batchKeyOf(batchSeq++);
      const summary = `batch ${batchSeq}: up to ${pages(run.batchSize)}${site}`;
      queued = Math.max(0, queued - run.batchSize);
      let priorityKey: number | undefined;
      if (settings) {
        priorityKey = yielded ? AFTER_YIELD_PRIORITY : inFlight === 0 ? FIRST_BATCH_PRIORITY : MORE_BATCHES_PRIORITY;
        yielded = false;
        // Running batches of other crawls see this and may give their browser up (fair share).
        // A single scrape's first batch asked for it in openSingleScrape.
        if (batchKey !== askedFor) await queueForBrowser({ holder: batchKey, crawlId, teamId: settings.teamId });
      }
      // Counted only once scheduled: a launch that failed or was cancelled above has no
      // batch whose end would uncount it, and the cleanup below waits for inFlight === 0.
      inFlight++;
      scrapeActivity(
        settings,
        run.heartbeatTimeoutMs,
        priorityKey,
        cancelWaitsForBatches,
        summary,
      )({ crawlId, batchKey, size: run.batchSize, concurrency: run.pagesPerBatch })
        .then((r: ScrapeBatchResult) => {
          pagesHandled += r.succeeded + r.failed;
          queued = r.queued;
          // A result recorded before batches read the job's counts: the workflow's own sums.
          counts = r.counts ?? { ...counts, completed: counts.completed + r.succeeded, failed: counts.failed + r.failed, queued: r.queued };
          countsKnown = true;
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
          batchesEnded++;
          lastBatchEnded = Date.now();
          report();
        });
      report();
    };
    const workMayCome = () => batchesWaitForWork && inFlight > 0 && !starved;
    const canLaunch = () => inFlight < run.parallelBatches && (queued > 0 || workMayCome()) && !outOfCredits && !historyFull();

    for (;;) {
      await condition(() => failure !== undefined || inFlight === 0 || canLaunch());
      if (failure !== undefined) throw failure;
      if (canLaunch()) {
        // delay: seconds between scrapes, kept by a durable timer (visible in the UI).
        if (run.delayMs && lastBatchEnded !== undefined) {
          delayMs = Math.max(0, lastBatchEnded + run.delayMs - Date.now());
          if (delayMs > 0) phase = 'delay';
          report();
          await sleep(delayMs, { summary: `delay ${durationText(run.delayMs)} between pages` });
          phase = 'scraping';
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
          ...(progressUpserts && { counts }),
        });
      }
      phase = 'finishing';
      report();
      const done = await controlActivities('finish: completed', run.heartbeatTimeoutMs).finishCrawl({ crawlId, status: 'completed', outOfCredits });
      if (done.finished) {
        upsertEnd('completed', done);
        return { crawlId, status: 'completed', pagesHandled };
      }
      // Another batch's late snapshot hid work still in the frontier.
      queued = Math.max(done.queued, 1);
      phase = 'scraping';
      report();
    }
  } catch (err) {
    // continueAsNew ends this run by throwing; the crawl goes on in the next one.
    if (err instanceof ContinueAsNew) throw err;
    const ended = isCancellation(err) ? 'cancelled' : 'failed';
    phase = ended === 'cancelled' ? 'cancelling' : 'failing';
    report();
    await CancellationScope.nonCancellable(async () => {
      await condition(() => inFlight === 0);
      const done = await controlActivities(`finish: ${ended}`, run.heartbeatTimeoutMs).finishCrawl({
        crawlId,
        status: ended,
        error: ended === 'failed' ? failureReason(err) : undefined,
      });
      upsertEnd(ended, done);
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
