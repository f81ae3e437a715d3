// The admin CLI's jobs and sessions commands against real crawls, batches and a
// browser session: listing across teams, inspecting, cancelling and ending
// exactly as the API's DELETE does, and failing plainly when Temporal is away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCli } from '../support/admin-cli.ts';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';

let h: Harness;
let site: FixtureSite;
let slow: FixtureSite;

/** Long past the test: a page of the slow site never answers while the crawl is cancelled. */
const SLOW_PAGE_MS = 600_000;
const NOWHERE = '127.0.0.1:1';

beforeAll(async () => {
  h = await startHarness();
  site = await startFixtureSite(treeSite(5));
  slow = await startFixtureSite(treeSite(5), { delayMs: (path) => (path.startsWith('/p/') ? SLOW_PAGE_MS : 0) });
  await h.startWorker();
  await h.startBrowserHost();
}, 120_000);

afterAll(async () => {
  await h?.stop();
  await site?.close();
  await slow?.close();
});

const cli = (...args: string[]) => adminCli(h, args);
const json = async (...args: string[]) => {
  const r = await cli(...args, '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

async function start(path: string, body: Record<string, unknown>, key: string): Promise<string> {
  const res = await h.api(path, { method: 'POST', json: body, key });
  const answer = await res.json();
  expect(res.status, JSON.stringify(answer)).toBe(200);
  return answer.id;
}

async function finished(path: string, key: string) {
  return waitFor(`${path} to finish`, async () => {
    const body = await (await h.api(path, { key })).json();
    return body.status !== 'scraping' ? body : undefined;
  });
}

async function teamName(teamId: string) {
  return (await h.db.team.findUniqueOrThrow({ where: { id: teamId } })).name;
}

describe('jobs', () => {
  let crawler: { teamId: string; apiKey: string };
  let batcher: { teamId: string; apiKey: string };
  let crawlId: string;
  let batchId: string;
  let mapId: string;

  beforeAll(async () => {
    crawler = await h.newTeam();
    batcher = await h.newTeam();
    crawlId = await start('/v2/crawl', { url: `${site.url}/`, sitemap: 'skip', limit: 3 }, crawler.apiKey);
    batchId = await start('/v2/batch/scrape', { urls: [`${site.url}/p/3`, `${site.url}/p/4`] }, batcher.apiKey);
    expect((await finished(`/v2/crawl/${crawlId}`, crawler.apiKey)).status).toBe('completed');
    expect((await finished(`/v2/batch/scrape/${batchId}`, batcher.apiKey)).status).toBe('completed');
    expect((await h.api('/v2/map', { method: 'POST', json: { url: `${site.url}/`, sitemap: 'skip' }, key: crawler.apiKey })).status).toBe(200);
    mapId = (await h.db.mapJob.findFirstOrThrow({ where: { teamId: crawler.teamId } })).id;
  }, 180_000);

  it('lists the jobs of one team by status and kind, as a table and as JSON', async () => {
    const mine = await json('jobs', 'ls', '--team', await teamName(crawler.teamId), '--status', 'completed');
    expect(mine.jobs.map((j: { id: string }) => j.id)).toEqual([mapId, crawlId]);
    expect(mine.jobs[0]).toMatchObject({ kind: 'map', teamId: crawler.teamId, status: 'completed', pagesStored: null, credits: 1 });
    expect(mine.jobs[1]).toMatchObject({ kind: 'crawl', teamId: crawler.teamId, status: 'completed', pagesStored: 3, pagesTotal: 3, credits: 3 });
    const crawls = await json('jobs', 'ls', '--team', crawler.teamId, '--kind', 'crawl');
    expect(crawls.jobs.map((j: { id: string }) => j.id)).toEqual([crawlId]);
    expect((await json('jobs', 'ls', '--team', crawler.teamId, '--limit', '1')).jobs.map((j: { id: string }) => j.id)).toEqual([mapId]);
    expect((await json('jobs', 'ls', '--team', crawler.teamId, '--status', 'cancelled')).jobs).toEqual([]);

    expect((await json('jobs', 'ls', '--team', crawler.teamId, '--status', 'scraping')).jobs).toEqual([]);
    const batches = await json('jobs', 'ls', '--kind', 'batch_scrape', '--limit', '1000');
    expect(batches.jobs.map((j: { id: string }) => j.id)).toContain(batchId);
    expect(batches.jobs.map((j: { id: string }) => j.id)).not.toContain(crawlId);

    const listed = await cli('jobs', 'ls', '--team', batcher.teamId);
    expect(listed.code).toBe(0);
    const [header, ...rows] = listed.stdout.trim().split('\n');
    expect(header).toMatch(/^ID +KIND +TEAM +STATUS +PAGES +CREDITS +CREATED +AGE$/);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(new RegExp(`^${batchId} +batch_scrape +${await teamName(batcher.teamId)} +completed +2/2 +2 +\\S+ +\\d+[smhd]`));

    expect((await cli('jobs', 'ls', '--status', 'running')).code).toBe(2);
    expect((await cli('jobs', 'ls', '--limit', '0')).code).toBe(2);
    expect((await cli('jobs', 'show', 'not-a-job')).stderr).toMatch(/"not-a-job" is not a job id/);
    expect((await cli('jobs', 'ls', '--team', 'no-such-team')).stderr).toMatch(/no team "no-such-team"/);
  });

  it('shows a job with the counts GET /v2/crawl/{id} reports and its workflow as Temporal describes it', async () => {
    const status = await (await h.api(`/v2/crawl/${crawlId}`, { key: crawler.apiKey })).json();
    const shown = await json('jobs', 'show', crawlId);
    expect(shown).toMatchObject({
      id: crawlId,
      kind: 'crawl',
      status: 'completed',
      credits: status.creditsUsed,
      pages: { stored: status.completed, total: status.total, queued: 0, failed: 0 },
      workflow: { id: `crawl-${crawlId}`, status: 'COMPLETED' },
      webhookBacklog: 0,
    });
    const text = await cli('jobs', 'show', crawlId);
    expect(text.stdout).toMatch(new RegExp(`^pages: +${status.completed} stored of ${status.total}, 0 queued, 0 failed$`, 'm'));
    expect(text.stdout).toMatch(new RegExp(`^workflow: +crawl-${crawlId}: COMPLETED$`, 'm'));

    const away = await adminCli(h, ['jobs', 'show', crawlId], NOWHERE);
    expect(away.code).toBe(0);
    expect(away.stdout).toMatch(/^workflow: .*unknown \(Temporal is not reachable at 127\.0\.0\.1:1/m);

    expect((await cli('jobs', 'show', '01890000-0000-7000-8000-000000000000')).stderr).toMatch(/no job 01890000/);

    const map = await json('jobs', 'show', mapId);
    expect(map).toMatchObject({ id: mapId, kind: 'map', status: 'completed', credits: 1, workflow: { id: `map-${mapId}`, status: 'COMPLETED' } });
    expect(map.links).toBeGreaterThan(0);
  });

  it('refuses to cancel a finished job', async () => {
    for (const id of [crawlId, batchId]) {
      const refused = await cli('jobs', 'cancel', id);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error: .*already completed/);
    }
    expect((await h.db.job.findUniqueOrThrow({ where: { id: crawlId } })).status).toBe('completed');
    const map = await cli('jobs', 'cancel', mapId);
    expect(map.code).toBe(1);
    expect(map.stderr).toMatch(/^error: A map is not cancelled/);
  });

  it('cancels a running crawl as DELETE does: the workflow ends and the team holds no slot', async () => {
    const team = await h.newTeam();
    const id = await start('/v2/crawl', { url: `${slow.url}/`, sitemap: 'skip', limit: 5 }, team.apiKey);
    // Running for sure: the root page is stored and its children are being fetched, each holding a slot.
    await waitFor('the slow crawl to wait on its pages', async () => {
      const held = await h.db.teamSlot.count({ where: { teamId: team.teamId, holder: { not: null } } });
      return held > 0 && (slow.hits.get('/p/1') ?? 0) > 0;
    });

    const unreachable = await adminCli(h, ['jobs', 'cancel', id], NOWHERE);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^error: Temporal is not reachable at 127\.0\.0\.1:1/);
    expect((await h.db.job.findUniqueOrThrow({ where: { id } })).status).toBe('scraping');

    expect(await json('jobs', 'cancel', id)).toEqual({ id, status: 'cancelled' });
    expect((await h.db.job.findUniqueOrThrow({ where: { id } })).status).toBe('cancelled');
    expect((await (await h.api(`/v2/crawl/${id}`, { key: team.apiKey })).json()).status).toBe('cancelled');
    await waitFor('the workflow to end', async () => (await h.temporal.workflow.getHandle(`crawl-${id}`).describe()).status.name !== 'RUNNING');
    expect((await h.temporal.workflow.getHandle(`crawl-${id}`).describe()).status.name).toBe('CANCELLED');
    await waitFor('the slots to be released', async () => (await h.db.teamSlot.count({ where: { teamId: team.teamId, holder: { not: null } } })) === 0);

    const again = await cli('jobs', 'cancel', id);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already cancelled/);
  }, 180_000);
});

