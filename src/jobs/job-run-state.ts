// What one run of the job workflow knows and decides: its counters, the batches in flight,
// what the progress query answers, when a batch may launch, when to wait out `delay`, when the
// run continues as new or finishes. Pure (types only from Temporal's side): the workflow wires
// these transitions to its commands, and they are tested without Temporal. Workflow code
// imports this file, so it imports nothing with side effects.
import {
  ADJUSTABLE_FIELDS,
  type BatchControl,
  type BatchProgress,
  type HostThrottle,
  type JobPhase,
  type JobProgress,
  type JobRunStatus,
  type JobWorkflowInput,
  type JobAdjustment,
  type JobCounts,
  type PauseState,
} from './definitions.ts';

/** Dispatch order on the browser queue: lower goes first (Temporal task-queue priority). */
export const FIRST_BATCH_PRIORITY = 1;
export const MORE_BATCHES_PRIORITY = 2;
/** A batch that gave its browser up to another crawl queues behind the crawl it yielded to. */
export const AFTER_YIELD_PRIORITY = 4;

/** Least time between two progress upserts of a run whose settings do not say (legacy input). */
export const PROGRESS_INTERVAL_MS = 10_000;

/** How long a job stays paused when its settings do not say (CRAWL_PAUSE_MAX_HOURS' default). */
export const PAUSE_MAX_MS = 72 * 3_600_000;

/** Who paused or resumed a job when the signal did not say. */
export const UNKNOWN_SENDER = 'unknown';
/** Longest `by` kept from a signal's input (it is shown in the UI and stored on the job's row). */
const MAX_SENDER_LENGTH = 200;

const NO_COUNTS: JobCounts = { completed: 0, total: 0, failed: 0, queued: 0, creditsUsed: 0 };

/** What the run's decisions need of its settings (worker-decided, or a legacy run's input). */
export interface JobRunLimits {
  parallelBatches: number;
  batchSize: number;
  historyEventBudget: number;
  delayMs?: number;
  progressIntervalMs?: number;
  /** Pages open at once in one batch (a batch that runs more is told to stop after an adjustment). */
  pagesPerBatch?: number;
  discoversLinks?: boolean;
  singleScrape?: boolean;
  /** A job paused longer than this is cancelled. */
  pauseMaxMs?: number;
}

/** The patches that change decisions (docs/patches.md), as this run answered them. */
export interface JobRunPatches {
  /** Batches claim URLs as they are found: while one runs, every parallel slot gets one. */
  batchesWaitForWork: boolean;
  /** PagesCrawled and PagesQueued are upserted while the crawl runs. */
  progressUpserts: boolean;
  /** Batches report the job's counts by signal while they run: upserts may come twice per interval, so none is more than one behind. */
  batchReports?: boolean;
}

/** The size of the run's history, as workflowInfo() tells it. */
export interface RunHistory {
  historyLength: number;
  continueAsNewSuggested: boolean;
}

/** A batch activity's result, as far as the run's decisions read it. */
export interface BatchOutcome {
  succeeded: number;
  failed: number;
  queued: number;
  counts?: JobCounts;
  starved?: boolean;
  outOfCredits: boolean;
  yielded?: boolean;
  recalled?: boolean;
}

/** What the main loop does once woken. */
export type JobStep = 'fail' | 'record-pause' | 'hold' | 'launch' | 'wait' | 'continue-as-new' | 'finish';

/** A batch in flight: the pages it opens at once and the job's options it read. */
interface BatchInFlight {
  concurrency: number;
  optionsVersion: number;
}

/** The search attributes a progress or end upsert carries. */
export interface PagesUpsert {
  completed: number;
  queued: number;
}

/** The job's own finish, as finishCrawl answers it. */
export interface FinishOutcome {
  completed?: number;
  counts?: JobCounts;
}

