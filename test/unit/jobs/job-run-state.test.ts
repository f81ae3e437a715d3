// The crawl workflow's decisions without Temporal: when a batch launches, what the progress
// query answers, when the run waits, finishes, fails or continues as new, and which progress
// upserts are due.
import { describe, expect, it } from 'vitest';
import {
  AFTER_YIELD_PRIORITY,
  type BatchOutcome,
  JobRunState,
  type JobRunLimits,
  failureReason,
  FIRST_BATCH_PRIORITY,
  MORE_BATCHES_PRIORITY,
  type RunHistory,
} from '../../../src/jobs/job-run-state.ts';
import type { JobWorkflowInput, JobCounts } from '../../../src/jobs/definitions.ts';

const LIMITS: JobRunLimits = { parallelBatches: 2, batchSize: 10, historyEventBudget: 3_000 };
const PATCHES = { batchesWaitForWork: true, progressUpserts: true };

function crawlRun(options: { input?: Partial<JobWorkflowInput>; limits?: Partial<JobRunLimits>; patches?: Partial<typeof PATCHES> } = {}) {
  const history: RunHistory = { historyLength: 10, continueAsNewSuggested: false };
  const crawl = new JobRunState({ crawlId: 'c1', ...options.input }, () => history);
  crawl.useSettings({ ...LIMITS, ...options.limits }, { ...PATCHES, ...options.patches });
  return { crawl, history };
}

const counts = (over: Partial<JobCounts> = {}): JobCounts => ({ completed: 0, total: 0, failed: 0, queued: 0, creditsUsed: 0, ...over });
const batch = (over: Partial<BatchOutcome> = {}): BatchOutcome => ({ succeeded: 1, failed: 0, queued: 0, outOfCredits: false, ...over });

/** Launches a batch as the workflow does: takes it off the queue, then counts it as scheduled. */
function launch(crawl: JobRunState): number {
  const seq = crawl.takeBatch();
  crawl.batchScheduled();
  return seq;
}

describe('JobRunState: launching batches', () => {
  it('fills every parallel slot from the plan, then waits for a slot', () => {
    const { crawl } = crawlRun();
    crawl.planned({ queued: 25, counts: counts({ queued: 25, total: 25 }) });
    expect(crawl.nextStep()).toBe('launch');
    expect(launch(crawl)).toBe(0);
    expect(launch(crawl)).toBe(1);
    expect(crawl.canLaunch()).toBe(false);
    expect(crawl.mayAct()).toBe(false);
    crawl.batchSucceeded(batch({ succeeded: 10, queued: 5 }));
    crawl.batchEnded(1_000);
    expect(crawl.nextStep()).toBe('launch');
    expect(crawl.progress()).toMatchObject({ batchesStarted: 2, batchesInFlight: 1, completed: 10, queued: 5 });
  });

  it('gives a free slot a batch while one runs that may find links, until a batch comes back starved', () => {
    const { crawl } = crawlRun();
    crawl.planned({ queued: 1 });
    launch(crawl);
    // One URL planned, one batch took it: the second slot waits for what the first finds.
    expect(crawl.queued).toBe(0);
    expect(crawl.nextStep()).toBe('launch');
    launch(crawl);
    crawl.batchSucceeded(batch({ queued: 0, starved: true }));
    crawl.batchEnded(1_000);
    expect(crawl.nextStep()).toBe('wait');
    crawl.batchSucceeded(batch({ queued: 0 }));
    crawl.batchEnded(2_000);
    expect(crawl.nextStep()).toBe('finish');
  });

  it('in a run without batches that wait for work, launches only for queued URLs', () => {
    const { crawl } = crawlRun({ patches: { batchesWaitForWork: false } });
    crawl.planned({ queued: 1 });
    launch(crawl);
    expect(crawl.nextStep()).toBe('wait');
  });

  it('launches for URLs a batch scrape was given later', () => {
    const { crawl } = crawlRun();
    crawl.planned({ queued: 0 });
    expect(crawl.nextStep()).toBe('finish');
    crawl.urlsAdded(3);
    expect(crawl.nextStep()).toBe('launch');
  });

  it('stops launching once a batch ran out of credits, and finishes after the batches in flight', () => {
    const { crawl } = crawlRun();
    crawl.planned({ queued: 100 });
    launch(crawl);
    launch(crawl);
    crawl.batchSucceeded(batch({ queued: 80, outOfCredits: true }));
    crawl.batchEnded(1_000);
    expect(crawl.nextStep()).toBe('wait');
    expect(crawl.progress().outOfCredits).toBe(true);
    // A later batch that did not run out does not undo it.
    crawl.batchSucceeded(batch({ queued: 80, outOfCredits: false }));
    crawl.batchEnded(2_000);
    expect(crawl.nextStep()).toBe('finish');
    expect(crawl.outOfCredits).toBe(true);
  });

  it('queues its batches first, then behind its first, and behind the crawl it yielded to', () => {
    const { crawl } = crawlRun();
    crawl.planned({ queued: 100 });
    crawl.takeBatch();
    expect(crawl.takePriority()).toBe(FIRST_BATCH_PRIORITY);
    crawl.batchScheduled();
    crawl.takeBatch();
    expect(crawl.takePriority()).toBe(MORE_BATCHES_PRIORITY);
    crawl.batchScheduled();
    // A batch gave its browser up with nothing queued by its count: what it left is still to do.
    crawl.batchSucceeded(batch({ queued: 0, yielded: true }));
    crawl.batchEnded(1_000);
    expect(crawl.queued).toBe(1);
    crawl.takeBatch();
    expect(crawl.takePriority()).toBe(AFTER_YIELD_PRIORITY);
    crawl.batchScheduled();
    crawl.takeBatch();
    expect(crawl.takePriority()).toBe(MORE_BATCHES_PRIORITY);
  });

  it('sums pages itself from a batch result recorded before batches read the counts', () => {
    const { crawl } = crawlRun();
    crawl.planned({ queued: 5, counts: counts({ completed: 2, failed: 1, queued: 5, total: 8 }) });
    launch(crawl);
    crawl.batchSucceeded({ succeeded: 3, failed: 1, queued: 1, outOfCredits: false });
    expect(crawl.counts).toEqual(counts({ completed: 5, failed: 2, queued: 1, total: 8 }));
    expect(crawl.pagesHandled).toBe(4);
  });
});

