// A rolling deploy of changed workflow code, as docs/operations.md ("Deploying new
// code") describes it. Build A is this tree; build B is a copy of it whose crawl and
// session workflows issue a new command (a memo upsert) behind a new patch, at points a
// running crawl or session reaches only after the switch. A crawl and a session start on
// A; B's worker starts beside it; A gets SIGTERM mid-crawl. Both runs finish on B with
// B's new path (its marker recorded by B, after the switch), no workflow task fails, and
// a crawl started on B carries the marker from its first task. A's code cannot replay a
// run that recorded B's marker: what a rollback meets.
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import protos, { type temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOWS_PATH } from '../../src/platform/temporal/workflows-path.ts';
import { REQUEST_ID_WORKFLOW_INTERCEPTORS } from '../../src/platform/temporal/request-id-activity-interceptor.ts';
import { page, startFixtureSite, treeSite, type FixtureResource, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import '../support/quiet-runtime.ts';
import { exited } from '../support/npm-start.ts';

const UNHANDLED_COMMAND = protos.temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND;

const ROOT = join(import.meta.dirname, '..', '..');
const PATCH = 'rolling-deploy-build-b';
const PAGES = 20;
// Pages from this index on answer only once the switch is over, so the crawl is mid-way at it.
const GATED_FROM = 5;

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** Replaces each anchor once; an anchor gone from the code fails the test rather than building a B without its change. */
function edit(file: string, edits: [anchor: string, replacement: string][]): void {
  let text = readFileSync(file, 'utf8');
  for (const [anchor, replacement] of edits) {
    if (!text.includes(anchor)) throw new Error(`build B: "${anchor.trim()}" is no longer in ${file}`);
    text = text.replace(anchor, replacement);
  }
  writeFileSync(file, text);
}

/** A second build in a temp dir: the sources copied and changed, everything else (dependencies, the generated Prisma client, migrations) linked. */
function makeBuildB(): string {
  const dir = mkdtempSync(join(tmpdir(), 'build-b-'));
  const generated = join(ROOT, 'src', 'generated');
  for (const entry of ['src', 'workflows', 'activities', 'package.json', 'tsconfig.json'])
    cpSync(join(ROOT, entry), join(dir, entry), { recursive: true, filter: (path) => path !== generated });
  for (const entry of ['node_modules', 'prisma', join('src', 'generated')]) symlinkSync(join(ROOT, entry), join(dir, entry));
  const memo = (field: string) => `if (patched('${PATCH}')) upsertMemo({ ${field}: 'B' });`;
  edit(join(dir, 'src/jobs/workflow.ts'), [
    ['  patched,\n', '  patched,\n  upsertMemo,\n'],
    // Evaluated in a run's first task: true only for runs B starts.
    ['  setHandler(progressQuery, () => job.progress());\n', `  ${memo('startedOn')}\n  setHandler(progressQuery, () => job.progress());\n`],
    // Reached by a running crawl after the switch: true there too, and the marker is recorded then.
    [
      "  const done = await controlActivities('finish: completed', run.limits.heartbeatTimeoutMs)",
      `  ${memo('deployedBuild')}\n  const done = await controlActivities('finish: completed', run.limits.heartbeatTimeoutMs)`,
    ],
  ]);
  edit(join(dir, 'src/features/browser-sessions/workflow/workflow.ts'), [
    ['  allHandlersFinished,\n  patched,\n} from', '  allHandlersFinished,\n  patched,\n  upsertMemo,\n} from'],
    ["  const final: SessionSummary['status']", `  ${memo('deployedBuild')}\n  const final: SessionSummary['status']`],
  ]);
  return dir;
}

const eventMs = (e: HistoryEvent) => Number(e.eventTime!.seconds) * 1000 + Math.floor((e.eventTime!.nanos ?? 0) / 1e6);

/** The events that record a `patched()` marker of `id`. */
function patchMarkers(events: HistoryEvent[], id: string): HistoryEvent[] {
  return events.filter((e) => {
    const a = e.markerRecordedEventAttributes;
    if (a?.markerName !== 'core_patch') return false;
    const data = a.details?.['patch-data']?.payloads?.[0]?.data;
    return data !== undefined && data !== null && JSON.parse(Buffer.from(data).toString()).id === id;
  });
}

/** Who completed each workflow task: the worker identity (`<pid>@<host>`) by event id. */
function taskCompleters(events: HistoryEvent[]): Map<number, string> {
  return new Map(
    events.filter((e) => e.workflowTaskCompletedEventAttributes).map((e) => [Number(e.eventId), e.workflowTaskCompletedEventAttributes!.identity ?? '']),
  );
}

describe('a rolling deploy of changed workflow code', () => {
  let h: Harness;
  let site: FixtureSite;
  let buildB: string;
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));

  beforeAll(async () => {
    buildB = makeBuildB();
    h = await startHarness({ crawl: { heartbeatTimeoutMs: 3000 } });
    const resources: Record<string, FixtureResource> = { ...treeSite(PAGES), '/session': page('Session page', '<p>a session</p>') };
    for (let i = GATED_FROM; i < PAGES; i++) {
      const html = resources[`/p/${i}`] as string;
      resources[`/p/${i}`] = () => ({ body: html, until: gate });
    }
    site = await startFixtureSite(resources);
  });

  afterAll(async () => {
    openGate?.();
    await h?.stop();
    await site?.close();
    if (buildB) rmSync(buildB, { recursive: true, force: true });
  });

  it('moves a running crawl and session from build A to build B, which finishes them on its new path', async () => {
    // A short grace: A's running batch is cancelled soon after SIGTERM and retried on B.
    const a = await h.spawnWorker({ env: { WORKER_SHUTDOWN_GRACE_MS: '1000' } });
    await h.startBrowserHost();
    const crawl = await (
      await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 100, sitemap: 'skip', scrapeOptions: { timeout: 300_000 } } })
    ).json();
    expect(crawl.success, JSON.stringify(crawl)).toBe(true);
    const session = await (await h.api('/v2/browser', { method: 'POST', json: { ttl: 600, activityTtl: 300 } })).json();
    expect(session.success, JSON.stringify(session)).toBe(true);
    const before = await (
      await h.api(`/v2/browser/${session.id}/execute`, {
        method: 'POST',
        json: { code: `await page.goto(${JSON.stringify(`${site.url}/session`)}); await page.title()` },
      })
    ).json();
    expect(before).toMatchObject({ success: true, result: 'Session page', error: null });
    await waitFor(
      'the crawl to stop at the gated pages',
      async () =>
        (await h.db.jobPage.count({ where: { jobId: crawl.id } })) >= GATED_FROM &&
        (await h.db.jobUrl.count({ where: { jobId: crawl.id, state: 'claimed' } })) > 0,
      120_000,
      100,
    );

    const b = await h.spawnWorker({ cwd: buildB });
    a.kill('SIGTERM');
    await exited(a);
    expect(a.exitCode).toBe(0);
    const switchedAt = Date.now();
    expect(await h.db.jobPage.count({ where: { jobId: crawl.id } })).toBeLessThan(PAGES);
    openGate();

    const after = await (await h.api(`/v2/browser/${session.id}/execute`, { method: 'POST', json: { code: 'await page.title()' } })).json();
    expect(after).toMatchObject({ success: true, result: 'Session page', error: null });

    const status = await waitForCrawl(h, crawl.id, 240_000);
    expect(status.status).toBe('completed');
    expect(await h.db.jobPage.findMany({ where: { jobId: crawl.id, success: false }, select: { url: true, error: true } })).toEqual([]);
    expect(status.completed).toBe(PAGES);
    expect(new Set(status.data.map((d) => d.metadata.sourceURL as string)).size).toBe(PAGES);
    expect(await h.db.jobPage.count({ where: { jobId: crawl.id } })).toBe(PAGES);

    const deleted = await (await h.api(`/v2/browser/${session.id}`, { method: 'DELETE' })).json();
    expect(deleted.success, JSON.stringify(deleted)).toBe(true);
    expect(await h.db.browserSession.findUniqueOrThrow({ where: { id: session.id } })).toMatchObject({ status: 'destroyed', endReason: 'deleted' });

    // A crawl started after the switch: B runs it from its first task.
    const late = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 3, sitemap: 'skip' } })).json();
    expect((await waitForCrawl(h, late.id, 120_000)).status).toBe('completed');

    const onA = `${a.pid}@`;
    const onB = `${b.pid}@`;
    const runs = { crawl: `crawl-${crawl.id}`, session: `browser-${session.id}`, late: `crawl-${late.id}` };
    const histories: Record<string, HistoryEvent[]> = {};
    for (const [name, workflowId] of Object.entries(runs)) {
      const handle = h.temporal.workflow.getHandle(workflowId);
      const events = (await handle.fetchHistory()).events ?? [];
      histories[name] = events;
      // A task the server refused because a signal came in while it ran (UnhandledCommand) is run
      // again with the signal: that is how Temporal takes signals, not a failure of the new code.
      expect(
        events
          .filter((e) => e.workflowTaskFailedEventAttributes && e.workflowTaskFailedEventAttributes.cause !== UNHANDLED_COMMAND)
          .map((e) => e.workflowTaskFailedEventAttributes!.failure?.message),
        name,
      ).toEqual([]);
      const markers = patchMarkers(events, PATCH);
      expect(markers, name).toHaveLength(1);
      const completers = taskCompleters(events);
      const markedBy = completers.get(Number(markers[0].markerRecordedEventAttributes!.workflowTaskCompletedEventId))!;
      expect(markedBy, name).toMatch(new RegExp(`^${onB}`));
      const { memo } = await handle.describe();
      if (name === 'late') {
        // Its first workflow task already carries the marker.
        expect(Number(markers[0].markerRecordedEventAttributes!.workflowTaskCompletedEventId)).toBe(Math.min(...completers.keys()));
        expect(memo).toMatchObject({ startedOn: 'B', deployedBuild: 'B' });
      } else {
        // Started on A; B's new path ran on it once B had taken over.
        expect([...completers.values()][0], name).toMatch(new RegExp(`^${onA}`));
        expect(eventMs(markers[0]), name).toBeGreaterThanOrEqual(switchedAt - 1000);
        expect(memo, name).toMatchObject({ deployedBuild: 'B' });
        expect(memo?.startedOn, name).toBeUndefined();
      }
    }

    // Rolling back to A: its code cannot replay a run that recorded B's marker (the SDK's core logs the failed task as a warning).
    await expect(
      Worker.runReplayHistory(
        { workflowsPath: WORKFLOWS_PATH, interceptors: { workflowModules: [REQUEST_ID_WORKFLOW_INTERCEPTORS] } },
        { events: histories.crawl },
        runs.crawl,
      ),
    ).rejects.toThrow(`Non-deprecated patch marker encountered for change ${PATCH}`);
  }, 600_000);
});