export class JobRunState {
  readonly crawlId: string;
  /** Pages handled by earlier runs, so the scrapeSettled update tells this run's own. */
  private readonly handledBefore: number;
  pagesHandled: number;
  batchSeq = 0;
  inFlight = 0;
  batchesEnded = 0;
  failure: unknown;
  outOfCredits = false;
  lastBatchEnded: number | undefined;
  counts: JobCounts;
  /** Until an activity reported them, the counts are placeholders, not worth an upsert. */
  countsKnown: boolean;
  status: JobRunStatus = 'scraping';
  phase: JobPhase;
  delayMs: number | undefined;
  /** URLs the run believes wait in the frontier (a hint for launching, not a count to report). */
  queued = 0;
  /** The last batch came back having found nothing to claim: no batch launches on the hope of work. */
  starved = false;
  /** The last batch gave its browser up to another crawl: the next one queues behind. */
  yielded = false;
  /** Set while paused (pause and resume signals). */
  paused: PauseState | undefined;
  /** The pause as the job's row last recorded it (null: not paused), or undefined before this run recorded anything. */
  private pauseRecorded: PauseState | null | undefined;
  /** Batches in flight by key, in launch order. */
  private readonly batches = new Map<string, BatchInFlight>();
  /** Bumped by an adjustment of the options batches read when they start (limit, maxDiscoveryDepth, delay). */
  private optionsVersion = 0;
  /** The latest host pause a batch reported (hostThrottled signals), and how many it reported. */
  throttled: (HostThrottle & { pauses: number }) | undefined;
  private upserted: PagesUpsert | undefined;
  private upsertedAt: number | undefined;
  private limits: JobRunLimits | undefined;
  private patches: JobRunPatches = { batchesWaitForWork: false, progressUpserts: false };

  constructor(
    input: JobWorkflowInput,
    private readonly history: () => RunHistory,
  ) {
    this.crawlId = input.crawlId;
    this.handledBefore = input.pagesHandled ?? 0;
    this.pagesHandled = this.handledBefore;
    this.lastBatchEnded = input.lastBatchEndedAt;
    this.counts = input.counts ?? NO_COUNTS;
    this.countsKnown = input.counts !== undefined;
    this.phase = input.planned ? 'scraping' : 'planning';
    this.upserted = input.counts && { completed: input.counts.completed, queued: input.counts.queued };
    this.paused = input.paused;
    this.pauseRecorded = input.paused;
  }

  /** The run's settings are known: until planning says otherwise, every parallel slot may get a batch. */
  useSettings(limits: JobRunLimits, patches: JobRunPatches): void {
    this.limits = limits;
    this.patches = patches;
    this.queued = limits.parallelBatches * limits.batchSize;
  }

  private get run(): JobRunLimits {
    if (!this.limits) throw new Error('job run state: settings not known yet');
    return this.limits;
  }

  get progressUpserts(): boolean {
    return this.patches.progressUpserts;
  }

  /** The `progress` query's answer. */
  progress(): JobProgress {
    const phase = this.paused && (this.phase === 'scraping' || this.phase === 'delay') ? 'paused' : this.phase;
    return {
      ...this.counts,
      status: this.status,
      phase,
      batchesInFlight: this.inFlight,
      batchesStarted: this.batchSeq,
      outOfCredits: this.outOfCredits,
      ...(phase === 'delay' && { delayMs: this.delayMs }),
      ...(this.paused && { paused: this.paused }),
      ...(this.throttled && { throttled: this.throttled }),
    };
  }

  /** A batch waits for a throttled host: the latest pause to end is the one to tell. */
  hostThrottled(t: HostThrottle): void {
    const pauses = (this.throttled?.pauses ?? 0) + 1;
    this.throttled = !this.throttled || t.until >= this.throttled.until ? { ...t, pauses } : { ...this.throttled, pauses };
  }

  /** The scrapeSettled update answers once the first batch ended or the run did. */
  firstBatchSettled(): boolean {
    return this.batchesEnded > 0 || this.phase === 'ended';
  }

  /** The scrapeSettled update's answer: this run stored or failed pages of its own. */
  pagesSettled(): boolean {
    return this.pagesHandled > this.handledBefore;
  }

  planned(result: { queued: number; counts?: JobCounts }): void {
    this.queued = result.queued;
    this.counts = result.counts ?? { ...this.counts, queued: result.queued };
    this.countsKnown = true;
    this.phase = 'scraping';
  }

  urlsAdded(added: number): void {
    this.queued += added;
  }

  historyFull(): boolean {
    const info = this.history();
    return info.continueAsNewSuggested || info.historyLength > this.run.historyEventBudget;
  }

