// Every crawl option against a local fixture website, through the API.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, startFixtureSite, type FixtureResource, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitForCrawl, type Harness } from '../support/harness.ts';

let h: Harness;
const sites: FixtureSite[] = [];

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
});

afterAll(async () => {
  await Promise.all(sites.map((s) => s.close()));
  await h?.stop();
});

async function site(resources: Record<string, FixtureResource>, opts: Parameters<typeof startFixtureSite>[1] = {}) {
  const s = await startFixtureSite(resources, opts);
  sites.push(s);
  return s;
}

const links = (...paths: string[]) => paths.map((p) => `<a href="${p}">${p}</a>`).join(' ');

async function crawl(json: Record<string, unknown>, key?: string) {
  const res = await h.api('/v2/crawl', { method: 'POST', json: { sitemap: 'skip', ...json }, key });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`POST /v2/crawl answered ${res.status}: ${JSON.stringify(body)}`);
  const status = await waitForCrawl(h, body.id, 120_000, key);
  return { id: body.id as string, status, paths: status.data.map((d) => new URL(d.metadata.sourceURL).pathname + new URL(d.metadata.sourceURL).search).sort() };
}

describe('which pages a crawl visits', () => {
  let s: FixtureSite;
  beforeAll(async () => {
    s = await site({
      '/': page('Home', links('/blog/', '/blog/a', '/blog/b?page=2', '/blog/b?page=3', '/docs/x', '/about', '/private/secret')),
      '/blog/': page('Blog', links('/blog/a', '/blog/deep/1')),
      '/blog/a': page('A', links('/blog/deep/1')),
      '/blog/b': page('B', 'b'),
      '/blog/deep/1': page('Deep 1', links('/blog/deep/2')),
      '/blog/deep/2': page('Deep 2', links('/docs/x', '/about')),
      '/docs/x': page('X', 'x'),
      '/about': page('About', 'about'),
      '/private/secret': page('Secret', 'secret'),
      '/robots.txt': 'User-agent: *\nDisallow: /private/\n\nUser-agent: SpecialBot\nDisallow: /about\n',
    });
  });

  it('excludePaths and includePaths match the pathname; robots.txt is obeyed', async () => {
    const r = await crawl({ url: `${s.url}/`, excludePaths: ['^/blog/deep'], includePaths: ['^/blog', '^/about', '^/private', '^/$'] });
    expect(r.paths).toEqual(['/', '/about', '/blog/', '/blog/a', '/blog/b?page=2', '/blog/b?page=3']);
    const errors = await (await h.api(`/v2/crawl/${r.id}/errors`)).json();
    expect(errors.robotsBlocked).toEqual([`${s.url}/private/secret`]);
    expect(r.status.warning).toMatch(/robots\.txt/);
  });

  it('regexOnFullURL matches the query string too', async () => {
    const r = await crawl({ url: `${s.url}/`, includePaths: ['page=3', `^${s.url}/$`], regexOnFullURL: true });
    expect(r.paths).toEqual(['/', '/blog/b?page=3']);
  });

  it('the start URL is checked against includePaths: no match, no pages, and the reason in /errors', async () => {
    const r = await crawl({ url: `${s.url}/about`, includePaths: ['^/blog'] });
    expect(r.status.completed).toBe(0);
    const errors = await (await h.api(`/v2/crawl/${r.id}/errors`)).json();
    expect(errors.errors[0].error).toMatch(/includePaths/);
  });

  it('ignoreQueryParameters scrapes a path once whatever its query', async () => {
    const r = await crawl({ url: `${s.url}/`, includePaths: ['^/blog/b', '^/$'], ignoreQueryParameters: true });
    expect(r.paths).toEqual(['/', '/blog/b']);
  });

  it('maxDiscoveryDepth: 1 is the start page and its links', async () => {
    const r = await crawl({ url: `${s.url}/blog/`, maxDiscoveryDepth: 1 });
    expect(r.paths).toEqual(['/blog/', '/blog/a', '/blog/deep/1']);
  });

  it('crawlEntireDomain false stays below the start path; true follows any internal link', async () => {
    expect((await crawl({ url: `${s.url}/blog/a` })).paths).toEqual(['/blog/a']);
    const all = await crawl({ url: `${s.url}/blog/a`, crawlEntireDomain: true, excludePaths: ['^/private'] });
    expect(all.paths).toContain('/docs/x');
    expect(all.paths).toContain('/about');
  });

  it('limit caps the pages', async () => {
    expect((await crawl({ url: `${s.url}/`, limit: 3 })).status.completed).toBe(3);
  });

  it('ignoreRobotsTxt and robotsUserAgent need the team flags, then work', async () => {
    expect((await h.api('/v2/crawl', { method: 'POST', json: { url: `${s.url}/`, ignoreRobotsTxt: true } })).status).toBe(403);
    expect((await h.api('/v2/crawl', { method: 'POST', json: { url: `${s.url}/`, robotsUserAgent: 'SpecialBot' } })).status).toBe(403);
    const team = await h.newTeam({ flags: { ignoreRobotsTxt: true, robotsUserAgent: true } });
    const ignoring = await crawl({ url: `${s.url}/`, ignoreRobotsTxt: true, includePaths: ['^/private', '^/$'] }, team.apiKey);
    expect(ignoring.paths).toEqual(['/', '/private/secret']);
    const special = await crawl({ url: `${s.url}/`, robotsUserAgent: 'SpecialBot', includePaths: ['^/private', '^/about', '^/$'] }, team.apiKey);
    expect(special.paths).toEqual(['/', '/private/secret']);
  });
});

