// Proxy pools end to end: a worker whose pools are local recording proxies (a dead
// one and a datacenter one at tier 0, one behind credentials at tier 1, one tagged
// DE at tier 5) crawls a shop that refuses the datacenter proxy and a blog that
// takes anything. proxy auto climbs for the shop only, and later shop pages start
// at the tier that worked; the dead proxy is benched and the crawls complete;
// location.country routes Chromium through the DE pool; an explicit mode routes
// both the HTTP path and Chromium; no credential reaches a log, an answer or a metric.
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseProxyPools, type ProxyPools } from '../../src/platform/net/proxy-pools/pools-file.ts';
import { ProxyRouter } from '../../src/platform/net/proxy-pools/proxy-router.ts';
import { sharedTierStore } from '../../src/platform/net/proxy-pools/shared-tiers.ts';
import { registry } from '../../src/platform/metrics/registry.ts';
import { failureReason } from '../../src/jobs/pages/failure-reason.ts';
import { page, startFixtureSite, treeSite, type FixtureResource, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.ts';

const SECRET = 'isp-secret-5521';
const PAGES = 5;

let h: Harness;
let shop: FixtureSite;
let blog: FixtureSite;
let gated: FixtureSite;
let wall: FixtureSite;
let dead: RecordingProxy;
let dc: RecordingProxy;
let isp: RecordingProxy;
let de: RecordingProxy;
const logged: string[] = [];
let pools: ProxyPools;

/** The site as a proxy shows it: which proxy brought each request (none: it came directly). */
function site(refuse: (via: string) => boolean): Record<string, FixtureResource> {
  const pages = treeSite(PAGES);
  return {
    '/robots.txt': { status: 404, body: '' },
    ...Object.fromEntries(
      Object.entries(pages).map(([path, html]) => [
        path,
        (req: IncomingMessage) => {
          const via = String(req.headers.via ?? 'direct');
          if (refuse(via)) return { status: 403, body: page('Forbidden', `<h1>Forbidden</h1><p>No visitors from ${via}.</p>`) };
          return { body: html.replace('</main>', `<p>Came via ${via}.</p></main>`) };
        },
      ]),
    ),
  };
}

beforeAll(async () => {
  [dead, dc, isp, de] = await Promise.all([
    startRecordingProxy('dead'),
    startRecordingProxy('dc'),
    startRecordingProxy('isp', { credentials: `crawler:${SECRET}` }),
    startRecordingProxy('de'),
  ]);
  await dead.close();
  pools = parseProxyPools(
    JSON.stringify({
      pools: [
        { name: 'dc', tier: 0, proxies: [dead.url, dc.url] },
        { name: 'isp', tier: 1, proxies: [`http://crawler:${SECRET}@127.0.0.1:${isp.port}`] },
        { name: 'de', tier: 5, proxies: [de.url], countries: ['de'] },
      ],
      modes: { stealth: 1, enhanced: 1 },
    }),
    'test pools',
  );
  // *.localhost is the loopback: two hosts on one machine, told apart by the proxies and the router.
  [shop, blog, gated, wall] = await Promise.all([
    startFixtureSite(
      site((via) => via === '1.1 dc' || via === 'direct'),
      { host: 'shop.localhost', listen: '127.0.0.1' },
    ),
    startFixtureSite(
      site((via) => via === 'direct'),
      { host: 'blog.localhost', listen: '127.0.0.1' },
    ),
    startFixtureSite(
      site((via) => via === '1.1 dc' || via === 'direct'),
      { host: 'gated.localhost', listen: '127.0.0.1' },
    ),
    startFixtureSite(
      site(() => true),
      { host: 'wall.localhost', listen: '127.0.0.1' },
    ),
  ]);
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    logged.push(String(chunk));
    return write(chunk, ...(rest as []));
  });
  h = await startHarness({ crawl: { proxyPools: pools, proxyBenchMs: 60_000 } });
  await h.startWorker();
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all([shop?.close(), blog?.close(), gated?.close(), wall?.close(), dc?.close(), isp?.close(), de?.close()]);
  await h?.stop();
});

type Doc = { markdown: string; metadata: { sourceURL: string; statusCode: number } };

