// kill -9 of a worker under a LONG heartbeat timeout (120 s): a new worker proves the
// dead process's batches abandoned (its worker_process row stopped heartbeating) and
// fails them at once, so the crawls resume in seconds, not after the timeout, and the
// dead batches' team slots do not block their retries. And the converse: workers that
// live are never judged dead, however long their batches run.
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newJobWorkflowId } from '../../src/jobs/definitions.ts';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';

const PAGES = 24;
const HEARTBEAT_TIMEOUT_MS = 120_000;
let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  h = await startHarness({ crawl: { heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS } });
  // Slow pages keep batches in flight long enough to kill the worker mid-batch.
  site = await startFixtureSite(treeSite(PAGES), { delayMs: () => 500 });
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

/** Every attempt number of the crawl's activities that Temporal started, from its workflow's history. */
async function startedAttempts(temporal: Client, crawlId: string): Promise<number[]> {
  const history = await temporal.workflow.getHandle(newJobWorkflowId('crawl', crawlId)).fetchHistory();
  return (history.events ?? []).flatMap((e) => (e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.attempt ?? 1] : []));
}

/** The failures that made the crawl's running activities retry, while they are pending. */
async function retryFailures(temporal: Client, crawlId: string): Promise<string[]> {
  const { raw } = await temporal.workflow.getHandle(newJobWorkflowId('crawl', crawlId)).describe();
  return (raw.pendingActivities ?? []).filter((a) => (a.attempt ?? 1) > 1).map((a) => a.lastFailure?.message ?? '');
}

async function heldByTeam(teamId: string): Promise<{ slots: number; leases: number }> {
  const slots = await h.db.teamSlot.count({ where: { teamId, holder: { not: null } } });
  const leases = await h.db.browserLease.count({ where: { teamId } });
  return { slots, leases };
}

async function expectEveryPageOnce(id: string, status: { status: string; completed?: unknown }): Promise<void> {
  expect(status.status).toBe('completed');
  expect(await h.db.jobPage.findMany({ where: { jobId: id, success: false }, select: { url: true, error: true } })).toEqual([]);
  expect(status.completed).toBe(PAGES);
  expect(await h.db.jobPage.count({ where: { jobId: id } })).toBe(PAGES);
  expect(await h.db.jobUrl.count({ where: { jobId: id, state: { not: 'done' } } })).toBe(0);
}

it('resumes the crawls of two teams within seconds of a kill -9 of their worker, every page once', async () => {
  // A limit of 2: the dead batch's two slots, if not freed, would hold its retry for twice the heartbeat timeout.
  const teams = [await h.newTeam({ concurrencyLimit: 2 }), await h.newTeam({ concurrencyLimit: 3 })];
  const first = await h.spawnWorker();
  const ids: string[] = [];
  for (const team of teams) {
    const started = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 100 }, key: team.apiKey })).json();
    ids.push(started.id as string);
  }
  await waitFor(
    'pages stored while both crawls have batches in flight',
    async () => {
      for (const id of ids) {
        if ((await h.db.jobPage.count({ where: { jobId: id } })) < 3) return false;
        if ((await h.db.jobUrl.count({ where: { jobId: id, state: 'claimed' } })) === 0) return false;
      }
      return true;
    },
    60_000,
    50,
  );
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  const killedAt = Date.now();
  // The dead process's turns at the site's host (host budget): they would count there until their leases lapse.
  const teamIds = teams.map((t) => t.teamId);
  const deadTurns = (await h.db.hostLease.findMany({ where: { teamId: { in: teamIds } }, select: { holder: true } })).map((l) => l.holder);
  expect(deadTurns.length).toBeGreaterThan(0);
  const storedAtKill = await Promise.all(ids.map((id) => h.db.jobPage.count({ where: { jobId: id } })));
  expect(storedAtKill.every((n) => n < PAGES)).toBe(true);

  await h.spawnWorker();
  // The retries were caused by the dead process being found out, not by a missed heartbeat.
  const seen = new Map<string, string[]>();
  await waitFor(
    'the dead batches of both crawls to be retried',
    async () => {
      for (const id of ids) seen.set(id, [...(seen.get(id) ?? []), ...(await retryFailures(h.temporal, id))]);
      return ids.every((id) => seen.get(id)!.length > 0);
    },
    HEARTBEAT_TIMEOUT_MS,
    100,
  );
  const failures = [...seen.values()].flat();
  for (const message of failures) expect(message).toMatch(/^worker process [0-9a-f-]+ stopped heartbeating \d+ s ago$/);
  // Freed with the dead attempts' team slots, not left to lapse (a page's timeout and 30 s).
  await waitFor(
    "the dead attempts' host turns to be given back",
    async () => (await h.db.hostLease.count({ where: { holder: { in: deadTurns } } })) === 0,
    10_000,
    100,
  );
  await waitFor(
    'a page stored after the kill by each crawl',
    async () => (await Promise.all(ids.map((id) => h.db.jobPage.count({ where: { jobId: id } })))).every((n, i) => n > storedAtKill[i]!),
    HEARTBEAT_TIMEOUT_MS,
    50,
  );
  const nextPageS = (Date.now() - killedAt) / 1000;
  const statuses = [];
  // Within the heartbeat timeout: waiting it out (no reconciler), or for the dead slots' leases (twice it), never gets there.
  for (const [i, id] of ids.entries()) statuses.push(await waitForCrawl(h, id, killedAt + HEARTBEAT_TIMEOUT_MS - Date.now(), teams[i]!.apiKey));
  const completedS = (Date.now() - killedAt) / 1000;
  console.log(
    `worker recovery (CRAWL_HEARTBEAT_TIMEOUT_MS=${HEARTBEAT_TIMEOUT_MS}, WORKER_DEAD_AFTER_MS=${h.config.worker.deadAfterMs}): ` +
      `next page stored ${nextPageS.toFixed(1)} s after the kill, both crawls completed ${completedS.toFixed(1)} s after it`,
  );

  for (const [i, id] of ids.entries()) await expectEveryPageOnce(id, statuses[i]!);
  // Nothing is left held: the dead attempts' slots were freed, the retries gave theirs back.
  for (const team of teams) expect(await heldByTeam(team.teamId)).toEqual({ slots: 0, leases: 0 });
  // A turn that ended well stays parked for at most half a second before it is given back.
  await waitFor('every host turn given back', async () => (await h.db.hostLease.count({ where: { teamId: { in: teamIds } } })) === 0, 5_000, 100);
  expect(await h.db.activityAttempt.count({ where: { workflowId: { in: ids.map((id) => newJobWorkflowId('crawl', id)) } } })).toBe(0);
});