describe('hosts', () => {
  it('allowExternalLinks follows other hosts, allowSubdomains follows subdomains, neither by default', async () => {
    const external = await site({ '/': page('External', links('/more')), '/more': page('More', 'm') });
    let port = 0;
    // Chromium resolves *.localhost to loopback by itself, so sub.localhost is this same server.
    const main = await site({
      '/': () => ({ body: page('Main', `${links('/x')} <a href="${external.url}/">ext</a> <a href="http://sub.localhost:${port}/sub">sub</a>`) }),
      '/x': page('X', 'x'),
      '/sub': page('Sub', 's'),
    });
    port = main.port;
    const start = `http://localhost:${port}/`;
    const urls = (r: Awaited<ReturnType<typeof crawl>>) => r.status.data.map((d) => d.metadata.sourceURL as string).sort();
    expect(urls(await crawl({ url: start }))).toEqual([start, `${start}x`]);
    // One hop out: the external home page, not the links found on it (a subdomain is external here too).
    expect(urls(await crawl({ url: start, allowExternalLinks: true }))).toEqual([`${external.url}/`, start, `${start}x`, `http://sub.localhost:${port}/sub`]);
    expect(urls(await crawl({ url: start, allowSubdomains: true }))).toEqual([start, `${start}x`, `http://sub.localhost:${port}/sub`]);
  });
});

