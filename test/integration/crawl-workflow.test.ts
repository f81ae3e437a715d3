// jobWorkflow (the workflow of every job kind) against the shared Temporal dev server, with stub activities that model
// the frontier as counters in memory: no database, no browser. The control stubs run on
// the workflow's task queue and scrapeBatch on a second worker's browser queue, as in
// production; each test scripts its batches and checks the calls and the history.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Context } from '@temporalio/activity';
import { Client, Connection, WorkflowFailedError, type WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FinishCrawlInput, ScrapeBatchInput, ScrapeBatchResult } from '../../src/jobs/activities.ts';
import type { JobRunSettings, JobWorkflowInput, JobWorkflowResult } from '../../src/jobs/definitions.ts';
import { JOB_WORKFLOW_TYPE } from '../../src/jobs/job-workflow-options.ts';
import { BATCH_RETRY } from '../../src/jobs/retry-policies.ts';
import { waitFor } from '../support/wait-for.ts';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const bundle = { codePath: inject('workflowBundlePath') };
let connection: NativeConnection;
let clientConnection: Connection;
let client: Client;
const running: { workers: Worker[]; done: Promise<unknown> }[] = [];

beforeAll(async () => {
  const address = inject('temporalAddress');
  connection = await NativeConnection.connect({ address });
  clientConnection = await Connection.connect({ address });
  client = new Client({ connection: clientConnection });
});

afterEach(async () => {
  for (const r of running.splice(0)) {
    for (const w of r.workers) w.shutdown();
    await r.done;
  }
});

afterAll(async () => {
  await clientConnection?.close();
  await connection?.close();
});

/** The frontier of one crawl: URLs waiting, and URLs claimed by running batches. */
class Frontier {
  constructor(
    public queued: number,
    public claimed = 0,
  ) {}
  claim(n: number): number {
    const k = Math.min(n, this.queued);
    this.queued -= k;
    this.claimed += k;
    return k;
  }
  /** A batch stored its `pages` and found `links` new URLs. */
  store(pages: number, links = 0): void {
    this.claimed -= pages;
    this.queued += links;
  }
  /** A stopped batch gives its claims back. */
  release(n: number): void {
    this.claimed -= n;
    this.queued += n;
  }
}

/** What a batch that stored its `claimed` pages reports. */
function stored(frontier: Frontier, claimed: number, extra: Partial<ScrapeBatchResult> = {}): ScrapeBatchResult {
  return { claimed, succeeded: claimed, failed: 0, queued: frontier.queued, outOfCredits: false, ...extra };
}

/** Claims up to the batch size, stores the pages (finding no links) and reports; starved when it found nothing. */
function plainBatch(frontier: Frontier) {
  return async (input: ScrapeBatchInput) => {
    const claimed = frontier.claim(input.size);
    frontier.store(claimed);
    return stored(frontier, claimed, { starved: claimed === 0 });
  };
}

interface Call {
  /** Order of the call among all stub calls of the test. */
  seq: number;
  at: number;
}
interface BatchCall extends Call {
  input: ScrapeBatchInput;
  attempt: number;
  /** Set when the attempt returned or threw. */
  ended?: Call;
  result?: ScrapeBatchResult;
  sawCancellation?: boolean;
}

interface Script {
  settings?: Partial<JobRunSettings>;
  frontier: Frontier;
  /** One call per batch attempt; `n` counts attempts from 0. */
  scrapeBatch(input: ScrapeBatchInput, n: number, crawl: StubCrawl): Promise<ScrapeBatchResult>;
  queueForBrowser?(work: { holder: string }, n: number): Promise<void>;
  /** Batch attempts the browser worker runs at once. */
  browserSlots?: number;
}