describe('JobRunState: ending a run', () => {
  it('keeps the first failure, and a failure wins over launching', () => {
    const { crawl } = crawlRun();
    crawl.planned({ queued: 100 });
    launch(crawl);
    launch(crawl);
    const first = new Error('first');
    crawl.batchFailed(first);
    crawl.batchEnded(1_000);
    crawl.batchFailed(new Error('second'));
    expect(crawl.mayAct()).toBe(true);
    expect(crawl.nextStep()).toBe('fail');
    expect(crawl.failure).toBe(first);
  });

  it('cancelled while a batch runs: cancelling until the batch stopped, then ended with finishCrawl’s counts', () => {
    const { crawl } = crawlRun();
    crawl.planned({ queued: 100, counts: counts({ queued: 100, total: 100 }) });
    launch(crawl);
    crawl.stopping('cancelled');
    expect(crawl.progress()).toMatchObject({ phase: 'cancelling', status: 'scraping', batchesInFlight: 1 });
    // The batch stored pages before it stopped, and was cancelled before it returned them.
    crawl.batchFailed(new Error('cancelled'));
    crawl.batchEnded(1_000);
    expect(crawl.inFlight).toBe(0);
    expect(crawl.pagesSettled()).toBe(false);
    const end = crawl.ended('cancelled', { completed: 7, counts: counts({ completed: 7, queued: 93, total: 100 }) });
    expect(end).toEqual({ pagesCrawled: 7, pagesQueued: 93 });
    expect(crawl.progress()).toMatchObject({ status: 'cancelled', phase: 'ended', completed: 7, queued: 93 });
    expect(crawl.firstBatchSettled()).toBe(true);
  });

  it('reports its own pages as crawled when finishCrawl did not count them, and no PagesQueued in runs without the patch', () => {
    const { crawl } = crawlRun({ patches: { progressUpserts: false } });
    crawl.planned({ queued: 1 });
    launch(crawl);
    crawl.batchSucceeded(batch({ succeeded: 1, failed: 1 }));
    crawl.batchEnded(1_000);
    expect(crawl.ended('failed', {})).toEqual({ pagesCrawled: 2 });
  });

  it('goes on scraping when finishCrawl found work another batch’s late snapshot hid', () => {
    const { crawl } = crawlRun();
    crawl.planned({ queued: 0 });
    crawl.finishing();
    expect(crawl.progress().phase).toBe('finishing');
    crawl.workLeft(0);
    expect(crawl.queued).toBe(1);
    expect(crawl.progress().phase).toBe('scraping');
    expect(crawl.nextStep()).toBe('launch');
  });

  it('continues as new with its counters once its history is full and no batch runs', () => {
    const { crawl, history } = crawlRun({ input: { pagesHandled: 40, lastBatchEndedAt: 5 } });
    crawl.planned({ queued: 100 });
    launch(crawl);
    history.historyLength = 3_001;
    expect(crawl.nextStep()).toBe('wait');
    crawl.batchSucceeded(batch({ succeeded: 10, queued: 90, counts: counts({ completed: 50, queued: 90 }) }));
    crawl.batchEnded(9_000);
    expect(crawl.nextStep()).toBe('continue-as-new');
    expect(crawl.continuedInput()).toEqual({
      crawlId: 'c1',
      planned: true,
      pagesHandled: 50,
      lastBatchEndedAt: 9_000,
      counts: counts({ completed: 50, queued: 90 }),
    });
    history.historyLength = 10;
    history.continueAsNewSuggested = true;
    expect(crawl.nextStep()).toBe('continue-as-new');
  });

  it('leaves the counts out of the next run’s input in runs without progress upserts', () => {
    const { crawl } = crawlRun({ patches: { progressUpserts: false } });
    expect(crawl.continuedInput()).toEqual({ crawlId: 'c1', planned: true, pagesHandled: 0, lastBatchEndedAt: undefined });
  });

  it('answers scrapeSettled with this run’s own pages, not an earlier run’s', () => {
    const { crawl } = crawlRun({ input: { planned: true, pagesHandled: 3 } });
    expect(crawl.firstBatchSettled()).toBe(false);
    expect(crawl.pagesSettled()).toBe(false);
    launch(crawl);
    crawl.batchSucceeded(batch({ succeeded: 0, failed: 1 }));
    crawl.batchEnded(1_000);
    expect(crawl.firstBatchSettled()).toBe(true);
    expect(crawl.pagesSettled()).toBe(true);
  });
});

