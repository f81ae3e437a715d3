// An operator steering running jobs (issue 42): a batch's progress reaching its
// workflow's search attributes and current details while the batch runs; pause
// and resume (our CLI and `temporal workflow signal`) holding no slot and
// surviving a worker restart; and the `adjust` update (our CLI and `temporal
// workflow update`) lowering concurrency, raising the limit, and refusing what it
// must. RECORD_HISTORY_DIR=<dir> keeps the steered crawl's history as
// crawl-pause-adjust.json for test/unit/workflow-replay.test.ts.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobWorkflowId, progressQuery, type JobProgress } from '../../src/jobs/definitions.ts';
import { frontierUrlCounts } from '../../src/jobs/frontier/frontier-metrics.ts';
import { PagesCrawledAttribute, PagesQueuedAttribute } from '../../src/platform/temporal/search-attribute-keys.ts';
import { adminCli } from '../support/admin-cli.ts';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import { currentDetails } from '../support/workflow-ui.ts';

const run = promisify(execFile);

/** How often batches report (CRAWL_PROGRESS_INTERVAL_MS): short, so that a ~6-s crawl reports a dozen times even on a loaded machine (at 1 s it once showed only two values); the bound checked is the 15 s. */
const INTERVAL_MS = 500;
const MAX_LAG_MS = 15_000;

let h: Harness;
let steered: FixtureSite;
let big: FixtureSite;

beforeAll(async () => {
  h = await startHarness({ crawl: { progressIntervalMs: INTERVAL_MS } });
  await h.startWorker();
  // Slow pages: a crawl is caught mid-way, and one batch of 150 pages lasts several reports.
  steered = await startFixtureSite(treeSite(200), { delayMs: () => 250 });
  big = await startFixtureSite(treeSite(150), { delayMs: () => 150 });
}, 60_000);

afterAll(async () => {
  await steered?.close();
  await big?.close();
  await h?.stop();
});

async function startCrawl(site: FixtureSite, body: Record<string, unknown>): Promise<string> {
  const res = await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, sitemap: 'skip', ...body } });
  expect(res.status).toBe(200);
  return (await res.json()).id;
}

const workflowIdOf = async (id: string) => jobWorkflowId(await h.db.job.findUniqueOrThrow({ where: { id }, select: { id: true, workflowId: true } }));
const handleOf = async (id: string) => h.temporal.workflow.getHandle(await workflowIdOf(id));
const progress = async (id: string): Promise<JobProgress> => (await handleOf(id)).query(progressQuery);
const stored = (id: string) => h.db.jobPage.count({ where: { jobId: id, success: true } });
const pageHits = (site: FixtureSite) => [...site.hits].filter(([path]) => path !== '/robots.txt').reduce((n, [, hits]) => n + hits, 0);