interface StubCrawl {
  crawlId: string;
  handle: WorkflowHandleWithFirstExecutionRunId;
  settings: JobRunSettings;
  calls: {
    crawlSettings: Call[];
    planCrawl: Call[];
    queueForBrowser: (Call & { work: { holder: string; crawlId: string; teamId: string } })[];
    batches: BatchCall[];
    finishCrawl: (Call & { input: FinishCrawlInput })[];
  };
  /** Most batch attempts that were running at once. */
  maxRunning(): number;
  history(): Promise<HistoryEvent[]>;
  /** Resolves once the workflow has finished a workflow task that saw `event` (it has reacted to it). */
  workflowSaw(event: (e: HistoryEvent[]) => HistoryEvent | undefined): Promise<void>;
}

let seq = 0;
const call = (): Call => ({ seq: seq++, at: Date.now() });

/** Starts the two workers with the script's stubs and the crawl's workflow. */
async function startCrawl(script: Script): Promise<StubCrawl> {
  const taskQueue = `wf-test-${randomUUID()}`;
  const crawlId = randomUUID();
  const settings: JobRunSettings = {
    parallelBatches: 1,
    batchSize: 10,
    pagesPerBatch: 2,
    heartbeatTimeoutMs: 5000,
    historyEventBudget: 3000,
    browserTaskQueue: `${taskQueue}-browser`,
    hasWebhook: false,
    teamId: `team-${randomUUID()}`,
    ...script.settings,
  };
  const calls: StubCrawl['calls'] = { crawlSettings: [], planCrawl: [], queueForBrowser: [], batches: [], finishCrawl: [] };
  let now = 0;
  let most = 0;
  const frontier = script.frontier;
  const control = {
    async crawlSettings(id: string) {
      expect(id).toBe(crawlId);
      calls.crawlSettings.push(call());
      return settings;
    },
    async planCrawl(id: string) {
      expect(id).toBe(crawlId);
      calls.planCrawl.push(call());
      return { queued: frontier.queued };
    },
    async queueForBrowser(work: { holder: string; crawlId: string; teamId: string }) {
      const n = calls.queueForBrowser.push({ ...call(), work }) - 1;
      await script.queueForBrowser?.(work, n);
    },
    // As the real one: a completion is refused while the frontier holds work.
    async finishCrawl(input: FinishCrawlInput) {
      calls.finishCrawl.push({ ...call(), input });
      if (input.status === 'completed' && !input.outOfCredits && frontier.queued + frontier.claimed > 0) {
        frontier.queued += frontier.claimed;
        frontier.claimed = 0;
        return { finished: false, queued: frontier.queued };
      }
      return { finished: true, queued: 0 };
    },
  };
  const crawl = {} as StubCrawl;
  const browser = {
    async scrapeBatch(input: ScrapeBatchInput): Promise<ScrapeBatchResult> {
      const record: BatchCall = { ...call(), input, attempt: Context.current().info.attempt };
      const n = calls.batches.push(record) - 1;
      most = Math.max(most, ++now);
      try {
        record.result = await script.scrapeBatch(input, n, crawl);
        return record.result;
      } finally {
        now--;
        record.ended = call();
      }
    },
  };
  const workers = await Promise.all([
    Worker.create({ connection, taskQueue, workflowBundle: bundle, activities: control }),
    Worker.create({
      connection,
      taskQueue: settings.browserTaskQueue,
      activities: browser,
      maxConcurrentActivityTaskExecutions: script.browserSlots ?? 10,
      // Heartbeats reach the server (and bring cancellations back) within 200 ms.
      maxHeartbeatThrottleInterval: 200,
    }),
  ]);
  running.push({ workers, done: Promise.all(workers.map((w) => w.run())) });
  const handle = await client.workflow.start(JOB_WORKFLOW_TYPE, {
    taskQueue,
    workflowId: `crawl-${crawlId}`,
    args: [{ crawlId } satisfies JobWorkflowInput],
  });
  const history = async () => (await client.workflow.getHandle(handle.workflowId).fetchHistory()).events ?? [];
  return Object.assign(crawl, {
    crawlId,
    handle,
    settings,
    calls,
    maxRunning: () => most,
    history,
    async workflowSaw(event: (e: HistoryEvent[]) => HistoryEvent | undefined) {
      await until('the workflow to react', async () => {
        const events = await history();
        const seen = event(events);
        return seen !== undefined && events.some((e) => e.workflowTaskCompletedEventAttributes && Number(e.eventId) > Number(seen.eventId));
      });
    },
  });
}