describe('JobRunState: progress', () => {
  it('answers planning before the settings are read, and the previous run’s counts after continue-as-new', () => {
    const fresh = new JobRunState({ crawlId: 'c1' }, () => ({ historyLength: 1, continueAsNewSuggested: false }));
    expect(fresh.progress()).toEqual({ ...counts(), status: 'scraping', phase: 'planning', batchesInFlight: 0, batchesStarted: 0, outOfCredits: false });
    const continued = new JobRunState({ crawlId: 'c1', planned: true, counts: counts({ completed: 9 }) }, () => ({
      historyLength: 1,
      continueAsNewSuggested: false,
    }));
    expect(continued.progress()).toMatchObject({ phase: 'scraping', completed: 9 });
  });

  it('waits out `delay` from the last batch’s end, and says so while it waits', () => {
    const { crawl } = crawlRun({ limits: { delayMs: 2_000 } });
    crawl.planned({ queued: 3 });
    expect(crawl.delayBefore(0)).toBeUndefined();
    launch(crawl);
    crawl.batchSucceeded(batch({ queued: 2 }));
    crawl.batchEnded(10_000);
    expect(crawl.delayBefore(10_500)).toBe(1_500);
    expect(crawl.progress()).toMatchObject({ phase: 'delay', delayMs: 1_500 });
    crawl.delayOver();
    expect(crawl.progress()).not.toHaveProperty('delayMs');
    // Past the delay already: a timer of 0, and no `delay` phase.
    expect(crawl.delayBefore(13_000)).toBe(0);
    expect(crawl.progress().phase).toBe('scraping');
  });

  it('has no delay when the crawl sets none', () => {
    const { crawl } = crawlRun({ input: { lastBatchEndedAt: 1 } });
    expect(crawl.delayBefore(2)).toBeUndefined();
  });

  it('upserts progress once counts are known, on change, at most once per interval, never after the end', () => {
    const { crawl } = crawlRun({ limits: { progressIntervalMs: 1_000 } });
    expect(crawl.progressUpsertDue(0)).toBeUndefined();
    crawl.planned({ queued: 10, counts: counts({ queued: 10 }) });
    expect(crawl.progressUpsertDue(0)).toEqual({ completed: 0, queued: 10 });
    expect(crawl.progressUpsertDue(5_000)).toBeUndefined();
    launch(crawl);
    crawl.batchSucceeded(batch({ counts: counts({ completed: 1, queued: 9 }) }));
    expect(crawl.progressUpsertDue(999)).toBeUndefined();
    expect(crawl.progressUpsertDue(1_000)).toEqual({ completed: 1, queued: 9 });
    crawl.batchSucceeded(batch({ counts: counts({ completed: 2, queued: 8 }) }));
    crawl.ended('completed', {});
    expect(crawl.progressUpsertDue(10_000)).toBeUndefined();
  });

  it('upserts no progress in runs without the patch, and none for the counts the previous run upserted', () => {
    const { crawl } = crawlRun({ patches: { progressUpserts: false } });
    crawl.planned({ queued: 10 });
    expect(crawl.progressUpsertDue(0)).toBeUndefined();
    const { crawl: continued } = crawlRun({ input: { planned: true, counts: counts({ completed: 4, queued: 6 }) } });
    expect(continued.progressUpsertDue(0)).toBeUndefined();
  });
});

describe('failureReason', () => {
  it('gives the innermost cause’s message', () => {
    const err = new Error('Activity task failed', { cause: new Error('ApplicationFailure', { cause: new Error('database is gone') }) });
    expect(failureReason(err)).toBe('database is gone');
    expect(failureReason('plain')).toBe('plain');
  });
});
