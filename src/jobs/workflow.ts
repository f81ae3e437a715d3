// One crawl = one workflow (id `crawl-<crawlId>`). The frontier and pages live
// in PostgreSQL; this code only holds counters, keeps a sliding window of batch
// activities in flight, and continues as new before its history grows large.
// Control activities (plan, finish) run on this workflow's own task queue; scrape
// batches on the browser queue, where each waits for a worker's browser slot.
// What the run knows and decides lives in CrawlRunState (crawl-run-state.ts, tested
// without Temporal); this file wires its transitions to Temporal's commands.
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
  hostThrottledSignal,
  progressQuery,
  scrapeSettledUpdate,
  urlsAddedSignal,
  type CrawlRunSettings,
  type CrawlStatus,
  type CrawlWorkflowInput,
  type CrawlWorkflowResult,
} from './definitions.ts';
import { CrawlRunState, failureReason, type FinishOutcome } from './crawl-run-state.ts';
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

/** How this run goes, decided at its start: its settings, what its first local activity did, and the patches it answered. */
interface CrawlRun {
  input: CrawlWorkflowInput;
  crawl: CrawlRunState;
  /** Absent in a run started before the worker decided its settings (legacy input). */
  settings: CrawlRunSettings | undefined;
  /** The settings, or a legacy run's input. */
  limits: CrawlRunSettings | NonNullable<ReturnType<typeof legacySettings>>;
  /** A single scrape's settings, plan and first batch's browser demand, read in one local activity. */
  opened: Awaited<ReturnType<CrawlActivities['openSingleScrape']>> | undefined;
  /** The key of the batch whose browser openSingleScrape asked for. */
  askedFor: string | undefined;
  localPlan: boolean;
  cancelWaitsForBatches: boolean;
  /** ` of <host>` for the summaries of its activities, or nothing. */
  site: string;
}

const batchKeyOf = (seq: number) => `${workflowInfo().runId}:${seq}`;

/** Reads the run's settings (with a single scrape's plan, when its starter marked it) and answers the run's patches, in their order. */
async function openRun(input: CrawlWorkflowInput, crawl: CrawlRunState): Promise<CrawlRun> {
  const { crawlId } = input;
  const legacy = legacySettings(input);
  // A single scrape its starter marked as such: settings, plan and its first batch's browser demand
  // in one local activity, so its first workflow task does one database visit before scheduling the
  // batch. A run started without the mark (or before this patch) reads its settings first.
  const askedFor = !legacy && input.singleScrape === true && !input.planned && patched('single-scrape-one-local-activity') ? batchKeyOf(0) : undefined;
  const opened = askedFor === undefined ? undefined : await openSingleScrape({ crawlId, holder: askedFor });
  const settings = legacy ? undefined : (opened?.settings ?? (await crawlSettings(crawlId)));
  const limits = legacy ?? settings!;
  // Batches that claim URLs as they are found and wait for work: while one batch runs, every
  // parallel slot gets a batch, until one comes back having found nothing left to claim.
  const batchesWaitForWork = patched('batches-wait-for-work');
  const cancelWaitsForBatches = patched('cancel-waits-for-batches');
  // PagesCrawled and PagesQueued kept current while the crawl runs: upserts are commands.
  const progressUpserts = patched('progress-search-attributes');
  // A single scrape plans in a local activity, within its first workflow task (no activity task and
  // no workflow task of its own): its caller waits. Its scrape batch and its finish stay activities.
  const localPlan = !opened && limits.singleScrape === true && patched('single-scrape-local-plan');
  crawl.useSettings(limits, { batchesWaitForWork, progressUpserts });
  return { input, crawl, settings, limits, opened, askedFor, localPlan, cancelWaitsForBatches, site: limits.site ? ` of ${limits.site}` : '' };
}

/** Shows the progress as current details, and upserts its search attributes when due. */
function report({ crawl }: CrawlRun): void {
  setCurrentDetails(crawlDetails(crawl.progress()));
  const due = crawl.progressUpsertDue(Date.now());
  if (!due) return;
  upsertSearchAttributes([
    { key: PagesCrawledAttribute, value: due.completed },
    { key: PagesQueuedAttribute, value: due.queued },
  ]);
}

/** The final search attributes. */
function upsertEnd(run: CrawlRun, ended: Exclude<CrawlStatus, 'scraping'>, done: FinishOutcome): void {
  const { pagesCrawled, pagesQueued } = run.crawl.ended(ended, done);
  upsertSearchAttributes([
    { key: CrawlStatusAttribute, value: ended },
    { key: PagesCrawledAttribute, value: pagesCrawled },
    ...(pagesQueued !== undefined ? [{ key: PagesQueuedAttribute, value: pagesQueued }] : []),
  ]);
  report(run);
}

/** A first run's start: its status attribute, its webhook deliveries, and its plan (robots.txt, sitemaps, the first URLs). */
async function startCrawl(run: CrawlRun): Promise<void> {
  const { input, settings, limits, opened, crawl } = run;
  if (input.planned) return;
  upsertSearchAttributes([{ key: CrawlStatusAttribute, value: 'scraping' }]);
  if (settings?.hasWebhook) await startWebhookDeliveries(input.crawlId, {});
  else if (input.webhookTaskQueue)
    await startWebhookDeliveries(input.crawlId, { activityTaskQueue: input.webhookTaskQueue, heartbeatTimeoutMs: input.heartbeatTimeoutMs });
  const planned = opened
    ? opened.planned
    : run.localPlan
      ? await planLocally(input.crawlId)
      : await controlActivities(
          limits.discoversLinks === false ? 'plan: count the URLs to scrape' : `plan: robots.txt and sitemaps${run.site}`,
          limits.heartbeatTimeoutMs,
        ).planCrawl(input.crawlId);
  crawl.planned(planned);
  report(run);
}