/** The Temporal CLI against the harness's server, as an operator runs it. */
async function temporalCli(args: string[]): Promise<{ code: number; out: string }> {
  const connection = ['--address', h.config.temporal.address!, '--namespace', h.config.temporal.namespace];
  try {
    const { stdout, stderr } = await run(process.env.TEMPORAL_CLI_PATH!, [...args, ...connection]);
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

async function paused(id: string): Promise<JobProgress> {
  return waitFor(`crawl ${id} paused with no batch left`, async () => {
    const p = await progress(id);
    return p.phase === 'paused' && p.batchesInFlight === 0 ? p : undefined;
  });
}

describe('steering running jobs', () => {
  it('adjusts, pauses and resumes a crawl while another shows its progress within one batch', { timeout: 300_000 }, async () => {
    const id = await startCrawl(steered, { limit: 40, maxConcurrency: 2 });
    await waitFor('a few pages stored', async () => (await stored(id)) >= 4);

    // Lower concurrency (our CLI): the batch running 2 pages is told to stop, and its successor runs 1.
    const started = (await progress(id)).batchesStarted;
    const lowered = await adminCli(h, ['jobs', 'adjust', id, '--max-concurrency', '1', '--json']);
    expect(lowered.code, lowered.stderr).toBe(0);
    expect(JSON.parse(lowered.stdout).inForce).toMatchObject({ limit: 40, maxConcurrency: 1, pagesAtOnce: 1 });
    expect(steered.maxInFlight()).toBe(2);
    await waitFor('a batch under the new concurrency', async () => (await progress(id)).batchesStarted > started);
    steered.resetMaxInFlight();
    const storedAtOne = await stored(id);
    await waitFor('pages stored one at a time', async () => (await stored(id)) >= storedAtOne + 3);
    expect(steered.maxInFlight()).toBe(1);

    // Paused by our CLI: the batch finishes its page in flight, then the job holds nothing.
    const paused1 = await adminCli(h, ['jobs', 'pause', id, '--by', 'ops@example']);
    expect(paused1.code, paused1.stderr).toBe(0);
    const held = await paused(id);
    expect(held.paused?.by).toBe('ops@example');
    expect(await currentDetails(await handleOf(id))).toMatch(/^paused since \d{4}-\d\d-\d\dT[\d:.]+Z by ops@example · \d+ stored/);
    const status = await (await h.api(`/v2/crawl/${id}`)).json();
    expect(status).toMatchObject({ status: 'scraping' });
    expect(status.warning).toMatch(/^Paused since .* by ops@example/);
    expect(await h.db.teamSlot.count({ where: { teamId: h.teamId, holder: { not: null } } })).toBe(0);
    // Its frontier counts as paused, not queued: the no-progress alert leaves it alone.
    const pausedUrls = await h.db.jobUrl.count({ where: { jobId: id, state: 'queued' } });
    expect(pausedUrls).toBeGreaterThan(0);
    expect((await frontierUrlCounts(h.db)).find((r) => r.kind === 'crawl' && r.state === 'paused')?.n).toBeGreaterThanOrEqual(pausedUrls);
    const hitsWhenHeld = pageHits(steered);
    const storedWhenHeld = await stored(id);

    // A deploy while paused: the new worker replays the run, which stays paused.
    await h.stopWorkers();
    await h.startWorker();
    expect((await progress(id)).paused).toEqual(held.paused);

    // The team's slots are free: another crawl of the team runs at its full concurrency, reporting
    // its progress while its one batch runs.
    const other = await startCrawl(big, { limit: 150, maxConcurrency: 4 });
    const samples: { at: number; attr: number; details: string; stored: number }[] = [];
    // The three reads at once and often: on a loaded machine, one after the other every 250 ms saw only
    // two values of the ~6-s crawl.
    const otherHandle = await handleOf(other);
    for (;;) {
      const [d, count, details] = await Promise.all([otherHandle.describe(), stored(other), currentDetails(otherHandle)]);
      const attr = d.typedSearchAttributes.get(PagesCrawledAttribute) ?? 0;
      samples.push({ at: Date.now(), attr, details, stored: count });
      if (d.status.name !== 'RUNNING') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const final = await waitForCrawl(h, other);
    expect(final).toMatchObject({ status: 'completed', completed: 150 });
    expect(big.maxInFlight()).toBe(4);
    const running = samples.slice(0, -1);
    expect((await (await handleOf(other)).describe()).typedSearchAttributes.get(PagesQueuedAttribute)).toBe(0);
    // One batch, and yet the attribute and the details moved at least three times before its end.
    expect((await progress(other)).batchesStarted).toBe(1);
    expect(new Set(running.map((s) => s.attr).filter((n) => n > 0 && n < 150)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(running.map((s) => s.details).filter((d) => d.startsWith('scraping: '))).size).toBeGreaterThanOrEqual(3);
    // Each value shown was the stored count of at most 15 s before.
    for (const s of running) {
      const before = samples.filter((b) => b.at <= s.at - MAX_LAG_MS).at(-1);
      if (before) expect(s.attr).toBeGreaterThanOrEqual(before.stored);
      expect(s.attr).toBeLessThanOrEqual(s.stored);
    }

    // Nothing of the paused crawl was fetched meanwhile.
    expect(pageHits(steered)).toBe(hitsWhenHeld);
    expect(await stored(id)).toBe(storedWhenHeld);

    // Refusals change nothing: below the pages stored (our CLI), above the team's limit, an unknown field (`temporal`).
    const below = await adminCli(h, ['jobs', 'adjust', id, '--limit', '2']);
    expect(below.code).not.toBe(0);
    expect(below.stderr).toMatch(/limit 2 is below the \d+ pages already (stored|scraped)/);
    const above = await adminCli(h, ['jobs', 'adjust', id, '--max-concurrency', '99']);
    expect(above.stderr).toMatch(/maxConcurrency 99 is above the team's concurrency limit of 4/);
    const unknown = await temporalCli(['workflow', 'update', 'execute', '--workflow-id', await workflowIdOf(id), '--name', 'adjust', '--input', '{"depth":3}']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.out).toMatch(/unknown field depth/);
    const row = await h.db.job.findUniqueOrThrow({ where: { id } });
    expect(row.options).toMatchObject({ limit: 40, maxConcurrency: 1 });

    // Raise the limit and the concurrency again (`temporal workflow update`, while paused).
    const raised = await temporalCli([
      'workflow',
      'update',
      'execute',
      '--workflow-id',
      await workflowIdOf(id),
      '--name',
      'adjust',
      '--input',
      '{"limit":60,"maxConcurrency":4}',
    ]);
    expect(raised.code, raised.out).toBe(0);
    expect(raised.out).toMatch(/limit:60 maxConcurrency:4 pagesAtOnce:4/);

    // Resumed by `temporal workflow signal`.
    const resumed = await temporalCli(['workflow', 'signal', '--workflow-id', await workflowIdOf(id), '--name', 'resume', '--input', '{"by":"temporal-cli"}']);
    expect(resumed.code, resumed.out).toBe(0);
    await waitFor('the crawl scraping again', async () => (await stored(id)) > storedWhenHeld);
    expect((await (await h.api(`/v2/crawl/${id}`)).json()).warning).toBeUndefined();

    // Paused again by `temporal` with no input (sender unknown), resumed by our CLI.
    const pause2 = await temporalCli(['workflow', 'signal', '--workflow-id', await workflowIdOf(id), '--name', 'pause']);
    expect(pause2.code, pause2.out).toBe(0);
    expect((await paused(id)).paused?.by).toBe('unknown');
    const resume2 = await adminCli(h, ['jobs', 'resume', id]);
    expect(resume2.code, resume2.stderr).toBe(0);

    const done = await waitForCrawl(h, id);
    // Every page once, each charged once, past the first limit.
    expect(done).toMatchObject({ status: 'completed', completed: 60, total: 60, creditsUsed: 60 });
    const fetched = [...steered.hits].filter(([path]) => path !== '/robots.txt');
    expect(fetched).toHaveLength(60);
    expect(fetched.every(([, hits]) => hits === 1)).toBe(true);

    // Only a running job is steered, and an adjustment must say what.
    const ended = await adminCli(h, ['jobs', 'pause', id]);
    expect([ended.code, ended.stderr]).toEqual([1, expect.stringMatching(/is completed: only a running job is paused, resumed or adjusted/)]);
    expect((await adminCli(h, ['jobs', 'adjust', id])).code).toBe(2);

    // A paused job is cancelled as any running one (DELETE /v2/crawl/{id}).
    const third = await startCrawl(big, { limit: 30, maxConcurrency: 1 });
    await waitFor('the third crawl scraping', async () => (await stored(third)) >= 1);
    expect((await adminCli(h, ['jobs', 'pause', third])).code).toBe(0);
    await paused(third);
    expect((await (await h.api(`/v2/crawl/${third}`, { method: 'DELETE' })).json()).status).toBe('cancelled');
    await waitFor('the paused crawl cancelled', async () => (await (await handleOf(third)).describe()).status.name === 'CANCELLED');
    const cancelled = await (await h.api(`/v2/crawl/${third}`)).json();
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.warning).toBeUndefined();

    // A batch scrape pauses and resumes the same way; its status says so too. maxAge 0: the crawls
    // above left these pages in the team's page cache, whose copies would end the batch at once.
    const urls = Array.from({ length: 40 }, (_, i) => `${big.url}/p/${i + 1}`);
    const batchRes = await h.api('/v2/batch/scrape', { method: 'POST', json: { urls, maxConcurrency: 1, maxAge: 0 } });
    expect(batchRes.status).toBe(200);
    const batchId = (await batchRes.json()).id;
    await waitFor('the batch scrape scraping', async () => (await stored(batchId)) >= 1);
    expect((await adminCli(h, ['jobs', 'pause', batchId, '--by', 'ops@example'])).code).toBe(0);
    await paused(batchId);
    const batchPaused = await (await h.api(`/v2/batch/scrape/${batchId}`)).json();
    expect(batchPaused).toMatchObject({ status: 'scraping', warning: expect.stringMatching(/^Paused since .* by ops@example/) });
    expect((await adminCli(h, ['jobs', 'adjust', batchId, '--limit', '5'])).stderr).toMatch(/a batch scrape has no limit or maxDiscoveryDepth/);
    expect((await adminCli(h, ['jobs', 'resume', batchId])).code).toBe(0);
    const batchDone = await waitFor('the batch scrape done', async () => {
      const body = await (await h.api(`/v2/batch/scrape/${batchId}`)).json();
      return body.status === 'completed' ? body : undefined;
    });
    expect(batchDone).toMatchObject({ completed: 40, total: 40, creditsUsed: 40 });

    const history = await (await handleOf(id)).fetchHistory();
    const names = (history.events ?? []).flatMap(
      (e) => e.workflowExecutionSignaledEventAttributes?.signalName ?? e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name ?? [],
    );
    expect(names.filter((n) => n === 'pause')).toHaveLength(2);
    expect(names.filter((n) => n === 'adjust').length).toBeGreaterThanOrEqual(2);
    if (process.env.RECORD_HISTORY_DIR) {
      mkdirSync(process.env.RECORD_HISTORY_DIR, { recursive: true });
      writeFileSync(join(process.env.RECORD_HISTORY_DIR, 'crawl-pause-adjust.json'), historyToJSON(history));
    }
  });
});
