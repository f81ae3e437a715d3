// A running crawl's progress as the Temporal UI shows it: the PagesCrawled and
// PagesQueued search attributes kept current (at most every
// CRAWL_PROGRESS_INTERVAL_MS), its current details, the summaries of its
// activities and timers, and the `progress` query, whose counts are those of
// GET /v2/crawl/{id}.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newJobWorkflowId, progressQuery, type JobProgress } from '../../src/jobs/definitions.ts';
import { PagesCrawledAttribute, PagesQueuedAttribute } from '../../src/platform/temporal/search-attribute-keys.ts';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { adminCli } from '../support/admin-cli.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import { currentDetails, eventSummaries, upsertsOf } from '../support/workflow-ui.ts';

const PAGES = 6;

let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  // Every change of the counts is upserted at once, so the attributes can be compared with the query.
  h = await startHarness({ crawl: { progressIntervalMs: 0 } });
  await h.startWorker();
  site = await startFixtureSite(treeSite(PAGES));
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

async function startCrawl(body: Record<string, unknown>): Promise<string> {
  const res = await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, sitemap: 'skip', ...body } });
  expect(res.status).toBe(200);
  return (await res.json()).id;
}

const handleOf = (id: string) => h.temporal.workflow.getHandle(newJobWorkflowId('crawl', id));

async function attributes(id: string) {
  const { typedSearchAttributes } = await handleOf(id).describe();
  return { crawled: typedSearchAttributes.get(PagesCrawledAttribute), queued: typedSearchAttributes.get(PagesQueuedAttribute) };
}

/** The numbers GET /v2/crawl/{id} and the progress query both give. */
const statusCounts = ({ status, completed, total, creditsUsed }: Pick<JobProgress, 'status' | 'completed' | 'total' | 'creditsUsed'>) => ({
  status,
  completed,
  total,
  creditsUsed,
});

/**
 * The progress query of a closed run. A replay that failed once in a full run (a nondeterminism at
 * the `batches-wait-for-work` marker, never seen alone) reports the history's events with the error.
 */
async function queryClosed(handle: ReturnType<typeof handleOf>): Promise<JobProgress> {
  try {
    return await handle.query(progressQuery);
  } catch (err) {
    const events = (JSON.parse(historyToJSON(await handle.fetchHistory())) as { events: { eventId: string; eventType: string }[] }).events;
    throw new Error(`${(err as Error).message}\nthe run's events: ${events.map((e) => `${e.eventId} ${e.eventType}`).join(', ')}`, { cause: err });
  }
}

