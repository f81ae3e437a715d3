// A deployment spread over machines, on one machine: PostgreSQL and Temporal once,
// then two gateways, two workers and two browser hosts as separate processes (as
// `npm run gateway|worker|browser-host` runs them on separate machines). Crawls of
// two teams and four sessions go through both gateways; then one process of each
// kind is killed with SIGKILL mid-work. Every crawl completes with every page
// once, sessions on the surviving host keep working through the surviving
// gateway, and sessions on the killed host end `error` with the reason.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import { exited } from '../support/npm-start.ts';

const PAGES = 20;
let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  h = await startHarness({ crawl: { heartbeatTimeoutMs: 3000 } });
  // Slow pages keep batches of both workers in flight when one is killed: past the first few pages of a crawl
  // (stored quickly, so the test knows every crawl runs), each page takes long enough that no crawl can finish first.
  site = await startFixtureSite(treeSite(PAGES), { delayMs: (path) => (/^\/p\/([4-9]|\d\d)/.test(path) ? 1500 : 100) });
});

afterAll(async () => {
  await h?.stop();
  await site?.close();
});

it('keeps every crawl and the surviving sessions going when one gateway, one worker and one host are killed', async () => {
  // Two sessions at most per host, so four sessions land on both.
  const sessionLimit = { BROWSER_HOST_MAX_SESSIONS: '2' };
  const workers = [await h.spawnWorker(), await h.spawnWorker()];
  const hosts = [await h.spawnBrowserHost({ env: sessionLimit }), await h.spawnBrowserHost({ env: sessionLimit })];
  const gateways = [await h.spawnGateway({ env: sessionLimit }), await h.spawnGateway({ env: sessionLimit })];
  const other = await h.newTeam();
  const teams = [h.apiKey, other.apiKey];
  const call = async (gateway: number, team: number, path: string, init: { method?: string; json?: unknown } = {}) => {
    const answer = await fetch(`${gateways[gateway].baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${teams[team]}`, 'content-type': 'application/json' },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    return { status: answer.status, body: (await answer.json()) as any };
  };

  const crawls: { id: string; team: number }[] = [];
  for (const [gateway, team] of [
    [0, 0],
    [1, 1],
    [0, 1],
    [1, 0],
  ]) {
    const started = await call(gateway, team, '/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 100 } });
    expect(started.body, JSON.stringify(started.body)).toMatchObject({ success: true });
    crawls.push({ id: started.body.id, team });
  }
  const sessions: { id: string; team: number; hostId: string }[] = [];
  for (const [gateway, team] of [
    [0, 0],
    [1, 1],
    [0, 1],
    [1, 0],
  ]) {
    const created = await call(gateway, team, '/v2/browser', { method: 'POST', json: { ttl: 600, activityTtl: 300 } });
    expect(created.body, JSON.stringify(created.body)).toMatchObject({ success: true });
    const { hostId } = await h.db.browserSession.findUniqueOrThrow({ where: { id: created.body.id } });
    sessions.push({ id: created.body.id, team, hostId: hostId! });
  }
  const hostIds = [...new Set(sessions.map((s) => s.hostId))];
  expect(hostIds).toHaveLength(2);

  let seen = '';
  await waitFor(
    'pages of every crawl stored while batches are in flight',
    async () => {
      const stored = await Promise.all(crawls.map(({ id }) => h.db.jobPage.count({ where: { jobId: id } })));
      const claimed = await h.db.jobUrl.count({ where: { jobId: { in: crawls.map((c) => c.id) }, state: 'claimed' } });
      seen = `pages stored per crawl ${stored.join(', ')}; URLs claimed ${claimed}`;
      return stored.every((n) => n >= 2) && claimed > 0;
    },
    90_000,
    50,
  ).catch((err: Error) => {
    throw new Error(`${err.message} (last seen: ${seen})`);
  });
  for (const child of [workers[0], hosts[0], gateways[0].child]) child.kill('SIGKILL');
  await Promise.all([exited(workers[0]), exited(hosts[0]), exited(gateways[0].child)]);

  for (const { id, team } of crawls) {
    const done = await waitForCrawl(h, id, 240_000, teams[team]);
    expect(done.status).toBe('completed');
    expect(done.completed).toBe(PAGES);
    expect(new Set(done.data.map((d) => d.metadata.sourceURL)).size).toBe(PAGES);
    expect(await h.db.jobPage.count({ where: { jobId: id } })).toBe(PAGES);
  }

  // The killed host stops heartbeating; its two sessions end `error` (which ones tells which host it ran), the others answer executes.
  const ended = await waitFor(
    'the sessions of the killed host to end',
    async () => {
      const rows = await h.db.browserSession.findMany({ where: { id: { in: sessions.map((s) => s.id) } } });
      const dead = rows.filter((r) => r.status === 'error');
      return dead.length === 2 && dead;
    },
    120_000,
  );
  const deadHost = ended[0].hostId!;
  for (const row of ended) {
    expect(row.hostId).toBe(deadHost);
    expect(row.endReason).toBe(`browser host ${deadHost} stopped responding`);
  }
  for (const session of sessions.filter((s) => s.hostId !== deadHost)) {
    const exec = await call(1, session.team, `/v2/browser/${session.id}/execute`, { method: 'POST', json: { code: '1 + 1' } });
    expect(exec.body).toMatchObject({ success: true, result: '2' });
    const deleted = await call(1, session.team, `/v2/browser/${session.id}`, { method: 'DELETE' });
    expect(deleted.body).toMatchObject({ success: true });
  }
  for (const session of sessions.filter((s) => s.hostId === deadHost)) {
    expect((await call(1, session.team, `/v2/browser/${session.id}/execute`, { method: 'POST', json: { code: '1' } })).status).toBe(410);
  }
}, 420_000);