describe('sitemaps', () => {
  let s: FixtureSite;
  beforeAll(async () => {
    const urlset = (paths: string[]) =>
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${'BASE'}${p}</loc></url>`).join('')}</urlset>`;
    const resources: Record<string, FixtureResource> = {
      '/': page('Home', links('/linked')),
      '/linked': page('Linked', 'l'),
      '/from-index': page('From index', 'i'),
      '/from-gzip': page('From gzip', 'g'),
      '/from-robots': page('From robots', 'r'),
    };
    s = await site(resources);
    const base = s.url;
    resources['/robots.txt'] = `User-agent: *\nAllow: /\nSitemap: ${base}/robots-sitemap.xml\n`;
    resources['/sitemap.xml'] = {
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}/sitemap-a.xml</loc></sitemap><sitemap><loc>${base}/sitemap-b.xml.gz</loc></sitemap></sitemapindex>`,
    };
    resources['/sitemap-a.xml'] = { headers: { 'content-type': 'application/xml' }, body: urlset(['/from-index']).replaceAll('BASE', base) };
    resources['/sitemap-b.xml.gz'] = { headers: { 'content-type': 'application/gzip' }, body: gzipSync(urlset(['/from-gzip']).replaceAll('BASE', base)) };
    resources['/robots-sitemap.xml'] = { headers: { 'content-type': 'application/xml' }, body: urlset(['/from-robots']).replaceAll('BASE', base) };
  });

  it('skip discovers from links only', async () => {
    expect((await crawl({ url: `${s.url}/`, sitemap: 'skip' })).paths).toEqual(['/', '/linked']);
  });

  it('include adds sitemap URLs (index, gzip, robots.txt Sitemap lines) to link discovery', async () => {
    expect((await crawl({ url: `${s.url}/`, sitemap: 'include' })).paths).toEqual(['/', '/from-gzip', '/from-index', '/from-robots', '/linked']);
  });

  it('only crawls sitemap URLs plus the start URL', async () => {
    expect((await crawl({ url: `${s.url}/`, sitemap: 'only' })).paths).toEqual(['/', '/from-gzip', '/from-index', '/from-robots']);
  });
});

describe('pace', () => {
  it('delay: one page at a time, at least delay seconds apart', async () => {
    const s = await site({ '/': page('Home', links('/a', '/b')), '/a': page('A', 'a'), '/b': page('B', 'b') });
    const r = await crawl({ url: `${s.url}/`, delay: 1 });
    expect(r.status.completed).toBe(3);
    expect(s.maxInFlight()).toBe(1);
    const starts = ['/', '/a', '/b'].map((p) => s.times.get(p)![0]).sort((a, b) => a - b);
    expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(900);
    expect(starts[2] - starts[1]).toBeGreaterThanOrEqual(900);
  });

  it('maxConcurrency caps pages in flight; the team limit caps all its crawls together and marks pages that waited', async () => {
    const fan = (prefix: string, n: number) => ({
      '/': page('Fan', links(...Array.from({ length: n }, (_, i) => `/${prefix}${i}`))),
      ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`/${prefix}${i}`, page(`${prefix}${i}`, 'x')])),
    });
    const slow = { delayMs: () => 300 };
    const capped = await site(fan('c', 12), slow);
    const team = await h.newTeam({ concurrencyLimit: 8 });
    await crawl({ url: `${capped.url}/`, maxConcurrency: 2 }, team.apiKey);
    expect(capped.maxInFlight()).toBeLessThanOrEqual(2);

    // Two crawls of one team on one site (separate subtrees): the site sees the team's total.
    const small = await h.newTeam({ concurrencyLimit: 2 });
    const shared = await site(
      Object.fromEntries(
        ['a', 'b'].flatMap((t) => [
          [`/${t}/`, page(t, links(...Array.from({ length: 8 }, (_, i) => `/${t}/${i}`)))],
          ...Array.from({ length: 8 }, (_, i) => [`/${t}/${i}`, page(`${t}${i}`, 'x')]),
        ]),
      ),
      slow,
    );
    const [ra, rb] = await Promise.all([crawl({ url: `${shared.url}/a/` }, small.apiKey), crawl({ url: `${shared.url}/b/` }, small.apiKey)]);
    expect((ra.status.completed as number) + (rb.status.completed as number)).toBe(18);
    expect(shared.maxInFlight()).toBeLessThanOrEqual(2);
    const docs = [...ra.status.data, ...rb.status.data];
    expect(docs.some((d) => d.metadata.concurrencyLimited === true && d.metadata.concurrencyQueueDurationMs > 0)).toBe(true);
    expect(docs.every((d) => typeof d.metadata.concurrencyLimited === 'boolean')).toBe(true);
  });
});