async function crawl(s: FixtureSite) {
  const res = await h.api('/v2/crawl', {
    method: 'POST',
    json: { url: `${s.url}/`, sitemap: 'skip', limit: PAGES, scrapeOptions: { formats: ['markdown'], maxAge: 0 } },
  });
  expect(res.status).toBe(200);
  const status = await waitForCrawl(h, (await res.json()).id);
  expect(status.status).toBe('completed');
  return { status, docs: status.data as Doc[] };
}

async function scrape(body: Record<string, unknown>) {
  const res = await h.api('/v2/scrape', { method: 'POST', json: { formats: ['markdown'], maxAge: 0, ...body } });
  return { status: res.status, body: await res.json() };
}

const paths = (p: RecordingProxy, s: FixtureSite) => p.requestsFor(new URL(s.url).hostname).map((r) => new URL(r.target).pathname);
/** The pages a proxy carried (not the stylesheet Chromium also loads). */
const pages = (p: RecordingProxy, s: FixtureSite) => paths(p, s).filter((path) => path.startsWith('/p/'));

describe('proxy pools', () => {
  it('proxy auto: only the blocked host climbs a tier, its later pages start there, the dead proxy is benched, the crawls complete', async () => {
    const [shopCrawl, blogCrawl] = await Promise.all([crawl(shop), crawl(blog)]);
    for (const { docs } of [shopCrawl, blogCrawl]) {
      expect(docs).toHaveLength(PAGES);
      for (const d of docs) expect(d.metadata.statusCode).toBe(200);
    }
    for (const d of shopCrawl.docs) expect(d.markdown).toContain('Came via 1.1 isp.');
    for (const d of blogCrawl.docs) expect(d.markdown).toContain('Came via 1.1 dc.');
    // The shop's first page was refused once through the datacenter proxy; every later page went straight to tier 1.
    expect(paths(dc, shop)).toEqual(['/']);
    expect(paths(isp, shop).sort()).toEqual(Object.keys(treeSite(PAGES)).sort());
    expect(paths(isp, blog)).toEqual([]);
    expect(paths(dc, blog)).toHaveLength(PAGES);
    const metrics = await registry.metrics();
    expect(metrics).toMatch(/crawl_service_proxy_benched_total\{pool="dc"\} [1-9]/);
    expect(metrics).toMatch(/crawl_service_proxy_escalations_total\{tier="1"\} [1-9]/);
    expect(metrics).toMatch(/crawl_service_proxy_requests_total\{pool="isp",tier="1"\} [1-9]/);
  });

  it('proxy auto in Chromium: a blocked page is loaded again a tier up, and fails as blocked once no tier is left', async () => {
    // waitFor needs the browser: the page is loaded in Chromium, refused through the datacenter proxy, loaded again through isp.
    const climbed = await scrape({ url: `${gated.url}/p/1`, waitFor: 50 });
    expect(climbed.status, JSON.stringify(climbed.body)).toBe(200);
    expect(climbed.body.data.metadata.statusCode).toBe(200);
    expect(climbed.body.data.markdown).toContain('Came via 1.1 isp.');
    expect(pages(dc, gated)).toEqual(['/p/1']);
    expect(pages(isp, gated)).toEqual(['/p/1']);

    // Refused through every tier (dc, isp, then de, the highest untagged requests may use): the page fails as blocked.
    const refused = await scrape({ url: `${wall.url}/p/2`, waitFor: 50 });
    expect(refused.body).toMatchObject({ success: false, code: 'SCRAPE_FAILED' });
    expect(refused.body.error).toMatch(
      /^Blocked by the site at every proxy tier tried: it answered with HTTP 403 \(loaded 3 times.*no higher proxy tier is left/,
    );
    expect(failureReason(refused.body.error)).toBe('blocked');
    for (const p of [dc, isp, de]) expect(pages(p, wall)).toEqual(['/p/2']);
  });

  it('a tier proxy auto learned on one worker is where another worker starts that host', async () => {
    // The harness's worker learns that the shop refuses tier 0 (over HTTP: refused through dc, answered through isp).
    const learned = await scrape({ url: `${shop.url}/p/2` });
    expect(learned.body.data.markdown).toContain('Came via 1.1 isp.');
    await waitFor('the shop tier to be shared', async () => (await h.db.proxyHostTier.findUnique({ where: { key: '|shop.localhost' } }))?.tier === 1);
    // Another worker's router, sharing the same database, starts the shop there, and the blog at the base tier.
    const other = new ProxyRouter(pools, { benchMs: 60_000 });
    other.shareTiers(sharedTierStore(h.db, { shareMs: 60_000 }));
    expect(other.autoTier({}, 'shop.localhost')).toBe(0);
    await other.prime({ mode: 'auto' }, ['shop.localhost', 'blog.localhost']);
    expect(other.autoTier({}, 'shop.localhost')).toBe(1);
    expect(other.autoTier({}, 'blog.localhost')).toBe(0);
    expect(other.pick({ mode: 'auto' }, 'shop.localhost')?.pool).toBe('isp');
    // A shared tier lapses: once past its expiry, a worker that reads it again starts the host at the base tier.
    await h.db.proxyHostTier.update({ where: { key: '|shop.localhost' }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const fresh = new ProxyRouter(pools, { benchMs: 60_000 });
    fresh.shareTiers(sharedTierStore(h.db, { shareMs: 60_000 }));
    await fresh.prime({ mode: 'auto' }, ['shop.localhost']);
    expect(fresh.autoTier({}, 'shop.localhost')).toBe(0);
  });

  it('location.country goes through the pool tagged with it (in Chromium too), and a country no pool has is a 400', async () => {
    const routed = await scrape({ url: `${blog.url}/p/1`, location: { country: 'de' } });
    expect(routed.status).toBe(200);
    expect(routed.body.data.markdown).toContain('Came via 1.1 de.');
    // A location needs the browser: Chromium's request went through the guard proxy, then the DE pool.
    expect(de.requestsFor('blog.localhost').map((r) => new URL(r.target).pathname)).toContain('/p/1');
    expect(de.requestsFor('blog.localhost').some((r) => /HeadlessChrome|Chrome\//.test(r.userAgent ?? ''))).toBe(true);

    const refused = await scrape({ url: `${blog.url}/p/1`, location: { country: 'JP' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, code: 'PROXY_COUNTRY_NOT_CONFIGURED' });
    expect(refused.body.error).toContain('location.country JP has no proxy pool on this server (pools are tagged with DE)');
    const crawlRefused = await h.api('/v2/crawl', { method: 'POST', json: { url: `${blog.url}/`, scrapeOptions: { location: { country: 'JP' } } } });
    expect(crawlRefused.status).toBe(400);
    const sessionRefused = await h.api('/v2/browser', { method: 'POST', json: { location: { country: 'JP' } } });
    expect(sessionRefused.status).toBe(400);
  });

  it('an explicit mode takes its tier on the HTTP path and in Chromium, and no credential is ever shown', async () => {
    const before = isp.requestsFor('blog.localhost').length;
    const overHttp = await scrape({ url: `${blog.url}/p/2`, proxy: 'stealth' });
    const inChromium = await scrape({ url: `${blog.url}/p/3`, proxy: 'stealth', waitFor: 50 });
    for (const r of [overHttp, inChromium]) {
      expect(r.status).toBe(200);
      expect(r.body.data.markdown).toContain('Came via 1.1 isp.');
    }
    const seen = isp.requestsFor('blog.localhost').slice(before);
    expect(seen.map((r) => new URL(r.target).pathname)).toEqual(expect.arrayContaining(['/p/2', '/p/3']));
    expect(seen.some((r) => /Chrome\//.test(r.userAgent ?? '') && r.target.endsWith('/p/3'))).toBe(true);
    const basic = await scrape({ url: `${blog.url}/p/4`, proxy: 'basic' });
    expect(basic.body.data.markdown).toContain('Came via 1.1 dc.');

    const answers = JSON.stringify([overHttp.body, inChromium.body, basic.body]);
    expect(answers).not.toContain(SECRET);
    expect(await registry.metrics()).not.toContain(SECRET);
    expect(logged.join('')).toContain('proxy benched');
    expect(logged.join('')).not.toContain(SECRET);
  });
});