  private workMayCome(): boolean {
    return this.patches.batchesWaitForWork && this.inFlight > 0 && !this.starved;
  }

  canLaunch(): boolean {
    return !this.paused && this.inFlight < this.run.parallelBatches && (this.queued > 0 || this.workMayCome()) && !this.outOfCredits && !this.historyFull();
  }

  /**
   * What the main loop waits for: a failure, a pause or resume to record, the last batch's end, or
   * room and work for another batch. A paused run waits for its batches to end, then holds.
   */
  mayAct(): boolean {
    return this.failure !== undefined || this.pauseRecordDue() || this.inFlight === 0 || this.canLaunch();
  }

  /** What to do once woken: checked in this order, so a failure wins over everything. */
  nextStep(): JobStep {
    if (this.failure !== undefined) return 'fail';
    if (this.pauseRecordDue()) return 'record-pause';
    if (this.paused) return this.inFlight === 0 ? 'hold' : 'wait';
    if (this.canLaunch()) return 'launch';
    if (this.inFlight > 0) return 'wait';
    return this.historyFull() ? 'continue-as-new' : 'finish';
  }

  /**
   * The wait before the next batch under `delay` (counted from the last batch's end), or
   * undefined when none applies. A wait of 0 is still a timer (histories have it).
   */
  delayBefore(now: number): number | undefined {
    const delay = this.run.delayMs;
    if (!delay || this.lastBatchEnded === undefined) return undefined;
    this.delayMs = Math.max(0, this.lastBatchEnded + delay - now);
    if (this.delayMs > 0) this.phase = 'delay';
    return this.delayMs;
  }

  delayOver(): void {
    this.phase = 'scraping';
  }

  /** The next batch's number (0-based, for its key) and the URLs it is expected to take off the queue. */
  takeBatch(): number {
    const seq = this.batchSeq++;
    this.queued = Math.max(0, this.queued - this.run.batchSize);
    return seq;
  }

  /** The next batch's priority on the browser queue: behind the crawl it yielded to, first, or one more. */
  takePriority(): number {
    const priority = this.yielded ? AFTER_YIELD_PRIORITY : this.inFlight === 0 ? FIRST_BATCH_PRIORITY : MORE_BATCHES_PRIORITY;
    this.yielded = false;
    return priority;
  }

  /** Counted only once scheduled: a launch that failed before has no batch whose end would uncount it. */
  batchScheduled(batchKey?: string, concurrency?: number): void {
    this.inFlight++;
    if (batchKey !== undefined && concurrency !== undefined) this.batches.set(batchKey, { concurrency, optionsVersion: this.optionsVersion });
  }

  batchSucceeded(r: BatchOutcome): void {
    this.pagesHandled += r.succeeded + r.failed;
    this.queued = r.queued;
    // A result recorded before batches read the job's counts: the workflow's own sums.
    this.counts = r.counts ?? {
      ...this.counts,
      completed: this.counts.completed + r.succeeded,
      failed: this.counts.failed + r.failed,
      queued: r.queued,
    };
    this.countsKnown = true;
    this.starved = r.starved === true && r.queued === 0;
    this.outOfCredits ||= r.outOfCredits;
    if (r.yielded) {
      this.yielded = true;
      // The batch stopped early for another crawl: what it left is still to do.
      this.queued = Math.max(this.queued, 1);
    }
    // Stopped by this workflow (a pause, an adjustment): what it left is still to do, for a batch launched under the settings now in force.
    if (r.recalled) this.queued = Math.max(this.queued, 1);
  }

  /** The first failure is the run's: it ends the crawl `failed` once the batches in flight stopped. */
  batchFailed(err: unknown): void {
    this.failure ??= err;
  }

  batchEnded(now: number, batchKey?: string): void {
    if (batchKey !== undefined) this.batches.delete(batchKey);
    this.inFlight--;
    this.batchesEnded++;
    this.lastBatchEnded = now;
  }