/** Waits for a change in the test's own calls or the workflow's history: polled every 50 ms, for at most a minute. */
const until = (what: string, ok: () => boolean | Promise<boolean>) => waitFor(what, ok, 60_000, 50);

const payload = (p: temporal.api.common.v1.IPayload | undefined) => JSON.parse(Buffer.from(p!.data!).toString());

/** The scrapeBatch schedulings of a history, with their batch keys. */
function batchSchedulings(events: HistoryEvent[]) {
  return events
    .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'scrapeBatch')
    .map((e) => ({
      event: e,
      attrs: e.activityTaskScheduledEventAttributes!,
      input: payload(e.activityTaskScheduledEventAttributes!.input!.payloads![0]) as ScrapeBatchInput,
    }));
}

/** The event that closed the batch with this key (completed, failed, cancelled). */
function batchClosed(batchKey: string) {
  return (events: HistoryEvent[]) => {
    const scheduled = batchSchedulings(events).find((s) => s.input.batchKey === batchKey);
    if (!scheduled) return undefined;
    const id = String(scheduled.event.eventId);
    return events.find((e) =>
      [e.activityTaskCompletedEventAttributes, e.activityTaskFailedEventAttributes, e.activityTaskCanceledEventAttributes].some(
        (a) => a && String(a.scheduledEventId) === id,
      ),
    );
  };
}

async function replays(crawl: StubCrawl, runId?: string) {
  const history = await client.workflow.getHandle(crawl.handle.workflowId, runId).fetchHistory();
  await Worker.runReplayHistory({ workflowBundle: bundle }, history);
}

