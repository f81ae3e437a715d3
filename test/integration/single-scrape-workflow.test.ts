// How POST /v2/scrape runs on Temporal (issue 29): a durable crawlWorkflow per scrape on the
// scrape queue, started with its scrapeSettled update (update-with-start), its settings, plan and browser
// demand one local activity in the first workflow task, its page a scrapeBatch activity, its
// finish an activity after the caller has its answer. A worker killed while it loads the page:
// the next worker stores and charges it exactly once, and the caller still gets its document.
// RECORD_HISTORY_DIR=<dir> records single-scrape-patch-baseline.json (the 'job-patch-baseline'
// marker); single-scrape-one-local-activity.json and single-scrape.json were recorded before it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import protos from '@temporalio/proto';
import { afterAll, beforeAll, expect, inject, it, onTestFinished } from 'vitest';
import { newJobWorkflowId } from '../../src/jobs/definitions.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';

const EventType = protos.temporal.api.enums.v1.EventType;

let h: Harness;
let site: FixtureSite;
let releaseSlow: () => void = () => undefined;
let releaseShot: () => void = () => undefined;

beforeAll(async () => {
  h = await startHarness({ crawl: { heartbeatTimeoutMs: 3000 } });
  const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
  const shotGate = new Promise<void>((resolve) => (releaseShot = resolve));
  site = await startFixtureSite({
    '/': page('Home', '<main><h1>Hello</h1><p>Some text.</p></main>'),
    // Answers only once the test lets it: the worker that fetches it first is killed meanwhile.
    '/slow': () => ({
      ...(site.hits.get('/slow')! === 1 && { until: slowGate }),
      headers: { 'content-type': 'text/html' },
      body: page('Slow', '<main><h1>Slow</h1></main>'),
    }),
    // Loads in Chromium (a screenshot needs it) until the test lets it.
    '/shot': () => ({ until: shotGate, headers: { 'content-type': 'text/html' }, body: page('Shot', '<main><h1>Shot</h1></main>') }),
  });
});

afterAll(async () => {
  releaseSlow();
  releaseShot();
  await site?.close();
  await h?.stop();
});

it('answers once the page is stored, opens in one local activity, completes its update before its finish, and replays', async () => {
  const worker = await h.spawnWorker();
  // The next test kills its own worker: this one must be gone by then.
  const stopped = new Promise((r) => worker.once('exit', r));
  onTestFinished(async () => {
    worker.kill('SIGTERM');
    await stopped;
  });
  const res = await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/`, formats: ['markdown'], maxAge: 0 } });
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.data.markdown).toContain('# Hello');
  const id = body.data.metadata.scrapeId as string;
  const handle = h.temporal.workflow.getHandle(newJobWorkflowId('scrape', id));
  expect(await handle.result()).toMatchObject({ status: 'completed', pagesHandled: 1 });

  const history = await handle.fetchHistory();
  const events = history.events ?? [];
  const types = events.map((e) => e.eventType);
  const activities = events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
  // The plan is no activity task of its own; the page and the finish are.
  expect(activities).toEqual(['scrapeBatch', 'finishCrawl']);
  // The run, its page and its finish on the scrape queue: the worker that schedules the page takes it itself.
  expect((await handle.describe()).taskQueue).toBe(h.config.temporal.scrapeTaskQueue);
  const queues = events.map((e) => e.activityTaskScheduledEventAttributes?.taskQueue?.name).filter(Boolean);
  expect(queues).toEqual([h.config.temporal.scrapeTaskQueue, h.config.temporal.scrapeTaskQueue]);
  // Settings, plan and the batch's browser demand: one local activity.
  expect(events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity')).toHaveLength(1);
  const patches = events
    .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
    .flatMap((e) => Object.values(e.markerRecordedEventAttributes!.details!).map((d) => Buffer.from(d.payloads![0]!.data!).toString()));
  // One marker stands for every patch before it (and one TemporalChangeVersion upsert follows it).
  expect(patches).toEqual(['{"id":"job-patch-baseline","deprecated":false}']);
  const upserted = events.flatMap((e) => Object.keys(e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {}));
  expect(upserted.filter((key) => key === 'TemporalChangeVersion')).toHaveLength(1);
  // The answer (the update's completion) comes before the finish is done.
  const updateCompleted = types.indexOf(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED);
  expect(types).toContain(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED);
  expect(updateCompleted).toBeLessThan(
    types.indexOf(EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, types.lastIndexOf(EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)),
  );
  // Shown in the Temporal UI as every job is, and finished in the database.
  expect(await (await handle.describe()).staticSummary()).toBe(`Scrape of ${site.url}/`);
  expect((await h.db.job.findUniqueOrThrow({ where: { id } })).status).toBe('completed');
  expect(await h.db.usageEntry.count({ where: { jobId: id } })).toBe(1);

  await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history, newJobWorkflowId('scrape', id));
  if (process.env.RECORD_HISTORY_DIR) {
    mkdirSync(process.env.RECORD_HISTORY_DIR, { recursive: true });
    writeFileSync(join(process.env.RECORD_HISTORY_DIR, 'single-scrape-patch-baseline.json'), historyToJSON(history));
  }
});

it('survives a worker killed with SIGKILL while it loads the page: stored and charged once, answered', { timeout: 180_000 }, async () => {
  const { apiKey } = await h.newTeam({ concurrencyLimit: 2 });
  const first = await h.spawnWorker();
  const answer = h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/slow`, formats: ['markdown'], maxAge: 0, timeout: 150_000 }, key: apiKey });
  await waitFor('the first worker to fetch the page', async () => (site.hits.get('/slow') ?? 0) > 0, 60_000, 20);
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  await h.spawnWorker();
  const res = await answer;
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.data.markdown).toContain('# Slow');
  const id = body.data.metadata.scrapeId as string;
  expect(await h.temporal.workflow.getHandle(newJobWorkflowId('scrape', id)).result()).toMatchObject({ status: 'completed', pagesHandled: 1 });
  expect(await h.db.jobPage.count({ where: { jobId: id } })).toBe(1);
  expect(await h.db.usageEntry.count({ where: { jobId: id } })).toBe(1);
  releaseSlow();
});

it('takes its browser lease when its page goes to Chromium, and gives it back', { timeout: 120_000 }, async () => {
  const { teamId, apiKey } = await h.newTeam();
  await h.spawnWorker();
  const answer = h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/shot`, formats: ['screenshot'], maxAge: 0 }, key: apiKey });
  // Its batch met its demand and, opening Chromium for the page, leased a browser like any batch.
  await waitFor('the page loading in Chromium under a browser lease', async () => (await h.db.browserLease.count({ where: { teamId } })) === 1, 60_000, 20);
  expect(await h.db.browserDemand.count({ where: { teamId } })).toBe(0);
  releaseShot();
  const res = await answer;
  expect(res.status).toBe(200);
  expect((await res.json()).data.screenshot).toBeTruthy();
  await waitFor('the lease given back', async () => (await h.db.browserLease.count({ where: { teamId } })) === 0, 30_000, 20);
});
