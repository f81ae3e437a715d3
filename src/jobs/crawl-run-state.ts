// What one run of the crawl workflow knows and decides: its counters, the batches in flight,
// what the progress query answers, when a batch may launch, when to wait out `delay`, when the
// run continues as new or finishes. Pure (types only from Temporal's side): the workflow wires
// these transitions to its commands, and they are tested without Temporal. Workflow code
// imports this file, so it imports nothing with side effects.
import type { CrawlPhase, CrawlProgress, CrawlStatus, CrawlWorkflowInput, HostThrottle, JobCounts } from './definitions.ts';

/** Dispatch order on the browser queue: lower goes first (Temporal task-queue priority). */
export const FIRST_BATCH_PRIORITY = 1;
export const MORE_BATCHES_PRIORITY = 2;
/** A batch that gave its browser up to another crawl queues behind the crawl it yielded to. */
export const AFTER_YIELD_PRIORITY = 4;

/** Least time between two progress upserts of a run whose settings do not say (legacy input). */
export const PROGRESS_INTERVAL_MS = 10_000;

const NO_COUNTS: JobCounts = { completed: 0, total: 0, failed: 0, queued: 0, creditsUsed: 0 };

/** What the run's decisions need of its settings (worker-decided, or a legacy run's input). */
export interface CrawlRunLimits {
  parallelBatches: number;
  batchSize: number;
  historyEventBudget: number;
  delayMs?: number;
  progressIntervalMs?: number;
}

/** The patches that change decisions (docs/patches.md), as this run answered them. */
export interface CrawlRunPatches {
  /** Batches claim URLs as they are found: while one runs, every parallel slot gets one. */
  batchesWaitForWork: boolean;
  /** PagesCrawled and PagesQueued are upserted while the crawl runs. */
  progressUpserts: boolean;
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
}

/** What the main loop does once woken. */
export type CrawlStep = 'fail' | 'launch' | 'wait' | 'continue-as-new' | 'finish';

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

export class CrawlRunState {
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
  status: CrawlStatus = 'scraping';
  phase: CrawlPhase;
  delayMs: number | undefined;
  /** URLs the run believes wait in the frontier (a hint for launching, not a count to report). */
  queued = 0;
  /** The last batch came back having found nothing to claim: no batch launches on the hope of work. */
  starved = false;
  /** The last batch gave its browser up to another crawl: the next one queues behind. */
  yielded = false;
  /** The latest host pause a batch reported (hostThrottled signals), and how many it reported. */
  throttled: (HostThrottle & { pauses: number }) | undefined;
  private upserted: PagesUpsert | undefined;
  private upsertedAt: number | undefined;
  private limits: CrawlRunLimits | undefined;
  private patches: CrawlRunPatches = { batchesWaitForWork: false, progressUpserts: false };

  constructor(
    input: CrawlWorkflowInput,
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
  }

  /** The run's settings are known: until planning says otherwise, every parallel slot may get a batch. */
  useSettings(limits: CrawlRunLimits, patches: CrawlRunPatches): void {
    this.limits = limits;
    this.patches = patches;
    this.queued = limits.parallelBatches * limits.batchSize;
  }

  private get run(): CrawlRunLimits {
    if (!this.limits) throw new Error('crawl run state: settings not known yet');
    return this.limits;
  }

  get progressUpserts(): boolean {
    return this.patches.progressUpserts;
  }

  /** The `progress` query's answer. */
  progress(): CrawlProgress {
    return {
      ...this.counts,
      status: this.status,
      phase: this.phase,
      batchesInFlight: this.inFlight,
      batchesStarted: this.batchSeq,
      outOfCredits: this.outOfCredits,
      ...(this.phase === 'delay' && { delayMs: this.delayMs }),
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
    return this.inFlight < this.run.parallelBatches && (this.queued > 0 || this.workMayCome()) && !this.outOfCredits && !this.historyFull();
  }

  /** What the main loop waits for: a failure, the last batch's end, or room and work for another batch. */
  mayAct(): boolean {
    return this.failure !== undefined || this.inFlight === 0 || this.canLaunch();
  }

  /** What to do once woken: checked in this order, so a failure wins over everything. */
  nextStep(): CrawlStep {
    if (this.failure !== undefined) return 'fail';
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
  batchScheduled(): void {
    this.inFlight++;
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
  }

  /** The first failure is the run's: it ends the crawl `failed` once the batches in flight stopped. */
  batchFailed(err: unknown): void {
    this.failure ??= err;
  }

  batchEnded(now: number): void {
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
    const interval = this.limits?.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
    if (this.upsertedAt !== undefined && now < this.upsertedAt + interval) return undefined;
    this.upserted = { completed, queued };
    this.upsertedAt = now;
    return this.upserted;
  }

  /** The input of the next run, which asks the worker for its settings (also when this one had them in its input). */
  continuedInput(): CrawlWorkflowInput {
    return {
      crawlId: this.crawlId,
      planned: true,
      pagesHandled: this.pagesHandled,
      lastBatchEndedAt: this.lastBatchEnded,
      ...(this.patches.progressUpserts && { counts: this.counts }),
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

  /** A cancellation or failure: the run stops launching and waits for its batches. */
  stopping(ended: 'cancelled' | 'failed'): void {
    this.phase = ended === 'cancelled' ? 'cancelling' : 'failing';
  }

  /** The run ended: its final search attributes (PagesQueued only from runs that keep it). */
  ended(status: Exclude<CrawlStatus, 'scraping'>, done: FinishOutcome): { pagesCrawled: number; pagesQueued?: number } {
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

/** The innermost message of an activity failure: what actually went wrong, for the status and the crawl.failed event. */
export function failureReason(err: unknown): string {
  let e = err as { message?: string; cause?: unknown } | undefined;
  while (e?.cause) e = e.cause as typeof e;
  return String(e?.message ?? err);
}