describe('crawl progress in the Temporal UI', () => {
  it('advances while the crawl runs, and agrees with GET /v2/crawl/{id} while it waits out its delay', async () => {
    // One page per batch, 1.5 s apart: the crawl is observably mid-way for a while.
    const id = await startCrawl({ delay: 1.5, limit: 100 });
    const handle = handleOf(id);

    const first = await waitFor('a first page stored', async () => {
      const p = await handle.query(progressQuery);
      return p.completed >= 1 && p.status === 'scraping' ? p : undefined;
    });
    expect(first.queued + first.completed + first.failed).toBeLessThanOrEqual(PAGES);
    expect(await currentDetails(handle)).toMatch(/^(scraping: |waiting [\d.]+ m?s \(delay between pages\) · )\d+ stored, \d+ queued, 0 failed/);
    const firstAttrs = await attributes(id);
    expect(firstAttrs.crawled).toBeGreaterThanOrEqual(1);

    // While the workflow sleeps between pages nothing runs, so the counts it learnt from the last
    // batch are the database's: the query, the search attributes and GET /v2/crawl/{id} agree.
    const checked = await waitFor('a consistent look at the crawl during a delay', async () => {
      const before = await handle.query(progressQuery);
      // Later than the first look: the counts have moved on.
      if (before.phase !== 'delay' || before.completed <= first.completed) return undefined;
      const body = await (await h.api(`/v2/crawl/${id}`)).json();
      const attrs = await attributes(id);
      const details = await currentDetails(handle);
      const after = await handle.query(progressQuery);
      // The timer fired in between: try again at the next delay.
      if (after.phase !== 'delay' || after.batchesStarted !== before.batchesStarted) return undefined;
      return { progress: after, body, attrs, details };
    });
    const { progress, body, attrs, details } = checked;
    expect(statusCounts(progress)).toEqual(statusCounts(body));
    expect(progress).toMatchObject({ status: 'scraping', phase: 'delay', batchesInFlight: 0, delayMs: expect.any(Number) });
    expect(attrs).toEqual({ crawled: progress.completed, queued: progress.queued });
    expect(attrs.crawled).toBeGreaterThan(firstAttrs.crawled!);
    expect(details).toMatch(
      new RegExp(`^waiting [\\d.]+ m?s \\(delay between pages\\) · ${progress.completed} stored, ${progress.queued} queued, 0 failed · `),
    );

    const end = await waitForCrawl(h, id);
    expect(end).toMatchObject({ status: 'completed', completed: PAGES, total: PAGES, creditsUsed: PAGES });
    await handle.result();
    // A closed crawl still answers (the query is answered by replaying its history).
    expect(await queryClosed(handle)).toMatchObject({
      status: 'completed',
      phase: 'ended',
      completed: PAGES,
      total: PAGES,
      failed: 0,
      queued: 0,
      creditsUsed: PAGES,
      batchesInFlight: 0,
    });
    expect(await attributes(id)).toEqual({ crawled: PAGES, queued: 0 });

    const history = await handle.fetchHistory();
    const host = new URL(site.url).host;
    const [started, ...summaries] = eventSummaries(history);
    expect(started).toEqual({ kind: 'workflow', summary: `Crawl of ${site.url}/ (limit 100)` });
    expect(summaries[0]).toEqual({ kind: 'activity', summary: `plan: robots.txt and sitemaps of ${host}` });
    expect(summaries).toContainEqual({ kind: 'activity', summary: `batch 1: up to 1 page of ${host}` });
    expect(summaries).toContainEqual({ kind: 'activity', summary: `batch ${PAGES}: up to 1 page of ${host}` });
    expect(summaries).toContainEqual({ kind: 'timer', summary: 'delay 1.5 s between pages' });
    expect(summaries.at(-1)).toEqual({ kind: 'activity', summary: 'finish: completed' });
    // With no interval, every page changed the counts and was upserted (plus the final upsert).
    expect(upsertsOf(history, 'PagesQueued')).toBeGreaterThan(2);

    // The new commands replay; RECORD_HISTORY_DIR=<dir> keeps the history as a fixture for test/unit/workflow-replay.test.ts.
    await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history, newJobWorkflowId('crawl', id));
    if (process.env.RECORD_HISTORY_DIR) {
      mkdirSync(process.env.RECORD_HISTORY_DIR, { recursive: true });
      writeFileSync(join(process.env.RECORD_HISTORY_DIR, 'crawl-progress.json'), historyToJSON(history));
    }
  });

  it('upserts the counts at most once per interval while the crawl runs', async () => {
    // The worker reads the interval per crawl (crawlSettings): an hour lets through only the first upsert.
    h.config.crawl.progressIntervalMs = 3_600_000;
    try {
      const id = await startCrawl({ delay: 0.1, limit: 100 });
      expect(await waitForCrawl(h, id)).toMatchObject({ status: 'completed', completed: PAGES });
      const handle = handleOf(id);
      await handle.result();
      const history = await handle.fetchHistory();
      // The one after planning and the final one; the batches' changes in between waited for the interval.
      expect(upsertsOf(history, 'PagesQueued')).toBe(2);
      expect(upsertsOf(history, 'PagesCrawled')).toBe(2);
      expect(await attributes(id)).toEqual({ crawled: PAGES, queued: 0 });
    } finally {
      h.config.crawl.progressIntervalMs = 0;
    }
  });

  it('is what `jobs show` says a running crawl is doing now', async () => {
    // A minute between pages: the crawl is still running whenever the CLI gets to it.
    const id = await startCrawl({ delay: 60, limit: 100 });
    const handle = handleOf(id);
    try {
      await waitFor('the first page stored', async () => (await handle.query(progressQuery)).completed >= 1);
      const text = await adminCli(h, ['jobs', 'show', id]);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/^now: +waiting [\d.]+ (s|min)( \d+ s)? \(delay between pages\) · 1 stored, \d+ queued, 0 failed · 1 credit used$/m);
      const shown = await adminCli(h, ['jobs', 'show', id, '--json']);
      expect(JSON.parse(shown.stdout)).toMatchObject({
        workflow: { status: 'RUNNING' },
        progress: { status: 'scraping', phase: 'delay', completed: 1, failed: 0, creditsUsed: 1, batchesInFlight: 0 },
      });
    } finally {
      await h.api(`/v2/crawl/${id}`, { method: 'DELETE' });
    }
  });
});