describe('sessions', () => {
  it('lists, shows and ends a live session as DELETE /v2/browser/{id} does', async () => {
    const res = await h.api('/v2/browser', { method: 'POST', json: {} });
    const { id } = await res.json();
    expect(res.status).toBe(200);
    const name = await teamName(h.teamId);

    const live = await json('sessions', 'ls', '--team', name, '--status', 'active');
    expect(live.sessions.map((s: { id: string }) => s.id)).toContain(id);
    expect(JSON.stringify(live)).not.toMatch(/token/i);
    const table = await cli('sessions', 'ls', '--team', h.teamId);
    expect(table.stdout).toMatch(/^ID +TEAM +STATUS +HOST +CREDITS +CREATED +AGE +EXPIRES$/m);
    expect(table.stdout).toMatch(new RegExp(`^${id} +${name} +active `, 'm'));

    const shown = await json('sessions', 'show', id);
    expect(shown).toMatchObject({ id, teamId: h.teamId, status: 'active', workflow: { id: `browser-${id}`, status: 'RUNNING' } });

    const ended = await json('sessions', 'end', id);
    expect(ended).toMatchObject({ id, status: 'destroyed' });
    const row = await h.db.browserSession.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: 'destroyed', creditsBilled: ended.creditsBilled, durationMs: ended.sessionDurationMs });
    expect((await h.temporal.workflow.getHandle(`browser-${id}`).describe()).status.name).toBe('COMPLETED');
    expect((await (await h.api(`/v2/browser/${id}`)).json()).status).toBe('destroyed');

    const again = await cli('sessions', 'end', id);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already ended \(destroyed\)/);
    expect((await json('sessions', 'ls', '--team', name, '--status', 'destroyed')).sessions.map((s: { id: string }) => s.id)).toContain(id);
    expect((await json('sessions', 'ls', '--team', name, '--status', 'active')).sessions.map((s: { id: string }) => s.id)).not.toContain(id);
  }, 180_000);
});