it('never fails a batch on a live worker: two workers, long batches, no attempt beyond the first', async () => {
  // Limits of 2: each crawl's batch runs for longer than WORKER_DEAD_AFTER_MS.
  const teams = [await h.newTeam({ concurrencyLimit: 2 }), await h.newTeam({ concurrencyLimit: 2 })];
  // Quick reconciler verdicts, so that a live worker wrongly judged dead would show within the crawls.
  const env = { WORKER_DEAD_AFTER_MS: '6000' };
  await h.spawnWorker({ env });
  await h.spawnWorker({ env });
  const ids: string[] = [];
  for (const team of teams) {
    const started = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 100 }, key: team.apiKey })).json();
    ids.push(started.id as string);
  }
  // The reconcilers had something to judge: the running batches are recorded against live worker processes.
  await waitFor('batches recorded against their worker processes', async () => {
    const recorded = await h.db.activityAttempt.findMany({
      where: { workflowId: { in: ids.map((id) => newJobWorkflowId('crawl', id)) } },
      select: { workerProcess: true },
    });
    const live = await h.db.workerProcess.count({ where: { id: { in: recorded.map((r) => r.workerProcess) } } });
    return recorded.length > 0 && live > 0;
  });
  for (const [i, id] of ids.entries()) await expectEveryPageOnce(id, await waitForCrawl(h, id, 2 * HEARTBEAT_TIMEOUT_MS, teams[i]!.apiKey));
  for (const id of ids) {
    const attempts = await startedAttempts(h.temporal, id);
    expect(attempts.length).toBeGreaterThan(0);
    expect(attempts.filter((a) => a > 1)).toEqual([]);
  }
  for (const team of teams) expect(await heldByTeam(team.teamId)).toEqual({ slots: 0, leases: 0 });
  // A turn that ended well stays parked for at most half a second before it is given back.
  await waitFor(
    'every host turn given back',
    async () => (await h.db.hostLease.count({ where: { teamId: { in: teams.map((t) => t.teamId) } } })) === 0,
    5_000,
    100,
  );
});

it("scrapes within seconds a URL left claimed by a batch that is gone (an attempt that outlived its batch), not after the batch's idle wait", async () => {
  const team = await h.newTeam({ concurrencyLimit: 2 });
  await h.spawnWorker();
  const started = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 100 }, key: team.apiKey })).json();
  const id = started.id as string;
  // What a timed-out attempt that went on claiming leaves behind once its batch's last attempt ended:
  // a queued URL claimed under a key no batch of the crawl runs.
  let stray: string | undefined;
  await waitFor(
    'a queued URL to claim under a gone batch, the crawl under way',
    async () => {
      if ((await h.db.jobPage.count({ where: { jobId: id } })) < 3) return false;
      const [row] = await h.db.$queryRaw<{ url_key: string }[]>`
        UPDATE job_url SET state = 'claimed', claimed_by = 'gone-batch:0', claimed_at = now() - interval '1 minute'
        WHERE id = (SELECT id FROM job_url WHERE job_id = ${id}::uuid AND state = 'queued' ORDER BY depth DESC, id DESC LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING url_key`;
      stray = row?.url_key;
      return stray !== undefined;
    },
    60_000,
    50,
  );
  // Less than BATCH_IDLE_MS (120 s): the crawl's batch puts the claim back in the queue at its workflow's
  // next answer (every CRAWL_PROGRESS_INTERVAL_MS, 10 s), about 4 s after it went idle here.
  const status = await waitForCrawl(h, id, 60_000, team.apiKey);
  await expectEveryPageOnce(id, status);
  expect(await h.db.jobPage.count({ where: { jobId: id, urlKey: stray! } })).toBe(1);
  expect(await heldByTeam(team.teamId)).toEqual({ slots: 0, leases: 0 });
});
