// POST /v2/map: sitemaps and start-page links within the host rules, normalized,
// de-duplicated, ranked for a search term; 1 credit per call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitForCrawl, type Harness } from '../support/harness.ts';
import { createRetentionActivities } from '../../src/features/retention/activities.ts';
import { createLogger } from '../../src/platform/log.ts';

let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  site = await startFixtureSite(
    {
      '/': page(
        'Home of the site',
        '<a href="/about">About</a> <a href="/blog/pricing-plans?ref=nav">Pricing</a> <a href="/blog/pricing-plans">again</a> <a href="/logo.png">logo</a> <a href="https://elsewhere.example/">out</a> <a href="/about#team">team</a>',
        '<meta name="description" content="A test site">',
      ),
      '/robots.txt': 'User-agent: *\nSitemap: /custom-sitemap.xml\n',
      // The sitemap names absolute URLs of the site's own origin.
      '/custom-sitemap.xml': (req) => ({
        body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${['/docs/getting-started', '/docs/api', '/about']
          .map((p) => `<url><loc>http://${req.headers.host}${p}</loc></url>`)
          .join('')}</urlset>`,
      }),
      '/slow': page('Slow', '<a href="/a">a</a>'),
      '/hidden/changelog': page('Changelog of the hidden kind', '<p>Release notes nobody links to.</p>'),
    },
    { delayMs: (path) => (path === '/slow' ? 4000 : 0) },
  );
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

const map = (json: Record<string, unknown>, key?: string) => h.api('/v2/map', { method: 'POST', json, key });

describe('POST /v2/map', () => {
  it('lists the start page, its links and its sitemap URLs, within the host, de-duplicated, for 1 credit', async () => {
    const before = await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } });
    const res = await map({ url: `${site.url}/` });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    const urls = body.links.map((l: { url: string }) => l.url);
    expect(urls[0]).toBe(`${site.url}/`);
    expect(body.links[0]).toMatchObject({ title: 'Home of the site', description: 'A test site' });
    // Query parameters are ignored by default, fragments always; images and other hosts are left out.
    expect(urls).toContain(`${site.url}/about`);
    expect(urls).toContain(`${site.url}/blog/pricing-plans`);
    expect(urls.filter((u: string) => u.includes('pricing'))).toHaveLength(1);
    expect(urls.some((u: string) => u.includes('logo.png') || u.includes('elsewhere'))).toBe(false);
    expect(new Set(urls).size).toBe(urls.length);
    const after = await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } });
    expect(before.creditBalance - after.creditBalance).toBe(1);
    expect(await h.db.usageEntry.findMany({ where: { jobId: body.id }, select: { endpoint: true, credits: true } })).toEqual([{ endpoint: 'map', credits: 1 }]);
    const activity = await h.db.activityLog.findFirst({ where: { teamId: h.teamId, endpoint: 'map' }, orderBy: { createdAt: 'desc' } });
    expect(activity?.target).toBe(`${site.url}/`);
  });

  it('ranks by a search term, keeps query parameters when asked, and cuts to the limit', async () => {
    const ranked = await (await map({ url: `${site.url}/`, search: 'pricing', ignoreQueryParameters: false })).json();
    expect(ranked.links[0].url).toMatch(/\/blog\/pricing-plans/);
    expect(ranked.links.filter((l: { url: string }) => l.url.includes('pricing'))).toHaveLength(2);
    const limited = await (await map({ url: `${site.url}/`, limit: 2 })).json();
    expect(limited.links).toHaveLength(2);
  });

  it('reads only the page with sitemap skip and only sitemaps with sitemap only', async () => {
    const skip = await (await map({ url: `${site.url}/`, sitemap: 'skip' })).json();
    expect(skip.links.map((l: { url: string }) => l.url)).not.toContain(`${site.url}/docs/api`);
    const only = await (await map({ url: `${site.url}/`, sitemap: 'only' })).json();
    expect(only.links.map((l: { url: string }) => l.url).sort()).toEqual([`${site.url}/about`, `${site.url}/docs/api`, `${site.url}/docs/getting-started`]);
  });

  it('warns when a deep URL yields one link at most', async () => {
    const body = await (await map({ url: `${site.url}/nothing/here`, sitemap: 'skip' })).json();
    expect(body.warning).toBe(`Only 1 result(s) found. For broader coverage, try mapping the base domain: ${site.url}`);
  });

  it('answers 408 past its timeout', async () => {
    const res = await map({ url: `${site.url}/slow`, timeout: 1000, sitemap: 'skip' });
    expect(res.status).toBe(408);
    expect(await res.json()).toMatchObject({ success: false, code: 'MAP_TIMEOUT', error: expect.stringContaining('The map operation timed out') });
  });

  it('keeps a map for MAP_RETENTION_HOURS; the scheduled purge deletes older ones', async () => {
    const { id } = await (await map({ url: `${site.url}/`, sitemap: 'skip' })).json();
    await h.db.mapJob.update({ where: { id }, data: { createdAt: new Date(Date.now() - (h.config.scrape.mapRetentionHours + 1) * 3_600_000) } });
    const recent = await (await map({ url: `${site.url}/`, sitemap: 'skip' })).json();
    const result = await createRetentionActivities({ db: h.db, config: h.config, log: createLogger('warn') }).purgeExpired();
    expect(result.maps).toBeGreaterThanOrEqual(1);
    expect(await h.db.mapJob.findUnique({ where: { id } })).toBeNull();
    expect(await h.db.mapJob.findUnique({ where: { id: recent.id } })).not.toBeNull();
  });

  it('applies threatProtection as every job does: a blocked start URL is a 403 before anything is fetched', async () => {
    const host = new URL(site.url).hostname;
    const blocked = await map({ url: `${site.url}/`, threatProtection: { blacklist: [host] }, auditMetadata: { username: 'ada' } });
    expect(blocked.status).toBe(403);
    expect(await blocked.json()).toMatchObject({ code: 'unsafe_domain_blocked', error: expect.stringContaining(`threatProtection.blacklist lists "${host}"`) });
    const allowed = await map({ url: `${site.url}/`, threatProtection: { mode: 'zscaler', failurePolicy: 'closed', whitelist: [host] } });
    expect((await allowed.json()).links.length).toBeGreaterThan(3);
  });

  it('refuses bad bodies and a team without credits', async () => {
    expect((await map({ url: 'nope' })).status).toBe(400);
    expect((await map({ url: `${site.url}/`, limit: 100_001 })).status).toBe(400);
    expect((await map({ url: `${site.url}/`, sitemap: 'sometimes' })).status).toBe(400);
    expect((await map({ url: `${site.url}/`, unknown: true })).status).toBe(400);
    const poor = await h.newTeam({ credits: 0 });
    expect((await map({ url: `${site.url}/` }, poor.apiKey)).status).toBe(402);
  });

  // Last: the page it indexes is the site's from then on.
  it("adds the site's pages from the team's local search index, ranked first by relevance for a search term", async () => {
    const crawl = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/hidden/changelog`, limit: 1, sitemap: 'skip' } })).json();
    await waitForCrawl(h, crawl.id);
    const body = await (await map({ url: `${site.url}/`, sitemap: 'skip' })).json();
    expect(body.links).toContainEqual({
      url: `${site.url}/hidden/changelog`,
      title: 'Changelog of the hidden kind',
      description: 'Release notes nobody links to.',
    });
    const searched = await (await map({ url: `${site.url}/`, search: 'release notes' })).json();
    expect(searched.links[0].url).toBe(`${site.url}/hidden/changelog`);
    // Another team's index is not this team's.
    const other = await h.newTeam();
    const theirs = await (await map({ url: `${site.url}/`, sitemap: 'skip' }, other.apiKey)).json();
    expect(theirs.links.map((l: { url: string }) => l.url)).not.toContain(`${site.url}/hidden/changelog`);
  }, 120_000);
});
