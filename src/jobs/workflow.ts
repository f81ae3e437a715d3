// One job (a crawl, a batch scrape or a scrape) = one workflow of type jobWorkflow, with the id
// its row holds (`crawl-<id>`, `batch-scrape-<id>`, `scrape-<id>`; see definitions.ts). The frontier and pages live
// in PostgreSQL; this code only holds counters, keeps a sliding window of batch
// activities in flight, and continues as new before its history grows large.
// Control activities (plan, finish) run on this workflow's own task queue; scrape
// batches on the browser queue, where each waits for a worker's browser slot.
// What the run knows and decides lives in JobRunState (job-run-state.ts, tested
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
import { ApplicationFailure, HandlerUnfinishedPolicy, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { JobActivities, ScrapeBatchResult } from './activities.ts';
import {
  adjustUpdate,
  batchControlQuery,
  batchProgressSignal,
  hostThrottledSignal,
  pauseSignal,
  progressQuery,
  resumeSignal,
  scrapeSettledUpdate,
  urlsAddedSignal,
  type JobRunSettings,
  type JobRunStatus,
  type JobWorkflowInput,
  type JobWorkflowResult,
} from './definitions.ts';
import { JobRunState, failureReason, PAUSE_MAX_MS, type FinishOutcome } from './job-run-state.ts';
import { jobDetails } from './job-details.ts';
import { durationText } from '../platform/duration-text.ts';
import { CrawlStatusAttribute, PagesCrawledAttribute, PagesQueuedAttribute } from '../platform/temporal/search-attribute-keys.ts';
import { BATCH_RETRY, CONTROL_RETRY } from './retry-policies.ts';
import { jobWebhooksWorkflowId } from './webhooks/definitions.ts';
import type { jobWebhooksWorkflow } from './webhooks/workflow.ts';

/**
 * Control activities (plan, finish), with the line the Temporal UI shows for this call. They
 * heartbeat on a clock, so a killed worker's plan or finish is retried after the crawl's
 * heartbeat timeout, as its batches are.
 */
function controlActivities(summary: string, heartbeatTimeoutMs: number) {
  return proxyActivities<JobActivities>({
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
  recordPause,
  adjustJob,
} = proxyLocalActivities<JobActivities>({
  startToCloseTimeout: '30 seconds',
  retry: CONTROL_RETRY,
});

function scrapeActivity(
  settings: JobRunSettings | undefined,
  heartbeatTimeoutMs: number,
  priorityKey: number | undefined,
  waitForCancellation: boolean,
  summary: string,
) {
  return proxyActivities<JobActivities>({
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
async function startWebhookDeliveries(run: JobRun, legacy: { activityTaskQueue?: string; heartbeatTimeoutMs?: number }): Promise<void> {
  const { crawlId } = run.input;
  try {
    // Histories recorded before the rename started their deliveries as crawlWebhooksWorkflow (the
    // type is part of what a replay compares); workflows/index.ts registers both names.
    await startChild<typeof jobWebhooksWorkflow>(run.has('job-webhooks-type') ? 'jobWebhooksWorkflow' : 'crawlWebhooksWorkflow', {
      workflowId: jobWebhooksWorkflowId(workflowInfo().workflowId, crawlId),
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
function legacySettings(input: JobWorkflowInput) {
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
    pauseMaxMs: undefined,
  };
}

function pages(n: number): string {
  return n === 1 ? '1 page' : `${n} pages`;
}

/** How this run goes, decided at its start: its settings, what its first local activity did, and the patches it answered. */
interface JobRun {
  input: JobWorkflowInput;
  job: JobRunState;
  /** Absent in a run started before the worker decided its settings (legacy input). */
  settings: JobRunSettings | undefined;
  /** The settings, or a legacy run's input. */
  limits: JobRunSettings | NonNullable<ReturnType<typeof legacySettings>>;
  /** A single scrape's settings, plan and first batch's browser demand, read in one local activity. */
  opened: Awaited<ReturnType<JobActivities['openSingleScrape']>> | undefined;
  /** The key of the batch whose browser openSingleScrape asked for. */
  askedFor: string | undefined;
  localPlan: boolean;
  cancelWaitsForBatches: boolean;
  /** ` of <host>` for the summaries of its activities, or nothing. */
  site: string;
  /** Whether the run takes a patch's new behaviour: every one under the baseline, or its own marker. */
  has: (patchId: string) => boolean;
}

/**
 * One marker that stands for every patch of this workflow before it: a run that records it takes
 * each of their behaviours without a marker of its own. The SDK's core follows every marker with
 * an upsert of TemporalChangeVersion, so a single scrape's first workflow task recorded five
 * markers and five upserts (ten history events, five visibility writes), and now records one of
 * each. Runs without it (recorded before it) still ask each patch, in the order they always did.
 */
const JOB_PATCH_BASELINE = 'job-patch-baseline';

const batchKeyOf = (seq: number) => `${workflowInfo().runId}:${seq}`;

/** Reads the run's settings (with a single scrape's plan, when its starter marked it) and answers the run's patches, in their order. */
async function openRun(input: JobWorkflowInput, job: JobRunState): Promise<JobRun> {
  const { crawlId } = input;
  const legacy = legacySettings(input);
  const baseline = !legacy && patched(JOB_PATCH_BASELINE);
  const has = (patchId: string) => baseline || patched(patchId);
  // A single scrape its starter marked as such: settings, plan and its first batch's browser demand
  // in one local activity, so its first workflow task does one database visit before scheduling the
  // batch. A run started without the mark (or before this patch) reads its settings first.
  const askedFor = !legacy && input.singleScrape === true && !input.planned && has('single-scrape-one-local-activity') ? batchKeyOf(0) : undefined;
  const opened = askedFor === undefined ? undefined : await openSingleScrape({ crawlId, holder: askedFor });
  const settings = legacy ? undefined : (opened?.settings ?? (await crawlSettings(crawlId)));
  const limits = legacy ?? settings!;
  // Batches that claim URLs as they are found and wait for work: while one batch runs, every
  // parallel slot gets a batch, until one comes back having found nothing left to claim.
  const batchesWaitForWork = has('batches-wait-for-work');
  const cancelWaitsForBatches = has('cancel-waits-for-batches');
  // PagesCrawled and PagesQueued kept current while the crawl runs: upserts are commands.
  const progressUpserts = has('progress-search-attributes');
  // Batches report the job's counts by signal while they run: upserts may then come twice per interval.
  const batchReports = has('batch-progress-reports');
  // A single scrape plans in a local activity, within its first workflow task (no activity task and
  // no workflow task of its own): its caller waits. Its scrape batch and its finish stay activities.
  const localPlan = !opened && limits.singleScrape === true && has('single-scrape-local-plan');
  job.useSettings(limits, { batchesWaitForWork, progressUpserts, batchReports });
  return { input, job, settings, limits, opened, askedFor, localPlan, cancelWaitsForBatches, site: limits.site ? ` of ${limits.site}` : '', has };
}

/** Shows the progress as current details, and upserts its search attributes when due. */
function report({ job }: JobRun): void {
  setCurrentDetails(jobDetails(job.progress()));
  const due = job.progressUpsertDue(Date.now());
  if (!due) return;
  upsertSearchAttributes([
    { key: PagesCrawledAttribute, value: due.completed },
    { key: PagesQueuedAttribute, value: due.queued },
  ]);
}

/** The final search attributes. */
function upsertEnd(run: JobRun, ended: Exclude<JobRunStatus, 'scraping'>, done: FinishOutcome): void {
  const { pagesCrawled, pagesQueued } = run.job.ended(ended, done);
  upsertSearchAttributes([
    { key: CrawlStatusAttribute, value: ended },
    { key: PagesCrawledAttribute, value: pagesCrawled },
    ...(pagesQueued !== undefined ? [{ key: PagesQueuedAttribute, value: pagesQueued }] : []),
  ]);
  report(run);
}

/** A first run's start: its status attribute, its webhook deliveries, and its plan (robots.txt, sitemaps, the first URLs). */
async function startJob(run: JobRun): Promise<void> {
  const { input, settings, limits, opened, job } = run;
  if (input.planned) return;
  upsertSearchAttributes([{ key: CrawlStatusAttribute, value: 'scraping' }]);
  if (settings?.hasWebhook) await startWebhookDeliveries(run, {});
  else if (input.webhookTaskQueue)
    await startWebhookDeliveries(run, { activityTaskQueue: input.webhookTaskQueue, heartbeatTimeoutMs: input.heartbeatTimeoutMs });
  const planned = opened
    ? opened.planned
    : run.localPlan
      ? await planLocally(input.crawlId)
      : await controlActivities(
          limits.discoversLinks === false ? 'plan: count the URLs to scrape' : `plan: robots.txt and sitemaps${run.site}`,
          limits.heartbeatTimeoutMs,
        ).planCrawl(input.crawlId);
  job.planned(planned);
  report(run);
}

/** The durable timer of `delay` between pages (visible in the UI). */
function delayTimer(run: JobRun, ms: number): Promise<void> {
  return sleep(ms, { summary: `delay ${durationText(run.limits.delayMs!)} between pages` });
}

/** Schedules the next batch; its end is counted in the state, which wakes the main loop. */
async function launch(run: JobRun): Promise<void> {
  const { job, settings, limits } = run;
  const seq = job.takeBatch();
  const batchKey = batchKeyOf(seq);
  const summary = `batch ${seq + 1}: up to ${pages(limits.batchSize)}${run.site}`;
  let priorityKey: number | undefined;
  if (settings) {
    priorityKey = job.takePriority();
    // Running batches of other crawls see this and may give their browser up (fair share).
    // A single scrape's first batch asked for it in openSingleScrape.
    if (batchKey !== run.askedFor) await queueForBrowser({ holder: batchKey, crawlId: job.crawlId, teamId: settings.teamId });
  }
  // Counted only once scheduled: a launch that failed or was cancelled above has no
  // batch whose end would uncount it, and the cleanup waits for no batch in flight.
  job.batchScheduled(batchKey, limits.pagesPerBatch);
  scrapeActivity(
    settings,
    limits.heartbeatTimeoutMs,
    priorityKey,
    run.cancelWaitsForBatches,
    summary,
  )({ crawlId: job.crawlId, batchKey, size: limits.batchSize, concurrency: limits.pagesPerBatch })
    .then((r: ScrapeBatchResult) => job.batchSucceeded(r))
    .catch((err) => job.batchFailed(err))
    .finally(() => {
      job.batchEnded(Date.now(), batchKey);
      report(run);
    });
  report(run);
}

/** The job's finish once no batch has work: the result when it finished, undefined when it found work left. */
async function finish(run: JobRun): Promise<JobWorkflowResult | undefined> {
  const { job } = run;
  job.finishing();
  report(run);
  const done = await controlActivities('finish: completed', run.limits.heartbeatTimeoutMs).finishCrawl({
    crawlId: job.crawlId,
    status: 'completed',
    outOfCredits: job.outOfCredits,
  });
  if (done.finished) {
    upsertEnd(run, 'completed', done);
    return { crawlId: job.crawlId, status: 'completed', pagesHandled: job.pagesHandled };
  }
  // Another batch's late snapshot hid work still in the frontier.
  job.workLeft(done.queued);
  report(run);
  return undefined;
}

/** A cancelled or failed run: waits for its batches to stop, records the end, and ends as it was ended. */
async function stop(run: JobRun, err: unknown): Promise<never> {
  // continueAsNew ends this run by throwing; the crawl goes on in the next one.
  if (err instanceof ContinueAsNew) throw err;
  const { job } = run;
  const ended = isCancellation(err) ? 'cancelled' : 'failed';
  job.stopping(ended);
  report(run);
  await CancellationScope.nonCancellable(async () => {
    await condition(() => job.inFlight === 0);
    const done = await controlActivities(`finish: ${ended}`, run.limits.heartbeatTimeoutMs).finishCrawl({
      crawlId: job.crawlId,
      status: ended,
      error: ended === 'failed' ? failureReason(err) : undefined,
    });
    upsertEnd(run, ended, done);
  });
  throw err;
}

/** Pause, resume, adjust, and the running batches' reports and questions: each only changes the state, which wakes the main loop. */
function setControlHandlers(run: JobRun): void {
  const { job } = run;
  setHandler(pauseSignal, (input) => {
    if (job.pause(input, Date.now())) report(run);
  });
  setHandler(resumeSignal, () => {
    if (job.resume()) report(run);
  });
  setHandler(batchProgressSignal, (progress) => {
    job.batchProgress(progress);
    report(run);
  });
  setHandler(batchControlQuery, (batchKey) => job.control(batchKey));
  setHandler(
    adjustUpdate,
    async (adjustment) => {
      let applied: Awaited<ReturnType<typeof adjustJob>>;
      try {
        applied = await adjustJob({ crawlId: job.crawlId, adjustment });
      } catch (err) {
        throw ApplicationFailure.create({ message: failureReason(err), type: 'AdjustmentRefused', nonRetryable: true });
      }
      run.settings = applied.settings;
      run.limits = applied.settings;
      job.adjusted(applied.settings, applied.optionsChanged);
      report(run);
      return applied.inForce;
    },
    {
      validator: (adjustment) => {
        const refusal = run.settings ? job.adjustmentRefusal(adjustment) : 'this run started before adjustments existed';
        if (refusal) throw new Error(refusal);
      },
    },
  );
}

/**
 * Holds a paused run (no batch in flight) until it is resumed or cancelled. Once paused for
 * CRAWL_PAUSE_MAX_HOURS it ends as cancelled, with why in the job's error: the result; undefined
 * while it goes on.
 */
async function holdWhilePaused(run: JobRun): Promise<JobWorkflowResult | undefined> {
  const { job } = run;
  const woken = await condition(() => !job.paused || job.failure !== undefined || job.pauseRecordDue(), job.pauseLeftMs(Date.now()));
  if (woken) return undefined;
  job.stopping('cancelled');
  report(run);
  const done = await controlActivities('finish: cancelled (paused too long)', run.limits.heartbeatTimeoutMs).finishCrawl({
    crawlId: job.crawlId,
    status: 'cancelled',
    error: `paused for longer than ${durationText(run.limits.pauseMaxMs ?? PAUSE_MAX_MS)} (CRAWL_PAUSE_MAX_HOURS) without a resume`,
  });
  upsertEnd(run, 'cancelled', done);
  return { crawlId: job.crawlId, status: 'cancelled', pagesHandled: job.pagesHandled };
}

// The main loop awaits the state's conditions and each step's promise directly, as it did when it
// was one function: what else resolves in the same workflow task (a batch's end) then issues its
// commands in the same order relative to the loop's, which replay compares.
export async function jobWorkflow(input: JobWorkflowInput): Promise<JobWorkflowResult> {
  const job = new JobRunState(input, workflowInfo);
  // Answered from the first activation on, also while the settings are read.
  setHandler(progressQuery, () => job.progress());
  // No command of its own: a run nobody asks keeps its history; one that ends first answers too.
  setHandler(
    scrapeSettledUpdate,
    async () => {
      await condition(() => job.firstBatchSettled());
      return job.pagesSettled();
    },
    { unfinishedPolicy: HandlerUnfinishedPolicy.ABANDON },
  );
  // Only the details change: no command, so a signal changes nothing a replay compares.
  setHandler(hostThrottledSignal, (t) => {
    job.hostThrottled(t);
    setCurrentDetails(jobDetails(job.progress()));
  });
  const run = await openRun(input, job);
  report(run);
  try {
    await startJob(run);
    setHandler(urlsAddedSignal, (added) => job.urlsAdded(added));
    setControlHandlers(run);
    for (;;) {
      await condition(() => job.mayAct());
      const step = job.nextStep();
      if (step === 'fail') throw job.failure;
      if (step === 'record-pause') {
        await recordPause({ crawlId: job.crawlId, paused: job.takePauseRecord() });
        continue;
      }
      if (step === 'hold') {
        const expired = await holdWhilePaused(run);
        if (expired) return expired;
        continue;
      }
      if (step === 'launch') {
        const wait = job.delayBefore(Date.now());
        if (wait !== undefined) {
          report(run);
          await delayTimer(run, wait);
          job.delayOver();
          // Paused during the wait: the batch is not launched.
          if (job.paused) continue;
        }
        await launch(run);
        continue;
      }
      if (step === 'wait') continue;
      if (step === 'continue-as-new') await continueAsNew<typeof jobWorkflow>(job.continuedInput());
      const result = await finish(run);
      if (result) return result;
    }
  } catch (err) {
    return await stop(run, err);
  }
}
