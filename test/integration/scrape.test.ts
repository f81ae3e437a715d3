// POST /v2/scrape and GET /v2/scrape/{id}: one page on the crawl pipeline, waited for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  // A page may load for 1.5 s (SCRAPE_PAGE_BUDGET_MS), past a shorter timeout but less than /slow takes.
  h = await startHarness({ scrape: { pageBudgetMs: 1500 } });
  await h.startWorker();
  site = await startFixtureSite(
    {
      '/': page('Home', '<main><h1>Hello</h1><p>Some text.</p><a href="/a">A</a></main>'),
      '/a': page('Page A', '<main><h1>A</h1></main>'),
      '/slow': page('Slow', '<main><h1>Slow</h1></main>'),
      '/article': page(
        'Article',
        '<main><h1>Durable crawls</h1><p>A durable crawl survives the crash of every worker that runs it.</p><p>Each page is stored exactly once, whatever restarts.</p></main>',
      ),
      '/robots.txt': 'User-agent: *\nDisallow: /a\n',
      '/redirect': { status: 302, headers: { location: '/a' } },
    },
    { delayMs: (path) => (path === '/slow' ? 4000 : 0) },
  );
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

describe('POST /v2/scrape', () => {
  it('answers the document, charges one credit, records the activity and serves GET by id', async () => {
    const before = await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } });
    const res = await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/`, formats: ['markdown', 'links', 'html'], maxAge: 0 } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.data.markdown).toContain('# Hello');
    expect(body.data.links).toContain(`${site.url}/a`);
    expect(body.data.html).toContain('Some text.');
    expect(body.data.metadata).toMatchObject({ title: 'Home', statusCode: 200, sourceURL: `${site.url}/`, concurrencyLimited: false });
    const id = body.data.metadata.scrapeId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const after = await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } });
    expect(before.creditBalance - after.creditBalance).toBe(1);
    expect(await h.db.usageEntry.findMany({ where: { jobId: id }, select: { endpoint: true, credits: true } })).toEqual([{ endpoint: 'scrape', credits: 1 }]);

    const again = await (await h.api(`/v2/scrape/${id}`)).json();
    expect(again).toEqual({ success: true, data: body.data });
    const activity = await h.db.activityLog.findFirst({ where: { teamId: h.teamId, endpoint: 'scrape', method: 'POST' }, orderBy: { createdAt: 'desc' } });
    expect(activity?.target).toBe(`${site.url}/`);
    // The scrape is no crawl: not under /v2/crawl, not in the active list.
    expect((await h.api(`/v2/crawl/${id}`)).status).toBe(404);
  });

  it('writes the summary format offline, without the markdown it was made from', async () => {
    const res = await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/article`, formats: ['summary'], maxAge: 0 } });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.data.summary).toBe('A durable crawl survives the crash of every worker that runs it. Each page is stored exactly once, whatever restarts.');
    expect(body.data).not.toHaveProperty('markdown');
    expect(body.data).not.toHaveProperty('warning');
  });

  it('applies no robots.txt rule and follows redirects anywhere, as upstream', async () => {
    const body = await (await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/redirect`, maxAge: 0 } })).json();
    expect(body.success).toBe(true);
    expect(body.data.metadata).toMatchObject({ title: 'Page A', sourceURL: `${site.url}/redirect`, url: `${site.url}/a` });
  });

  it('serves a second scrape of the page from the cache within maxAge', async () => {
    const hitsBefore = site.hits.get('/a') ?? 0;
    const first = await (await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/a` } })).json();
    const second = await (await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/a` } })).json();
    expect(second.data.markdown).toBe(first.data.markdown);
    expect(site.hits.get('/a')).toBe(hitsBefore + 1);
  });

  it('answers 408 past its timeout; the job goes on, is recorded, and GET reports how it ended', async () => {
    const res = await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/slow`, timeout: 1000, maxAge: 0 } });
    expect(res.status).toBe(408);
    expect(res.headers.get('retry-after')).toBe('5');
    const body = await res.json();
    expect(body).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT', details: { state: 'processing_continues', retryAfterSeconds: 5 } });
    const id = body.details.id;
    expect(await h.db.activityLog.count({ where: { teamId: h.teamId, endpoint: 'scrape', method: 'POST', target: `${site.url}/slow` } })).toBe(1);
    let later: Response;
    for (;;) {
      later = await h.api(`/v2/scrape/${id}`);
      if (later.status !== 409) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    // The page's load went on past the request's timeout, up to its budget, and failed there.
    expect(later.status).toBe(500);
    expect(await later.json()).toMatchObject({ success: false, code: 'SCRAPE_FAILED', error: expect.stringContaining('Timeout 1500ms') });
  });

  it('reports a page that cannot be loaded as a failed scrape, charging nothing', async () => {
    const closed = await startFixtureSite({});
    const url = `${closed.url}/`;
    await closed.close();
    const before = await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } });
    const res = await h.api('/v2/scrape', { method: 'POST', json: { url, maxAge: 0 } });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ success: false, code: 'SCRAPE_FAILED' });
    const after = await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } });
    expect(after.creditBalance).toBe(before.creditBalance);
  });

  it('refuses bad bodies, private addresses, unknown and foreign ids', async () => {
    const bad = await h.api('/v2/scrape', { method: 'POST', json: { url: 'not a url' } });
    expect(bad.status).toBe(400);
    expect((await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/`, bogus: 1 } })).status).toBe(400);
    expect((await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/`, zeroDataRetention: true } })).status).toBe(403);
    expect((await h.api('/v2/scrape/not-a-uuid')).status).toBe(400);
    expect((await h.api('/v2/scrape/01900000-0000-7000-8000-000000000000')).status).toBe(404);
    const mine = await (await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/` } })).json();
    const other = await h.newTeam();
    expect((await h.api(`/v2/scrape/${mine.data.metadata.scrapeId}`, { key: other.apiKey })).status).toBe(404);
    const poor = await h.newTeam({ credits: 0 });
    expect((await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/` }, key: poor.apiKey })).status).toBe(402);
  });

  it('refuses a private address when the guard is on', async () => {
    const guarded = await startHarness({ crawl: { allowPrivateAddresses: false } });
    try {
      const res = await guarded.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/` } });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ success: false, code: 'BLOCKED_ADDRESS' });
    } finally {
      await guarded.stop();
    }
  });
});