/** The durable timer of `delay` between pages (visible in the UI). */
function delayTimer(run: CrawlRun, ms: number): Promise<void> {
  return sleep(ms, { summary: `delay ${durationText(run.limits.delayMs!)} between pages` });
}

/** Schedules the next batch; its end is counted in the state, which wakes the main loop. */
async function launch(run: CrawlRun): Promise<void> {
  const { crawl, settings, limits } = run;
  const seq = crawl.takeBatch();
  const batchKey = batchKeyOf(seq);
  const summary = `batch ${seq + 1}: up to ${pages(limits.batchSize)}${run.site}`;
  let priorityKey: number | undefined;
  if (settings) {
    priorityKey = crawl.takePriority();
    // Running batches of other crawls see this and may give their browser up (fair share).
    // A single scrape's first batch asked for it in openSingleScrape.
    if (batchKey !== run.askedFor) await queueForBrowser({ holder: batchKey, crawlId: crawl.crawlId, teamId: settings.teamId });
  }
  // Counted only once scheduled: a launch that failed or was cancelled above has no
  // batch whose end would uncount it, and the cleanup waits for no batch in flight.
  crawl.batchScheduled();
  scrapeActivity(
    settings,
    limits.heartbeatTimeoutMs,
    priorityKey,
    run.cancelWaitsForBatches,
    summary,
  )({ crawlId: crawl.crawlId, batchKey, size: limits.batchSize, concurrency: limits.pagesPerBatch })
    .then((r: ScrapeBatchResult) => crawl.batchSucceeded(r))
    .catch((err) => crawl.batchFailed(err))
    .finally(() => {
      crawl.batchEnded(Date.now());
      report(run);
    });
  report(run);
}

/** The job's finish once no batch has work: the result when it finished, undefined when it found work left. */
async function finish(run: CrawlRun): Promise<CrawlWorkflowResult | undefined> {
  const { crawl } = run;
  crawl.finishing();
  report(run);
  const done = await controlActivities('finish: completed', run.limits.heartbeatTimeoutMs).finishCrawl({
    crawlId: crawl.crawlId,
    status: 'completed',
    outOfCredits: crawl.outOfCredits,
  });
  if (done.finished) {
    upsertEnd(run, 'completed', done);
    return { crawlId: crawl.crawlId, status: 'completed', pagesHandled: crawl.pagesHandled };
  }
  // Another batch's late snapshot hid work still in the frontier.
  crawl.workLeft(done.queued);
  report(run);
  return undefined;
}

/** A cancelled or failed run: waits for its batches to stop, records the end, and ends as it was ended. */
async function stop(run: CrawlRun, err: unknown): Promise<never> {
  // continueAsNew ends this run by throwing; the crawl goes on in the next one.
  if (err instanceof ContinueAsNew) throw err;
  const { crawl } = run;
  const ended = isCancellation(err) ? 'cancelled' : 'failed';
  crawl.stopping(ended);
  report(run);
  await CancellationScope.nonCancellable(async () => {
    await condition(() => crawl.inFlight === 0);
    const done = await controlActivities(`finish: ${ended}`, run.limits.heartbeatTimeoutMs).finishCrawl({
      crawlId: crawl.crawlId,
      status: ended,
      error: ended === 'failed' ? failureReason(err) : undefined,
    });
    upsertEnd(run, ended, done);
  });
  throw err;
}

// The main loop awaits the state's conditions and each step's promise directly, as it did when it
// was one function: what else resolves in the same workflow task (a batch's end) then issues its
// commands in the same order relative to the loop's, which replay compares.
export async function crawlWorkflow(input: CrawlWorkflowInput): Promise<CrawlWorkflowResult> {
  const crawl = new CrawlRunState(input, workflowInfo);
  // Answered from the first activation on, also while the settings are read.
  setHandler(progressQuery, () => crawl.progress());
  // No command of its own: a run nobody asks keeps its history; one that ends first answers too.
  setHandler(
    scrapeSettledUpdate,
    async () => {
      await condition(() => crawl.firstBatchSettled());
      return crawl.pagesSettled();
    },
    { unfinishedPolicy: HandlerUnfinishedPolicy.ABANDON },
  );
  // Only the details change: no command, so a signal changes nothing a replay compares.
  setHandler(hostThrottledSignal, (t) => {
    crawl.hostThrottled(t);
    setCurrentDetails(crawlDetails(crawl.progress()));
  });
  const run = await openRun(input, crawl);
  report(run);
  try {
    await startCrawl(run);
    setHandler(urlsAddedSignal, (added) => crawl.urlsAdded(added));
    for (;;) {
      await condition(() => crawl.mayAct());
      const step = crawl.nextStep();
      if (step === 'fail') throw crawl.failure;
      if (step === 'launch') {
        const wait = crawl.delayBefore(Date.now());
        if (wait !== undefined) {
          report(run);
          await delayTimer(run, wait);
          crawl.delayOver();
        }
        await launch(run);
        continue;
      }
      if (step === 'wait') continue;
      if (step === 'continue-as-new') await continueAsNew<typeof crawlWorkflow>(crawl.continuedInput());
      const result = await finish(run);
      if (result) return result;
    }
  } catch (err) {
    return await stop(run, err);
  }
}