  /**
   * The PagesCrawled and PagesQueued values to upsert now, marked as upserted; undefined when the
   * run does not keep them, the counts are placeholders, nothing changed, or the last was too recent.
   */
  progressUpsertDue(now: number): PagesUpsert | undefined {
    if (!this.patches.progressUpserts || !this.countsKnown || this.phase === 'ended') return undefined;
    const { completed, queued } = this.counts;
    if (this.upserted?.completed === completed && this.upserted.queued === queued) return undefined;
    const every = this.limits?.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
    const interval = this.patches.batchReports ? every / 2 : every;
    if (this.upsertedAt !== undefined && now < this.upsertedAt + interval) return undefined;
    this.upserted = { completed, queued };
    this.upsertedAt = now;
    return this.upserted;
  }

  /** The input of the next run, which asks the worker for its settings (also when this one had them in its input). */
  continuedInput(): JobWorkflowInput {
    return {
      crawlId: this.crawlId,
      planned: true,
      pagesHandled: this.pagesHandled,
      lastBatchEndedAt: this.lastBatchEnded,
      ...(this.patches.progressUpserts && { counts: this.counts }),
      ...(this.paused && { paused: this.paused }),
    };
  }

  finishing(): void {
    this.phase = 'finishing';
  }

  /** finishCrawl found work left (another batch's late snapshot hid it): scraping goes on. */
  workLeft(queued: number): void {
    this.queued = Math.max(queued, 1);
    this.phase = 'scraping';
  }

  /** A running batch's report of the job's counts (ignored once the run is past scraping). */
  batchProgress(report: BatchProgress): void {
    if (this.phase === 'ended' || this.phase === 'planning') return;
    this.counts = report.counts;
    this.countsKnown = true;
  }

  /**
   * The `pause` signal: no batch launches and the batches in flight are told to stop. A second
   * pause keeps the first's time and sender; a job past scraping (finishing, cancelling, ended)
   * or a single scrape (its caller waits) is not paused. Answers whether it paused.
   */
  pause(input: unknown, now: number): boolean {
    if (this.paused || this.limits?.singleScrape || !['planning', 'scraping', 'delay'].includes(this.phase)) return false;
    this.paused = { sinceMs: now, by: senderOf(input) };
    return true;
  }

  /** The `resume` signal: batches launch again from the frontier as it was left. Answers whether it was paused. */
  resume(): boolean {
    if (!this.paused) return false;
    this.paused = undefined;
    // The batches that stopped left their URLs in the frontier: there is work until a batch finds none.
    this.queued = Math.max(this.queued, 1);
    this.starved = false;
    return true;
  }

  /** The pause or its end is not on the job's row yet (GET /v2/crawl/{id} reads it there). */
  pauseRecordDue(): boolean {
    return (this.paused ?? null) !== (this.pauseRecorded ?? null);
  }

  /** What to record on the job's row (null: not paused), marked as recorded. */
  takePauseRecord(): PauseState | null {
    this.pauseRecorded = this.paused ?? null;
    return this.pauseRecorded;
  }

  /** How long the paused run may still hold before it is cancelled (at least 1 ms: a timer of 0 would not wait). */
  pauseLeftMs(now: number): number {
    const since = this.paused?.sinceMs ?? now;
    return Math.max(1, since + (this.limits?.pauseMaxMs ?? PAUSE_MAX_MS) - now);
  }

  /**
   * The answer to a running batch's `batchControl` query: stop while paused, or when an adjustment
   * changed what it runs under (fewer pages at once, fewer batches, or options it read before); and
   * which batches run.
   */
  control(batchKey: string): BatchControl {
    // With every answer: a batch puts back in the queue what batches not in it claimed (FrontierSource).
    const running = [...this.batches.keys()];
    if (this.paused) return { stop: true, why: 'paused', running };
    const batch = this.batches.get(batchKey);
    if (!batch || !this.limits || this.phase === 'cancelling' || this.phase === 'failing') return { stop: false, running };
    const rank = running.indexOf(batchKey);
    const stale =
      batch.optionsVersion < this.optionsVersion ||
      (this.limits.pagesPerBatch !== undefined && batch.concurrency > this.limits.pagesPerBatch) ||
      rank >= this.limits.parallelBatches;
    return stale ? { stop: true, why: 'adjusted', running } : { stop: false, running };
  }

