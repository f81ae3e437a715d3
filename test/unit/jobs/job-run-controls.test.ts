// The operator's controls of a running job as the workflow decides them, without Temporal: pause
// and resume (what the loop does, what the row records, when a pause expires), the running batches'
// reports and questions, and the adjust update's refusals and effect.
import { describe, expect, it } from 'vitest';
import { JobRunState, PAUSE_MAX_MS, senderOf, type JobRunLimits } from '../../../src/jobs/job-run-state.ts';
import { jobDetails } from '../../../src/jobs/job-details.ts';
import type { JobWorkflowInput, JobCounts } from '../../../src/jobs/definitions.ts';

const LIMITS: JobRunLimits = { parallelBatches: 2, batchSize: 10, historyEventBudget: 3_000, pagesPerBatch: 4, discoversLinks: true };
const PATCHES = { batchesWaitForWork: true, progressUpserts: true, batchReports: true };

function crawlRun(limits: Partial<JobRunLimits> = {}, input: Partial<JobWorkflowInput> = {}) {
  const crawl = new JobRunState({ crawlId: 'c1', ...input }, () => ({ historyLength: 10, continueAsNewSuggested: false }));
  crawl.useSettings({ ...LIMITS, ...limits }, PATCHES);
  crawl.planned({ queued: 50, counts: counts({ queued: 50, total: 50 }) });
  return crawl;
}

const counts = (over: Partial<JobCounts> = {}): JobCounts => ({ completed: 0, total: 0, failed: 0, queued: 0, creditsUsed: 0, ...over });

function launch(crawl: JobRunState, concurrency = 4): string {
  const key = `run:${crawl.takeBatch()}`;
  crawl.batchScheduled(key, concurrency);
  return key;
}

describe('pause and resume', () => {
  it('stops launching, tells the batches to stop, records the pause, then holds once they ended', () => {
    const crawl = crawlRun();
    const [a, b] = [launch(crawl), launch(crawl)];
    expect(crawl.control(a)).toEqual({ stop: false, running: [a, b] });
    expect(crawl.pause({ by: 'ops@host' }, 1_000)).toBe(true);
    expect(crawl.canLaunch()).toBe(false);
    expect(crawl.control(b)).toEqual({ stop: true, why: 'paused', running: [a, b] });
    expect(crawl.nextStep()).toBe('record-pause');
    expect(crawl.takePauseRecord()).toEqual({ sinceMs: 1_000, by: 'ops@host' });
    expect(crawl.nextStep()).toBe('wait');
    expect(crawl.mayAct()).toBe(false);
    crawl.batchSucceeded({ succeeded: 3, failed: 0, queued: 20, outOfCredits: false, recalled: true });
    crawl.batchEnded(2_000, a);
    expect(crawl.mayAct()).toBe(false);
    crawl.batchSucceeded({ succeeded: 1, failed: 0, queued: 19, outOfCredits: false, recalled: true });
    crawl.batchEnded(2_100, b);
    expect(crawl.nextStep()).toBe('hold');
    expect(crawl.progress()).toMatchObject({ phase: 'paused', batchesInFlight: 0, paused: { sinceMs: 1_000, by: 'ops@host' } });
    expect(jobDetails(crawl.progress())).toBe(
      'paused since 1970-01-01T00:00:01.000Z by ops@host · 4 stored, 19 queued, 0 failed · holding nothing · 0 credits used',
    );
  });

  it('keeps the first pause; resumes where it stopped and records the resume', () => {
    const crawl = crawlRun();
    crawl.pause({ by: 'first' }, 1_000);
    expect(crawl.pause({ by: 'second' }, 5_000)).toBe(false);
    crawl.takePauseRecord();
    expect(crawl.progress().paused).toEqual({ sinceMs: 1_000, by: 'first' });
    expect(crawl.resume()).toBe(true);
    expect(crawl.resume()).toBe(false);
    expect(crawl.nextStep()).toBe('record-pause');
    expect(crawl.takePauseRecord()).toBeNull();
    expect(crawl.nextStep()).toBe('launch');
    expect(crawl.progress().phase).toBe('scraping');
  });

  it('a pause and resume within one activation records nothing', () => {
    const crawl = crawlRun();
    crawl.pause(undefined, 1_000);
    crawl.resume();
    expect(crawl.pauseRecordDue()).toBe(false);
    expect(crawl.nextStep()).toBe('launch');
  });

  it('names the sender from the input, or "unknown"', () => {
    expect(senderOf({ by: ' alice ' })).toBe('alice');
    expect(senderOf(undefined)).toBe('unknown');
    expect(senderOf({ by: '' })).toBe('unknown');
    expect(senderOf({ by: 42 })).toBe('unknown');
    expect(senderOf('alice')).toBe('unknown');
    expect(senderOf({ by: 'x'.repeat(1_000) })).toHaveLength(200);
  });

  it('does not pause a single scrape or a job that is finishing', () => {
    expect(crawlRun({ singleScrape: true }).pause({}, 1)).toBe(false);
    const finishing = crawlRun();
    finishing.finishing();
    expect(finishing.pause({}, 1)).toBe(false);
  });

  it('expires after the pause limit, counted from the pause', () => {
    const crawl = crawlRun({ pauseMaxMs: 10_000 });
    crawl.pause({}, 1_000);
    expect(crawl.pauseLeftMs(4_000)).toBe(7_000);
    expect(crawl.pauseLeftMs(20_000)).toBe(1);
    const byDefault = crawlRun();
    byDefault.pause({}, 0);
    expect(byDefault.pauseLeftMs(0)).toBe(PAUSE_MAX_MS);
  });

  it('stays paused across continue-as-new, with nothing to record again', () => {
    const crawl = crawlRun();
    crawl.pause({ by: 'ops' }, 1_000);
    crawl.takePauseRecord();
    const next = crawlRun({}, crawl.continuedInput());
    expect(next.pauseRecordDue()).toBe(false);
    expect(next.nextStep()).toBe('hold');
  });

  it('a failure wins over a pause', () => {
    const crawl = crawlRun();
    crawl.pause({}, 1);
    crawl.batchFailed(new Error('boom'));
    expect(crawl.nextStep()).toBe('fail');
  });
});

