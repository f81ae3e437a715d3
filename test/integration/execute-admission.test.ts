// The session workflow's side of an execute run through the host's relay: the
// admitExecute Update counts it once and holds the idle clock; its end
// (executeEnded) or, when that never comes (a gateway that died), its lease's end
// starts the idle clock again, even for an execute that ran past activityTtl.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { admitExecuteUpdate, executeEndedSignal, sessionWorkflowId, stateQuery } from '../../src/features/browser-sessions/protocol/definitions.ts';
import { newJobWorkflowId } from '../../src/jobs/definitions.ts';
import { executeInSession, isUnknownUpdate } from '../../src/features/browser-sessions/gateway/execute-in-session.ts';
import { EXECUTE_ANSWER_GRACE_MS } from '../../src/features/browser-sessions/protocol/execute-limits.ts';
import { createLogger } from '../../src/platform/log.ts';
import { page, startFixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  await h.startBrowserHost();
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

async function createSession(body: Record<string, unknown>) {
  const res = await h.api('/v2/browser', { method: 'POST', json: body });
  const json = await res.json();
  expect(json.success, JSON.stringify(json)).toBe(true);
  return { id: json.id as string, handle: h.temporal.workflow.getHandle(sessionWorkflowId(json.id)) };
}

const admit = (handle: ReturnType<typeof h.temporal.workflow.getHandle>, executeId: string, leaseMs: number) =>
  handle.executeUpdate(admitExecuteUpdate, { args: [{ executeId, leaseMs }], updateId: executeId });

/** Ends with the session's row once the session has ended. */
const ended = (id: string, timeoutMs: number) =>
  waitFor(
    `session ${id} to end`,
    async () => {
      const row = await h.db.browserSession.findUniqueOrThrow({ where: { id } });
      return row.endedAt ? row : undefined;
    },
    timeoutMs,
  );

it('counts an admitted execute once, however often its admission is repeated', async () => {
  const { id, handle } = await createSession({ ttl: 120, activityTtl: 60 });
  const first = await admit(handle, 'one', 30_000);
  expect(first.hostId).toBe((await h.db.browserSession.findUniqueOrThrow({ where: { id } })).hostId);
  await admit(handle, 'one', 30_000);
  expect(await handle.query(stateQuery)).toMatchObject({ executes: 1, executing: 1 });
  await handle.signal(executeEndedSignal, { executeId: 'one' });
  await waitFor('the execute to end', async () => (await handle.query(stateQuery)).executing === 0);
  expect((await handle.query(stateQuery)).executes).toBe(1);
  await h.api(`/v2/browser/${id}`, { method: 'DELETE' });
}, 60_000);

it('holds the idle clock while an execute runs, and starts it again at its end or at its lease end', async () => {
  // Both sessions idle out after 10 s. A's execute never signals its end: its lease (6 s) lets go
  // of the clock. B's execute runs past activityTtl and then ends: the clock starts at that end.
  const a = await createSession({ ttl: 300, activityTtl: 10 });
  const b = await createSession({ ttl: 300, activityTtl: 10 });
  const admittedA = Date.now();
  await admit(a.handle, 'a', 6_000);
  await admit(b.handle, 'b', 120_000);
  await new Promise((r) => setTimeout(r, 12_000));
  expect((await h.db.browserSession.findUniqueOrThrow({ where: { id: b.id } })).status).toBe('active');
  const endedB = Date.now();
  await b.handle.signal(executeEndedSignal, { executeId: 'b' });

  const rowA = await ended(a.id, 30_000);
  expect(rowA.endReason).toBe('idle');
  expect(rowA.endedAt!.getTime() - admittedA).toBeGreaterThanOrEqual(16_000);
  const rowB = await ended(b.id, 30_000);
  expect(rowB.endReason).toBe('idle');
  // Idle from the execute's end: not at the admission's 10 s, nor held until the lease's 120 s.
  expect(rowB.endedAt!.getTime() - endedB).toBeGreaterThanOrEqual(9_000);
  expect(rowB.endedAt!.getTime() - endedB).toBeLessThan(20_000);
}, 90_000);

it('runs executes of one session side by side, and ends the running ones with the session', async () => {
  const { id, handle } = await createSession({ ttl: 300, activityTtl: 60 });
  const execute = (code: string, timeout = 120) =>
    h
      .api(`/v2/browser/${id}/execute`, { method: 'POST', json: { code, timeout } })
      .then(async (r) => ({ status: r.status, body: await r.json(), at: Date.now() }));
  const quick = await Promise.all([execute('1 + 1'), execute('2 + 2')]);
  expect(quick.map((q) => q.body.result)).toEqual(['2', '4']);

  const long = [execute('await new Promise((r) => setTimeout(r, 100_000))'), execute('await new Promise((r) => setTimeout(r, 100_000))')];
  await waitFor('both executes to run', async () => (await handle.query(stateQuery)).executing === 2);
  const deleted = Date.now();
  expect((await h.api(`/v2/browser/${id}`, { method: 'DELETE' })).status).toBe(200);
  for (const answered of await Promise.all(long)) {
    expect(answered).toMatchObject({ status: 410, body: { code: 'SESSION_DESTROYED' } });
    expect(answered.at - deleted).toBeLessThan(15_000);
  }
  expect((await handle.query(stateQuery)).executes).toBe(4);
}, 90_000);

it('tells a workflow without admitExecute (a worker of the build before) by its refusal, which the gateway falls back on', async () => {
  // A running crawl stands in for such a workflow: it has no handler for the Update either.
  const site = await startFixtureSite({ '/': page('Slow', '<p>slow</p>') }, { delayMs: () => 20_000 });
  try {
    const crawl = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 1 } })).json();
    expect(crawl.success, JSON.stringify(crawl)).toBe(true);
    const refusal = await admit(h.temporal.workflow.getHandle(newJobWorkflowId('crawl', crawl.id)), 'x', 1000).catch((err: unknown) => err);
    expect(isUnknownUpdate(refusal), String(refusal)).toBe(true);
    await h.api(`/v2/crawl/${crawl.id}`, { method: 'DELETE' });
  } finally {
    await site.close();
  }
  // A session's own refusal is no such thing.
  const { id, handle } = await createSession({ ttl: 120, activityTtl: 60 });
  await h.api(`/v2/browser/${id}`, { method: 'DELETE' });
  await handle.result();
  expect(isUnknownUpdate(await admit(handle, 'late', 1000).catch((err: unknown) => err))).toBe(false);
}, 90_000);

