// The wedge of issue 23, made deterministic: a team with one slot, one HTTP lane,
// and a PDF among the links. The lane keeps its slot while it waits for its next
// page; the batch's source used to load the PDF itself, under a slot of its own,
// while the lane waited for that same source: neither could move, the batch
// heartbeated forever and every other job of the team queued behind it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitForCrawl, type Harness } from '../support/harness.ts';
import { startTeamSites, type TeamSites } from '../support/mixed-load-sites.ts';

const pdf = readFileSync('test/fixtures/pdf/report.pdf');
let h: Harness;
let site: FixtureSite;
let sites: TeamSites;
let onePage: FixtureSite;

beforeAll(async () => {
  h = await startHarness({ crawl: { rendering: 'auto' } });
  await h.startWorker();
  // Claim order is depth, then discovery order: the lane takes /a and /b (keeping its slot
  // from one to the other), and the refill started when it took /b claims /doc.pdf.
  site = await startFixtureSite({
    '/': page('Home', '<a href="/a">a</a> <a href="/b">b</a> <a href="/doc.pdf">pdf</a> <a href="/c">c</a> <a href="/d">d</a>'),
    '/a': page('A', '<p>a</p>'),
    '/b': page('B', '<p>b</p>'),
    '/c': page('C', '<p>c</p>'),
    '/d': page('D', '<p>d</p>'),
    '/doc.pdf': { headers: { 'content-type': 'application/pdf' }, body: pdf },
  });
  sites = await startTeamSites();
  onePage = await startFixtureSite({ '/': page('One', '<p>one page</p>') });
});

afterAll(async () => {
  await site?.close();
  await sites?.close();
  await onePage?.close();
  await h?.stop();
});

it('a team of one slot crawls a site with a PDF behind its HTTP pages to the end, and holds no slot after', async () => {
  const team = await h.newTeam({ concurrencyLimit: 1 });
  const start = await (await h.api('/v2/crawl', { method: 'POST', key: team.apiKey, json: { url: `${site.url}/`, limit: 20, sitemap: 'skip' } })).json();
  expect(start.success).toBe(true);
  const done = await waitForCrawl(h, start.id, 60_000, team.apiKey);
  expect(done.status).toBe('completed');
  expect(done.completed).toBe(6);
  for (const path of ['/', '/a', '/b', '/c', '/d', '/doc.pdf']) expect(site.hits.get(path), path).toBe(1);
  expect(await h.db.teamSlot.count({ where: { teamId: team.teamId, holder: { not: null } } })).toBe(0);
});

it('two crawls of one team (limit 4) started together both complete, three rounds in a row, and leave no slot held', async () => {
  // The report: a static site with posts, unsized images and a PDF, beside a one-page site.
  for (let round = 0; round < 3; round++) {
    const team = await h.newTeam({ concurrencyLimit: 4 });
    const start = (url: string) => h.api('/v2/crawl', { method: 'POST', key: team.apiKey, json: { url, limit: 100, sitemap: 'skip' } }).then((r) => r.json());
    const [big, small] = await Promise.all([start(`${sites.static.site.url}/`), start(`${onePage.url}/`)]);
    const [bigDone, smallDone] = await Promise.all([waitForCrawl(h, big.id, 60_000, team.apiKey), waitForCrawl(h, small.id, 60_000, team.apiKey)]);
    expect([bigDone.status, bigDone.completed], `round ${round}`).toEqual(['completed', sites.static.paths.length]);
    expect([smallDone.status, smallDone.completed], `round ${round}`).toEqual(['completed', 1]);
    expect(await h.db.teamSlot.count({ where: { teamId: team.teamId, holder: { not: null } } })).toBe(0);
  }
});