describe('batch reports', () => {
  it('take the job counts while scraping, not once ended', () => {
    const crawl = crawlRun();
    crawl.batchProgress({ batchKey: 'k', counts: counts({ completed: 7, queued: 30 }) });
    expect(crawl.progress()).toMatchObject({ completed: 7, queued: 30 });
    crawl.ended('completed', { counts: counts({ completed: 9 }) });
    crawl.batchProgress({ batchKey: 'k', counts: counts({ completed: 8 }) });
    expect(crawl.progress().completed).toBe(9);
  });

  it('upsert at most twice per interval, so no report waits more than one interval', () => {
    const crawl = crawlRun({ progressIntervalMs: 10_000 });
    crawl.batchProgress({ batchKey: 'k', counts: counts({ completed: 1 }) });
    expect(crawl.progressUpsertDue(0)).toEqual({ completed: 1, queued: 0 });
    crawl.batchProgress({ batchKey: 'k', counts: counts({ completed: 2 }) });
    expect(crawl.progressUpsertDue(4_999)).toBeUndefined();
    expect(crawl.progressUpsertDue(5_000)).toEqual({ completed: 2, queued: 0 });
  });
});

describe('adjust', () => {
  it('refuses what the run can tell without the database', () => {
    const crawl = crawlRun();
    crawl.batchProgress({ batchKey: 'k', counts: counts({ completed: 12 }) });
    expect(crawl.adjustmentRefusal({ limit: 10 })).toBe('limit 10 is below the 12 pages already stored');
    expect(crawl.adjustmentRefusal({ depth: 2, foo: 1 })).toMatch(/^unknown fields depth, foo: only limit, maxConcurrency, delay, maxDiscoveryDepth/);
    expect(crawl.adjustmentRefusal({})).toMatch(/^nothing to adjust/);
    expect(crawl.adjustmentRefusal([])).toMatch(/JSON object/);
    expect(crawl.adjustmentRefusal({ maxConcurrency: 0 })).toBe('maxConcurrency must be a positive integer');
    expect(crawl.adjustmentRefusal({ limit: 1.5 })).toBe('limit must be a positive integer');
    expect(crawl.adjustmentRefusal({ delay: 61 })).toMatch(/^delay must be/);
    expect(crawl.adjustmentRefusal({ maxDiscoveryDepth: -1 })).toMatch(/^maxDiscoveryDepth/);
    expect(crawl.adjustmentRefusal({ limit: 12, maxConcurrency: 1, delay: 0, maxDiscoveryDepth: 0 })).toBeUndefined();
    expect(crawlRun({ discoversLinks: false }).adjustmentRefusal({ limit: 100 })).toMatch(/^a batch scrape has no limit/);
    expect(crawlRun({ discoversLinks: false }).adjustmentRefusal({ maxConcurrency: 1 })).toBeUndefined();
    expect(crawlRun({ singleScrape: true }).adjustmentRefusal({ maxConcurrency: 1 })).toBe('a single scrape cannot be adjusted');
    const ended = crawlRun();
    ended.ended('cancelled', {});
    expect(ended.adjustmentRefusal({ limit: 100 })).toBe('the job is cancelled: nothing left to adjust');
  });

  it('tells batches running more pages, extra batches, or batches under old options to stop', () => {
    const crawl = crawlRun();
    const [a, b] = [launch(crawl, 4), launch(crawl, 4)];
    crawl.adjusted({ ...LIMITS, parallelBatches: 1, pagesPerBatch: 4 }, false);
    expect(crawl.control(a)).toEqual({ stop: false, running: [a, b] });
    expect(crawl.control(b)).toEqual({ stop: true, why: 'adjusted', running: [a, b] });
    crawl.adjusted({ ...LIMITS, parallelBatches: 1, pagesPerBatch: 1 }, false);
    expect(crawl.control(a)).toEqual({ stop: true, why: 'adjusted', running: [a, b] });
    crawl.batchEnded(1, a);
    crawl.batchEnded(2, b);
    const c = launch(crawl, 1);
    // A batch that ended is no longer counted as running: what it still claims goes back to the queue.
    expect(crawl.control(c)).toEqual({ stop: false, running: [c] });
    crawl.adjusted({ ...LIMITS, parallelBatches: 1, pagesPerBatch: 1 }, true);
    expect(crawl.control(c)).toEqual({ stop: true, why: 'adjusted', running: [c] });
    expect(crawl.control('unknown')).toEqual({ stop: false, running: [c] });
  });

  it('makes a starved run look for work again', () => {
    const crawl = crawlRun({ parallelBatches: 1 });
    const key = launch(crawl);
    crawl.batchSucceeded({ succeeded: 1, failed: 0, queued: 0, outOfCredits: false, starved: true });
    crawl.batchEnded(1, key);
    expect(crawl.nextStep()).toBe('finish');
    crawl.adjusted({ ...LIMITS, parallelBatches: 1 }, true);
    expect(crawl.nextStep()).toBe('launch');
  });
});