it('runs the executes of several teams and sessions at once, beside a crawl and a scrape of slow script-rendered pages, and leaves nothing held', async () => {
  const teams = [{ apiKey: h.apiKey, teamId: h.teamId }, await h.newTeam({ concurrencyLimit: 4 })];
  const rendered = (i: number) => page(`Rendered ${i}`, `<div id="out"></div><a href="/p${i + 1}">next</a><script>out.textContent = 'rendered ${i}'</script>`);
  const site = await startFixtureSite(Object.fromEntries([0, 1, 2, 3, 4].map((i) => [i === 0 ? '/' : `/p${i}`, rendered(i)])), { delayMs: () => 400 });
  const sessions = await Promise.all(
    teams.flatMap(({ apiKey }) =>
      [0, 1].map(async () => {
        const res = await h.api('/v2/browser', { method: 'POST', json: { ttl: 120, activityTtl: 60 }, key: apiKey });
        const body = await res.json();
        expect(body.success, JSON.stringify(body)).toBe(true);
        return { id: body.id as string, apiKey };
      }),
    ),
  );
  const runs = sessions.flatMap((s, i) =>
    (
      [
        ['node', `'${i}-' + 1`],
        ['python', `print('${i}-2')`],
        ['bash', `echo ${i}-3`],
        ['node', `'${i}-' + 4`],
      ] as const
    ).map(async ([language, code], k) => {
      const res = await h.api(`/v2/browser/${s.id}/execute`, { method: 'POST', json: { language, code }, key: s.apiKey });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.error, JSON.stringify(body)).toBeNull();
      expect(body.result.trim()).toBe(`${i}-${k + 1}`);
    }),
  );
  const crawl = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 5 }, key: teams[1].apiKey })).json();
  expect(crawl.success, JSON.stringify(crawl)).toBe(true);
  const scrape = h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/p2`, formats: ['markdown'] }, key: teams[0].apiKey }).then((r) => r.json());
  await Promise.all(runs);
  expect((await scrape).data.markdown).toContain('rendered 2');
  expect((await waitForCrawl(h, crawl.id, 120_000, teams[1].apiKey)).data.length).toBe(5);
  await site.close();
  // Another team's session is not there for this key.
  const foreign = await h.api(`/v2/browser/${sessions[0].id}/execute`, { method: 'POST', json: { code: '1' }, key: sessions[2].apiKey });
  expect(foreign.status).toBe(404);
  for (const s of sessions) {
    const handle = h.temporal.workflow.getHandle(sessionWorkflowId(s.id));
    await waitFor('every execute of the session to end', async () => (await handle.query(stateQuery)).executing === 0);
    expect((await handle.query(stateQuery)).executes).toBe(4);
    expect((await h.api(`/v2/browser/${s.id}`, { method: 'DELETE', key: s.apiKey })).status).toBe(200);
  }
  const teamIds = teams.map((t) => t.teamId);
  await waitFor('every slot, browser lease and demand of both teams to be free', async () => {
    const [slots, leases, demand, live] = await Promise.all([
      h.db.teamSlot.count({ where: { teamId: { in: teamIds }, holder: { not: null } } }),
      h.db.browserLease.count({ where: { teamId: { in: teamIds } } }),
      h.db.browserDemand.count({ where: { teamId: { in: teamIds } } }),
      h.db.browserSession.count({ where: { teamId: { in: teamIds }, status: { in: ['starting', 'active'] } } }),
    ]);
    return slots + leases + demand + live === 0;
  });
}, 180_000);

it('runs no code for a request answered before its admission came back (a 503 its client sends again), and frees the admission', async () => {
  const { id, handle } = await createSession({ ttl: 120, activityTtl: 60 });
  const row = await h.db.browserSession.findUniqueOrThrow({ where: { id } });
  const deps = { db: h.db, temporal: h.temporal, log: createLogger('error', { process: 'test' }) };
  const input = { language: 'node' as const, code: `await page.evaluate(() => { document.title = 'ran' })`, timeoutMs: 30_000 };
  const answered = { waiting: () => false, running: vi.fn() };
  await expect(executeInSession(deps, row, input, answered)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  expect(answered.running).not.toHaveBeenCalled();
  await waitFor('the admission to be let go', async () => (await handle.query(stateQuery)).executing === 0);

  const waiting = { waiting: () => true, running: vi.fn() };
  const readTitle = async () => (await executeInSession(deps, row, { ...input, code: 'await page.title()' }, waiting)).result;
  expect(await readTitle()).not.toBe('ran');
  expect(waiting.running).toHaveBeenCalledWith(30_000 + EXECUTE_ANSWER_GRACE_MS);
  // The same code for a request still waiting runs, in the same page.
  expect(await executeInSession(deps, row, input, waiting)).toMatchObject({ error: null });
  expect(await readTitle()).toBe('ran');
  await h.api(`/v2/browser/${id}`, { method: 'DELETE' });
}, 60_000);