describe('jobWorkflow with stub activities', () => {
  it('keeps every slot busy while a batch may find links, and after a starved batch waits for one that reports some', async () => {
    const frontier = new Frontier(1);
    let firstBatch = '';
    const crawl = await startCrawl({
      settings: { parallelBatches: 3 },
      frontier,
      async scrapeBatch(input, n, crawl) {
        if (n === 0) {
          // The start page: it loads while the other two slots wait for work, and
          // links show up only after both came back starved and the workflow saw that.
          firstBatch = input.batchKey;
          const start = frontier.claim(input.size);
          await until('both waiting batches to end', () => crawl.calls.batches.length >= 3 && crawl.calls.batches.slice(1, 3).every((b) => b.ended));
          for (const b of crawl.calls.batches.slice(1, 3)) await crawl.workflowSaw(batchClosed(b.input.batchKey));
          frontier.store(start, 25);
          return stored(frontier, start);
        }
        if (n < 3) {
          await until('three batches to run', () => crawl.calls.batches.length >= 3);
          expect(frontier.claim(input.size)).toBe(0);
          return stored(frontier, 0, { starved: true });
        }
        return plainBatch(frontier)(input);
      },
    });
    const result: JobWorkflowResult = await crawl.handle.result();
    expect(result).toEqual({ crawlId: crawl.crawlId, status: 'completed', pagesHandled: 26 });
    expect(crawl.maxRunning()).toBe(3);

    const events = await crawl.history();
    const schedulings = batchSchedulings(events);
    const firstClosed = Number(batchClosed(firstBatch)(events)!.eventId);
    const starvedClosed = schedulings.slice(1, 3).map((s) => Number(batchClosed(s.input.batchKey)(events)!.eventId));
    // Nothing was launched between the starved results and the first batch's report of 25 queued URLs...
    const launchedWhileStarved = schedulings.filter((s) => Number(s.event.eventId) > Math.min(...starvedClosed) && Number(s.event.eventId) < firstClosed);
    expect(launchedWhileStarved).toEqual([]);
    // ...after which all three slots were filled again.
    expect(schedulings.filter((s) => Number(s.event.eventId) > firstClosed).length).toBeGreaterThanOrEqual(3);
    expect(crawl.calls.batches.length).toBe(schedulings.length);
    expect(crawl.calls.planCrawl).toHaveLength(1);
    expect(crawl.calls.finishCrawl.map((c) => c.input)).toEqual([{ crawlId: crawl.crawlId, status: 'completed', outOfCredits: false }]);
    await replays(crawl);
  });

  it('launches no batch after one runs out of credits, and finishes completed with outOfCredits once the others ended', async () => {
    const frontier = new Frontier(30);
    const crawl = await startCrawl({
      settings: { parallelBatches: 2 },
      frontier,
      async scrapeBatch(input, n, crawl) {
        const claimed = frontier.claim(input.size);
        if (n === 0) {
          await until('the second batch to run', () => crawl.calls.batches.length === 2);
          frontier.store(claimed);
          return stored(frontier, claimed, { outOfCredits: true });
        }
        // Still running when the first reports; it ends with URLs left in the queue.
        await crawl.workflowSaw(batchClosed(crawl.calls.batches[0]!.input.batchKey));
        frontier.store(claimed);
        return stored(frontier, claimed);
      },
    });
    const result: JobWorkflowResult = await crawl.handle.result();
    expect(result).toEqual({ crawlId: crawl.crawlId, status: 'completed', pagesHandled: 20 });
    expect(frontier.queued).toBe(10);
    expect(crawl.calls.batches).toHaveLength(2);
    expect(crawl.calls.finishCrawl.map((c) => c.input)).toEqual([{ crawlId: crawl.crawlId, status: 'completed', outOfCredits: true }]);
    expect(crawl.calls.finishCrawl[0]!.seq).toBeGreaterThan(crawl.calls.batches[1]!.ended!.seq);
    await replays(crawl);
  });

  it('with a delay runs one batch at a time, each started at least the delay after the previous one ended (a durable timer)', async () => {
    const frontier = new Frontier(4);
    const crawl = await startCrawl({
      // What crawlSettings decides for a crawl with `delay`: one page per batch, one batch at a time.
      settings: { parallelBatches: 1, batchSize: 1, pagesPerBatch: 1, delayMs: 300 },
      frontier,
      scrapeBatch: plainBatch(frontier),
    });
    const result: JobWorkflowResult = await crawl.handle.result();
    expect(result).toEqual({ crawlId: crawl.crawlId, status: 'completed', pagesHandled: 4 });
    const batches = crawl.calls.batches;
    expect(batches).toHaveLength(4);
    expect(crawl.maxRunning()).toBe(1);
    for (let i = 1; i < batches.length; i++) expect(batches[i]!.at - batches[i - 1]!.ended!.at).toBeGreaterThanOrEqual(300);

    const events = await crawl.history();
    const timers = events.filter((e) => e.timerStartedEventAttributes).map((e) => e.timerStartedEventAttributes!.startToFireTimeout);
    expect(timers.map((t) => Number(t!.seconds ?? 0) * 1000 + (t!.nanos ?? 0) / 1e6)).toEqual([300, 300, 300]);
    // Each timer runs between one batch's end and the next one's start.
    const order = events.flatMap((e) =>
      e.activityTaskScheduledEventAttributes?.activityType?.name === 'scrapeBatch'
        ? ['batch']
        : e.activityTaskCompletedEventAttributes &&
            batchSchedulings(events).some((s) => String(s.event.eventId) === String(e.activityTaskCompletedEventAttributes!.scheduledEventId))
          ? ['ended']
          : e.timerStartedEventAttributes
            ? ['timer']
            : e.timerFiredEventAttributes
              ? ['fired']
              : [],
    );
    expect(order).toEqual(['batch', 'ended', 'timer', 'fired', 'batch', 'ended', 'timer', 'fired', 'batch', 'ended', 'timer', 'fired', 'batch', 'ended']);
    await replays(crawl);
  });

  it('cancelled, stops its batches, waits until they have ended, then finishes cancelled', async () => {
    const frontier = new Frontier(15);
    const crawl = await startCrawl({
      settings: { parallelBatches: 3, batchSize: 5 },
      // The third batch waits for a browser slot when the crawl is cancelled.
      browserSlots: 2,
      frontier,
      async scrapeBatch(input, n, crawl) {
        const claimed = frontier.claim(input.size);
        const ctx = Context.current();
        try {
          for (;;) {
            ctx.heartbeat();
            await ctx.sleep(100);
          }
        } catch (err) {
          crawl.calls.batches[n]!.sawCancellation = err instanceof CancelledFailure && ctx.cancellationSignal.aborted;
          // Stopping a browser and giving claims back takes a while.
          await new Promise((r) => setTimeout(r, 500));
          frontier.release(claimed);
          throw err;
        }
      },
    });
    await until('two batches to run', () => crawl.calls.batches.length === 2);
    await until('the third batch to be scheduled', async () => batchSchedulings(await crawl.history()).length === 3);
    await crawl.handle.cancel();
    const err = await crawl.handle.result().catch((e) => e);
    // RECORD_HISTORY_DIR=<dir> keeps the history as a fixture for test/unit/workflow-replay.test.ts
    // (job-cancelled.json, type jobWorkflow; crawl-cancelled.json is the same run recorded as crawlWorkflow).
    if (process.env.RECORD_HISTORY_DIR) {
      const history = await client.workflow.getHandle(crawl.handle.workflowId).fetchHistory();
      writeFileSync(join(process.env.RECORD_HISTORY_DIR, 'job-cancelled.json'), historyToJSON(history));
    }
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect(err.cause).toBeInstanceOf(CancelledFailure);
    expect((await crawl.handle.describe()).status.name).toBe('CANCELLED');

    const batches = crawl.calls.batches;
    expect(batches).toHaveLength(2);
    expect(batches.map((b) => b.sawCancellation)).toEqual([true, true]);
    expect(crawl.calls.finishCrawl.map((c) => c.input)).toEqual([{ crawlId: crawl.crawlId, status: 'cancelled' }]);
    expect(crawl.calls.finishCrawl[0]!.seq).toBeGreaterThan(Math.max(...batches.map((b) => b.ended!.seq)));
    expect(frontier).toEqual(new Frontier(15, 0));
    await replays(crawl);
  });

  it('continues as new when its history is long, with only the counters in the new input, and plans once', async () => {
    const frontier = new Frontier(20);
    const crawl = await startCrawl({
      settings: { parallelBatches: 1, batchSize: 2, historyEventBudget: 40 },
      frontier,
      scrapeBatch: plainBatch(frontier),
    });
    const result: JobWorkflowResult = await crawl.handle.result();
    expect(result).toEqual({ crawlId: crawl.crawlId, status: 'completed', pagesHandled: 20 });

    const inputs: JobWorkflowInput[] = [];
    const runIds = [crawl.handle.firstExecutionRunId];
    for (;;) {
      const events = (await client.workflow.getHandle(crawl.handle.workflowId, runIds.at(-1)).fetchHistory()).events!;
      expect(events.length).toBeLessThan(60);
      const next = events.find((e) => e.workflowExecutionContinuedAsNewEventAttributes)?.workflowExecutionContinuedAsNewEventAttributes;
      if (!next) break;
      runIds.push(next.newExecutionRunId!);
      inputs.push(payload(next.input!.payloads![0]));
    }
    expect(runIds.length).toBeGreaterThanOrEqual(3);
    expect((await crawl.handle.describe()).runId).toBe(runIds.at(-1));
    for (const input of inputs) {
      expect(Object.keys(input).sort()).toEqual(['counts', 'crawlId', 'lastBatchEndedAt', 'pagesHandled', 'planned']);
      expect(input).toMatchObject({ crawlId: crawl.crawlId, planned: true });
      // The progress so far (the stub batches report no counts of their own: the workflow summed them).
      expect(input.counts).toMatchObject({ completed: input.pagesHandled, failed: 0 });
    }
    // Each run hands on the pages of all runs before it (a batch key starts with its run's id).
    const handledBy = (runs: string[]) =>
      crawl.calls.batches.filter((b) => runs.some((r) => b.input.batchKey.startsWith(`${r}:`))).reduce((n, b) => n + b.result!.succeeded + b.result!.failed, 0);
    expect(inputs.map((i) => i.pagesHandled)).toEqual(inputs.map((_, i) => handledBy(runIds.slice(0, i + 1))));
    expect(inputs[0]!.pagesHandled).toBeGreaterThan(0);
    expect(crawl.calls.planCrawl).toHaveLength(1);
    expect(crawl.calls.crawlSettings).toHaveLength(runIds.length);
    expect(crawl.calls.finishCrawl).toHaveLength(1);
    expect(new Set(crawl.calls.batches.map((b) => b.input.batchKey)).size).toBe(crawl.calls.batches.length);
    for (const runId of runIds) await replays(crawl, runId);
  });

  describe('a batch that always fails', () => {
    it('is retried within BATCH_RETRY (8 attempts), then the crawl ends failed with the innermost message', async () => {
      const crawl = await startCrawl({
        frontier: new Frontier(5),
        async scrapeBatch() {
          // A retryable failure; its own retry delay keeps the test short, the attempt limit is the policy's.
          throw ApplicationFailure.create({ message: 'the database refused the write', type: 'StoreFailed', nextRetryDelay: 20 });
        },
      });
      const err = await crawl.handle.result().catch((e) => e);
      expect(err).toBeInstanceOf(WorkflowFailedError);
      expect(err.cause).toBeInstanceOf(ActivityFailure);
      expect(BATCH_RETRY.maximumAttempts).toBe(8);
      expect(crawl.calls.batches.map((b) => b.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(new Set(crawl.calls.batches.map((b) => b.input.batchKey)).size).toBe(1);
      expect(crawl.calls.finishCrawl.map((c) => c.input)).toEqual([{ crawlId: crawl.crawlId, status: 'failed', error: 'the database refused the write' }]);
      const [scheduled] = batchSchedulings(await crawl.history());
      expect(scheduled!.attrs.retryPolicy).toMatchObject({ maximumAttempts: 8, backoffCoefficient: 2, nonRetryableErrorTypes: ['CrawlNotFound'] });
      expect((await crawl.handle.describe()).status.name).toBe('FAILED');
      await replays(crawl);
    });

    it('fails the crawl at once when its error is not retryable, after the batches still running ended', async () => {
      const frontier = new Frontier(20);
      const crawl = await startCrawl({
        settings: { parallelBatches: 2 },
        frontier,
        async scrapeBatch(input, n, crawl) {
          const claimed = frontier.claim(input.size);
          if (n === 0) {
            await until('the second batch to run', () => crawl.calls.batches.length === 2);
            throw ApplicationFailure.nonRetryable('crawl row is gone', 'CrawlNotFound');
          }
          await crawl.workflowSaw(batchClosed(crawl.calls.batches[0]!.input.batchKey));
          frontier.store(claimed);
          return stored(frontier, claimed);
        },
      });
      const err = await crawl.handle.result().catch((e) => e);
      expect(err).toBeInstanceOf(WorkflowFailedError);
      expect(crawl.calls.batches.map((b) => b.attempt)).toEqual([1, 1]);
      expect(crawl.calls.finishCrawl.map((c) => c.input)).toEqual([{ crawlId: crawl.crawlId, status: 'failed', error: 'crawl row is gone' }]);
      expect(crawl.calls.finishCrawl[0]!.seq).toBeGreaterThan(crawl.calls.batches[1]!.ended!.seq);
      await replays(crawl);
    });
  });

  it('relaunches after a yielded batch (behind the crawl it yielded to), with priorities 1 first, 2 for more, 4 after a yield', async () => {
    const frontier = new Frontier(1);
    const crawl = await startCrawl({
      settings: { parallelBatches: 2 },
      frontier,
      async scrapeBatch(input, n, crawl) {
        if (n === 0) {
          // Gives its browser up once the other batch came back starved: nothing is queued,
          // and without the yield the workflow would finish here.
          const claimed = frontier.claim(input.size);
          await until('the second batch to end', () => crawl.calls.batches[1]?.ended !== undefined);
          await crawl.workflowSaw(batchClosed(crawl.calls.batches[1]!.input.batchKey));
          frontier.store(claimed);
          return stored(frontier, claimed, { yielded: true });
        }
        if (n === 1) {
          expect(frontier.claim(input.size)).toBe(0);
          return stored(frontier, 0, { starved: true });
        }
        return plainBatch(frontier)(input);
      },
    });
    const result: JobWorkflowResult = await crawl.handle.result();
    expect(result).toEqual({ crawlId: crawl.crawlId, status: 'completed', pagesHandled: 1 });

    const schedulings = batchSchedulings(await crawl.history());
    expect(schedulings.map((s) => s.attrs.priority?.priorityKey)).toEqual([1, 2, 4, 2]);
    expect(schedulings.map((s) => s.attrs.priority?.fairnessKey)).toEqual(Array(4).fill(crawl.settings.teamId));
    expect(schedulings.map((s) => s.attrs.taskQueue?.name)).toEqual(Array(4).fill(crawl.settings.browserTaskQueue));
    // One queueForBrowser per batch, each before its batch.
    const keys = schedulings.map((s) => s.input.batchKey);
    expect(crawl.calls.queueForBrowser.map((q) => q.work)).toEqual(keys.map((holder) => ({ holder, crawlId: crawl.crawlId, teamId: crawl.settings.teamId })));
    // The batch behind the yield (priority 4) may start after the later one (priority 2).
    expect(crawl.calls.batches.map((b) => b.input.batchKey).sort()).toEqual([...keys].sort());
    for (const b of crawl.calls.batches) expect(crawl.calls.queueForBrowser.find((q) => q.work.holder === b.input.batchKey)!.seq).toBeLessThan(b.seq);
    expect(crawl.calls.finishCrawl.map((c) => c.input)).toEqual([{ crawlId: crawl.crawlId, status: 'completed', outOfCredits: false }]);
    await replays(crawl);
  });

  it('fails (and does not hang) when a batch cannot queue for a browser, once the running batch ended', { timeout: 60_000 }, async () => {
    const frontier = new Frontier(20);
    const crawl = await startCrawl({
      settings: { parallelBatches: 2 },
      frontier,
      async queueForBrowser(_work, n) {
        if (n === 1) throw ApplicationFailure.nonRetryable('browser share unavailable', 'ShareDown');
      },
      async scrapeBatch(input, _n, crawl) {
        const claimed = frontier.claim(input.size);
        await until('the second queueForBrowser', () => crawl.calls.queueForBrowser.length === 2);
        frontier.store(claimed);
        return stored(frontier, claimed);
      },
    });
    const err = await crawl.handle.result().catch((e) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect(crawl.calls.batches).toHaveLength(1);
    expect(crawl.calls.finishCrawl.map((c) => c.input)).toEqual([{ crawlId: crawl.crawlId, status: 'failed', error: 'browser share unavailable' }]);
    expect(crawl.calls.finishCrawl[0]!.seq).toBeGreaterThan(crawl.calls.batches[0]!.ended!.seq);
    await replays(crawl);
  });
});