  /**
   * Why the `adjust` update is refused from what the run knows (its validator: no history event),
   * or undefined. The database checks the rest (stored pages, the team's limit) when it is applied.
   */
  adjustmentRefusal(input: unknown): string | undefined {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'an adjustment is a JSON object, e.g. {"limit": 5000}';
    const entries = Object.entries(input);
    const unknown = entries.map(([k]) => k).filter((k) => !(ADJUSTABLE_FIELDS as readonly string[]).includes(k));
    if (unknown.length > 0) return `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: only ${ADJUSTABLE_FIELDS.join(', ')} can be adjusted`;
    if (entries.length === 0) return `nothing to adjust: give one of ${ADJUSTABLE_FIELDS.join(', ')}`;
    const a = input as JobAdjustment;
    const badInt = (v: unknown, min: number) => v !== undefined && !(Number.isInteger(v) && (v as number) >= min);
    if (badInt(a.limit, 1)) return 'limit must be a positive integer';
    if (badInt(a.maxConcurrency, 1)) return 'maxConcurrency must be a positive integer';
    if (badInt(a.maxDiscoveryDepth, 0)) return 'maxDiscoveryDepth must be a non-negative integer';
    if (a.delay !== undefined && !(typeof a.delay === 'number' && a.delay >= 0 && a.delay <= 60))
      return 'delay must be a number of seconds from 0 (no delay) to 60';
    if (this.limits?.singleScrape) return 'a single scrape cannot be adjusted';
    if (this.phase === 'ended' || this.phase === 'finishing' || this.phase === 'cancelling' || this.phase === 'failing')
      return `the job is ${this.phase === 'ended' ? this.status : this.phase}: nothing left to adjust`;
    if (this.limits?.discoversLinks === false && (a.limit !== undefined || a.maxDiscoveryDepth !== undefined))
      return 'a batch scrape has no limit or maxDiscoveryDepth: it scrapes the URLs it was given';
    if (a.limit !== undefined && this.countsKnown && a.limit < this.counts.completed)
      return `limit ${a.limit} is below the ${this.counts.completed} pages already stored`;
    return undefined;
  }

  /** An adjustment was applied: the run goes on under its new settings, and batches that read the old options are told to stop. */
  adjusted(limits: JobRunLimits, optionsChanged: boolean): void {
    this.limits = limits;
    if (optionsChanged) this.optionsVersion++;
    // A raised limit or a lifted depth may have made work: batches launch until one finds none.
    this.queued = Math.max(this.queued, 1);
    this.starved = false;
  }

  /** A cancellation or failure: the run stops launching and waits for its batches. */
  stopping(ended: 'cancelled' | 'failed'): void {
    this.phase = ended === 'cancelled' ? 'cancelling' : 'failing';
  }

  /** The run ended: its final search attributes (PagesQueued only from runs that keep it). */
  ended(status: Exclude<JobRunStatus, 'scraping'>, done: FinishOutcome): { pagesCrawled: number; pagesQueued?: number } {
    if (done.counts) this.counts = done.counts;
    this.status = status;
    this.phase = 'ended';
    return { pagesCrawled: pagesCrawled(done, this.pagesHandled), ...(this.patches.progressUpserts && { pagesQueued: this.counts.queued }) };
  }
}

/**
 * PagesCrawled: the pages the crawl stored successfully, so the UI agrees with `completed` in
 * GET /v2/crawl/{id} (failed pages are left out there too). Counted by finishCrawl, because the
 * workflow's own count misses what its batches stored when a cancellation stopped them before
 * they returned. A finishCrawl result recorded before it counted has no number; such a history
 * upserted pagesHandled. No patch: replay checks the upsert, not the values it carries.
 */
function pagesCrawled(done: FinishOutcome, pagesHandled: number): number {
  return done.completed ?? pagesHandled;
}

/** Who sent a pause or resume: the signal input's `by`, or "unknown". */
export function senderOf(input: unknown): string {
  const by = (input as { by?: unknown } | undefined)?.by;
  if (typeof by !== 'string' || by.trim() === '') return UNKNOWN_SENDER;
  return by.trim().slice(0, MAX_SENDER_LENGTH);
}

/** The innermost message of an activity failure: what actually went wrong, for the status and the crawl.failed event. */
export function failureReason(err: unknown): string {
  let e = err as { message?: string; cause?: unknown } | undefined;
  while (e?.cause) e = e.cause as typeof e;
  return String(e?.message ?? err);
}
