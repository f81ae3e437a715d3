import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { guardedFetch, type GuardedFetchResult } from '../../../src/platform/net/guarded-fetch.ts';
import { BlockedAddressError } from '../../../src/platform/net/address-policy.ts';
import { startGuardProxy } from '../../../src/platform/net/guard-proxy.ts';
import { blockedAnswer } from '../../../src/platform/net/proxy-pools/blocked-answer.ts';
import { fetchThroughPools } from '../../../src/platform/net/proxy-pools/pooled-fetch.ts';
import { parseProxyPools, type ProxyPoolsFile } from '../../../src/platform/net/proxy-pools/pools-file.ts';
import { proxyCountryRefusal, ProxyRouter, UnknownProxyCountryError } from '../../../src/platform/net/proxy-pools/proxy-router.ts';
import { ProxyFailureError } from '../../../src/platform/net/proxy-pools/upstream-tunnel.ts';
import { registry } from '../../../src/platform/metrics/registry.ts';
import { startRecordingProxy, type RecordingProxy } from '../../support/recording-proxy.ts';

const SECRET = 'pa55-secret-7731';

const FILE: ProxyPoolsFile = {
  pools: [
    { name: 'dc', tier: 0, proxies: ['http://dc1:3128', 'http://dc2:3128'], countries: ['us', 'de'] },
    { name: 'dc-fr', tier: 0, proxies: ['http://fr1:3128'], countries: ['FR'] },
    { name: 'isp', tier: 1, proxies: ['http://isp1:3128'], countries: ['us'] },
    { name: 'resi', tier: 2, proxies: [`http://user:${SECRET}@resi1:8000`, 'http://resi2:8000'], countries: ['us', 'de'] },
  ],
  modes: { stealth: 1 },
};

const pools = (file: unknown = FILE, single?: string) => parseProxyPools(JSON.stringify(file), 'PROXY_POOLS', single);

function router(file: unknown = FILE) {
  let now = 1_000;
  const r = new ProxyRouter(pools(file), { benchMs: 60_000, now: () => now });
  return { r, advance: (ms: number) => (now += ms) };
}

afterEach(() => vi.unstubAllEnvs());

describe('the pools file', () => {
  it('reads pools, tiers, mode tiers and country tags, and adds CRAWL_PROXY_URL as the base tier', () => {
    const p = pools(FILE, `http://op:${SECRET}@squid:3128`);
    expect(p.tiers).toEqual([0, 1, 2]);
    expect(p.modeTiers).toEqual({ stealth: 1, enhanced: 2 });
    expect([...p.countries].sort()).toEqual(['DE', 'FR', 'US']);
    expect(p.proxies.map((e) => e.id)).toEqual(['default#1', 'dc#1', 'dc#2', 'dc-fr#1', 'isp#1', 'resi#1', 'resi#2']);
    expect(p.proxies[0]).toMatchObject({ tier: 0, countries: [], label: 'squid:3128', upstream: { host: 'squid', port: 3128 } });
    expect(p.proxies[0].upstream.authorization).toBe(`Basic ${Buffer.from(`op:${SECRET}`).toString('base64')}`);
    // Labels and ids are what logs and metrics see: never the credentials.
    expect(JSON.stringify(p.proxies.map((e) => [e.id, e.label, e.pool]))).not.toContain(SECRET);
    expect(parseProxyPools(undefined, 'PROXY_POOLS').proxies).toEqual([]);
  });

  it('refuses a malformed file with the rule broken and without repeating a credential', () => {
    const refused = (file: unknown) => {
      try {
        pools(file);
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(() => parseProxyPools('{', 'PROXY_POOLS_FILE (/etc/pools.json)')).toThrow(/^PROXY_POOLS_FILE \(\/etc\/pools\.json\) is not valid JSON/);
    const https = refused({ pools: [{ name: 'a', tier: 0, proxies: [`https://u:${SECRET}@h:1`] }] });
    expect(https).toMatch(/pools\.0\.proxies\.0: must be an http:\/\/\[user:pass@\]host:port proxy URL/);
    expect(https).not.toContain(SECRET);
    expect(refused({ pools: [{ name: 'a', tier: 0, proxies: [] }] })).toMatch(/at least one proxy URL/);
    expect(refused({ pools: [{ name: 'a', tier: 0, proxies: ['http://h:1'], countries: ['USA'] }] })).toMatch(/2-letter ISO 3166-1 code/);
    expect(refused({ pools: [{ name: 'a', tier: 0, proxies: ['http://h:1'], region: 'eu' }] })).toMatch(/pools\.0: Unrecognized key/);
    expect(refused({ pools: ['http://h:1', 'http://h:1'].map((u) => ({ name: 'a', tier: 0, proxies: [u] })) })).toMatch(/"a" is used twice/);
    expect(refused({ pools: [{ name: 'a', tier: 0, proxies: ['http://h:1'] }], modes: { stealth: 3 } })).toMatch(
      /modes\.stealth names tier 3, which no pool has/,
    );
    expect(() => pools({ pools: [] }, 'socks5://h:1')).toThrow(/^CRAWL_PROXY_URL must be an http:\/\//);
  });

  it('is read from PROXY_POOLS_FILE or PROXY_POOLS at start, not both', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pools-')), 'pools.json');
    writeFileSync(file, JSON.stringify(FILE));
    vi.stubEnv('PROXY_POOLS_FILE', file);
    expect(loadConfig().crawl.proxyPools.proxies).toHaveLength(6);
    expect(loadConfig().crawl.proxyBenchMs).toBe(60_000);
    vi.stubEnv('PROXY_POOLS', '{"pools":[]}');
    expect(() => loadConfig()).toThrow('Set PROXY_POOLS_FILE or PROXY_POOLS, not both');
    vi.stubEnv('PROXY_POOLS_FILE', join(file, 'missing'));
    vi.stubEnv('PROXY_POOLS', '');
    expect(() => loadConfig()).toThrow(/PROXY_POOLS_FILE names .* which cannot be read/);
    vi.stubEnv('PROXY_POOLS_FILE', '');
    vi.stubEnv('PROXY_POOLS', '{"pools":[{"name":"x","tier":0,"proxies":["ftp://h"]}]}');
    expect(() => loadConfig()).toThrow(/^PROXY_POOLS is not a valid proxy pools file: pools\.0\.proxies\.0/);
  });
});

describe('the proxy router', () => {
  it('routes basic to the base tier, stealth and enhanced to theirs, and nothing without pools', () => {
    const { r } = router();
    expect(r.pick({ mode: 'basic' }, 'a.test')?.tier).toBe(0);
    expect(r.pick({ mode: 'stealth' }, 'a.test')?.pool).toBe('isp');
    expect(r.pick({ mode: 'enhanced' }, 'a.test')?.pool).toBe('resi');
    expect(r.pick({ mode: 'auto' }, 'a.test')?.tier).toBe(0);
    expect(new ProxyRouter(pools({ pools: [] }), { benchMs: 1 }).pick({ mode: 'auto' }, 'a.test')).toBeUndefined();
  });

  it('picks the pools tagged with the country, and refuses one no pool has', () => {
    const { r } = router();
    expect(r.pick({ mode: 'basic', country: 'FR' }, 'a.test')?.pool).toBe('dc-fr');
    // FR has no tier above 0: stealth takes the nearest it has.
    expect(r.pick({ mode: 'stealth', country: 'FR' }, 'a.test')?.pool).toBe('dc-fr');
    expect(r.pick({ mode: 'stealth', country: 'de' }, 'a.test')?.pool).toBe('resi');
    expect(() => r.pick({ mode: 'basic', country: 'JP' }, 'a.test')).toThrow(UnknownProxyCountryError);
    expect(proxyCountryRefusal(pools(), 'jp')).toBe(
      'location.country JP has no proxy pool on this server (pools are tagged with DE, FR, US); pick one of those countries or leave location.country out.',
    );
    expect(proxyCountryRefusal(pools(), 'us')).toBeUndefined();
    expect(proxyCountryRefusal(pools(), undefined)).toBeUndefined();
    // Without country tags anywhere, a country only sets the browser's locale.
    expect(proxyCountryRefusal(pools({ pools: [{ name: 'a', tier: 0, proxies: ['http://h:1'] }] }), 'JP')).toBeUndefined();
  });

  it('under auto, raises only the blocked host a tier, and starts that host there from then on', () => {
    const { r } = router();
    const first = r.pick({ mode: 'auto' }, 'shop.test')!;
    expect(r.blocked({ mode: 'auto' }, 'shop.test', first)).toBe(true);
    expect(r.pick({ mode: 'auto' }, 'shop.test')?.tier).toBe(1);
    expect(r.autoTier({}, 'SHOP.test.')).toBe(1);
    expect(r.pick({ mode: 'auto' }, 'blog.test')?.tier).toBe(0);
    const isp = r.pick({ mode: 'auto' }, 'shop.test')!;
    expect(r.blocked({ mode: 'auto' }, 'shop.test', isp)).toBe(true);
    const top = r.pick({ mode: 'auto' }, 'shop.test')!;
    expect(top.tier).toBe(2);
    // Nowhere higher to go.
    expect(r.blocked({ mode: 'auto' }, 'shop.test', top)).toBe(false);
    // The tiers a host learned are per country: the candidates differ.
    expect(r.autoTier({ country: 'US' }, 'shop.test')).toBe(0);
    // Other modes never climb: the request asked for its tier.
    expect(r.blocked({ mode: 'basic' }, 'news.test', r.pick({ mode: 'basic' }, 'news.test')!)).toBe(false);
    expect(r.pick({ mode: 'basic' }, 'news.test')?.tier).toBe(0);
  });

  it('keeps a host on its proxy, spreads hosts over the tier, and leaves a proxy its host was blocked through', () => {
    const { r } = router();
    const a = r.pick({ mode: 'basic', country: 'US' }, 'a.test')!;
    const b = r.pick({ mode: 'basic', country: 'US' }, 'b.test')!;
    expect(a.id).not.toBe(b.id);
    for (let i = 0; i < 5; i++) expect(r.pick({ mode: 'basic', country: 'US' }, 'a.test')!.id).toBe(a.id);
    r.blocked({ mode: 'basic', country: 'US' }, 'a.test', a);
    // Round-robin moves on; the host's next pick is not glued to the proxy it was blocked through.
    expect(r.pick({ mode: 'basic', country: 'US' }, 'a.test')!.id).toBe(b.id);
  });

  it('benches a failed proxy, rotates its hosts, tries the soonest back when a whole tier is out, and takes it back after the bench', () => {
    const { r, advance } = router();
    const route = { mode: 'basic' as const, country: 'US' };
    const first = r.pick(route, 'a.test')!;
    r.failed(first, 'connect refused');
    const second = r.pick(route, 'a.test')!;
    expect(second.id).not.toBe(first.id);
    advance(1000);
    r.failed(second, 'connect refused');
    // Both benched: the one back first (the first one) rather than nothing.
    expect(r.pick(route, 'c.test')!.id).toBe(first.id);
    expect(r.pick(route, 'c.test', new Set([first.id, second.id]))).toBeUndefined();
    advance(60_000);
    const back = new Set([r.pick(route, 'd.test')!.id, r.pick(route, 'e.test')!.id]);
    expect(back).toEqual(new Set([first.id, second.id]));
  });
});

describe('blocked answers', () => {
  it('are refusals, challenge pages and empty pages; throttling and ordinary pages are not', () => {
    expect(blockedAnswer(403, 'no')).toBe('HTTP 403');
    expect(blockedAnswer(407, '')).toBe('HTTP 407');
    expect(blockedAnswer(200, '  \n')).toBe('an empty body');
    expect(blockedAnswer(200, Buffer.from('<html><head><title>Just a moment...</title></head></html>'))).toBe('a bot challenge page');
    expect(blockedAnswer(503, '<script src="/cdn-cgi/challenge-platform/h/b/orchestrate"></script>')).toBe('a bot challenge page');
    expect(blockedAnswer(429, 'slow down')).toBeUndefined();
    expect(blockedAnswer(404, '')).toBeUndefined();
    expect(blockedAnswer(301, '')).toBeUndefined();
    expect(blockedAnswer(200, '<html><title>Captchas explained</title><p>A captcha is...</p></html>')).toBeUndefined();
    // Only the head is read: a huge page costs nothing.
    expect(blockedAnswer(200, `<p>${'x'.repeat(5_000_000)}</p>cf-chl-`)).toBeUndefined();
  });
});

describe('fetching a page through the pools', () => {
  const answer = (status: number, body: string): GuardedFetchResult => ({ status, headers: {}, body: Buffer.from(body), finalUrl: 'http://x/', redirects: [] });

  it('benches a failing proxy and fetches through another; under auto climbs tiers past a block; directly without pools', async () => {
    const { r } = router();
    const via: (string | undefined)[] = [];
    const res = await fetchThroughPools(r, { mode: 'auto', country: 'US' }, 'http://shop.test/', async (proxy) => {
      via.push(proxy?.host);
      if (proxy?.host === 'dc1') throw new ProxyFailureError('dc1:3128', 'The proxy dc1:3128 failed: refused');
      if (proxy?.host === 'dc2') return answer(403, 'blocked');
      return answer(200, '<p>page</p>');
    });
    expect(res.status).toBe(200);
    expect(via).toEqual(['dc1', 'dc2', 'isp1']);
    expect(r.autoTier({ country: 'US' }, 'shop.test')).toBe(1);
    // The last answer stands when no tier is left.
    const blocked = await fetchThroughPools(r, { mode: 'basic', country: 'US' }, 'http://shop.test/', async () => answer(403, 'blocked'));
    expect(blocked.status).toBe(403);
    const direct = new ProxyRouter(pools({ pools: [] }), { benchMs: 1 });
    const seen: unknown[] = [];
    await fetchThroughPools(direct, { mode: 'auto' }, 'http://a.test/', async (proxy) => (seen.push(proxy), answer(403, '')));
    expect(seen).toEqual([undefined]);
  });
});

describe('fetches and the guard proxy through a real upstream proxy', () => {
  let site: http.Server;
  let siteUrl: string;
  let good: RecordingProxy;
  let dead: RecordingProxy;
  const POLICY = { allowPrivate: false, allowlist: ['127.0.0.1'] };

  beforeAll(async () => {
    site = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>via ${req.headers.via ?? 'none'}</p>`));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as net.AddressInfo).port}`;
    [good, dead] = await Promise.all([startRecordingProxy('good', { credentials: `user:${SECRET}` }), startRecordingProxy('dead')]);
    await dead.close();
  });

  afterAll(async () => {
    await good.close();
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  });

  it('sends a checked page fetch through the proxy with its credentials, and names a failing proxy without them', async () => {
    const upstream = parseProxyPools(JSON.stringify({ pools: [{ name: 'p', tier: 0, proxies: [`http://user:${SECRET}@127.0.0.1:${good.port}`] }] }), 'x');
    const res = await guardedFetch(`${siteUrl}/page`, { policy: POLICY, proxy: upstream.proxies[0].upstream });
    expect(res.body.toString()).toBe('<p>via 1.1 good</p>');
    expect(good.requests.at(-1)).toMatchObject({ method: 'GET', target: `${siteUrl}/page` });

    const wrong = parseProxyPools(JSON.stringify({ pools: [{ name: 'p', tier: 0, proxies: [`http://user:wrong-${SECRET}@127.0.0.1:${good.port}`] }] }), 'x');
    const refused = await guardedFetch(`${siteUrl}/page`, { policy: POLICY, proxy: wrong.proxies[0].upstream }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ProxyFailureError);
    expect((refused as Error).message).toBe(`The proxy 127.0.0.1:${good.port} refused the credentials configured for it (407)`);
    const gone = await guardedFetch(`${siteUrl}/page`, { policy: POLICY, proxy: { host: '127.0.0.1', port: dead.port } }).catch((err: unknown) => err);
    expect(gone).toBeInstanceOf(ProxyFailureError);

    // The guard still judges the target first: a private one never reaches the proxy.
    const before = good.requests.length;
    const blocked = await guardedFetch('http://10.0.0.7/', { policy: POLICY, proxy: upstream.proxies[0].upstream }).catch((err: unknown) => err);
    expect(blocked).toBeInstanceOf(BlockedAddressError);
    expect(good.requests.length).toBe(before);
    expect(await registry.metrics()).not.toContain(SECRET);
  });

  /** A guard proxy routed by a fresh router over [dead, good]: round-robin tries the dead one first. */
  async function routedGuard() {
    const pools = parseProxyPools(
      JSON.stringify({ pools: [{ name: 'p', tier: 0, proxies: [`http://127.0.0.1:${dead.port}`, `http://user:${SECRET}@127.0.0.1:${good.port}`] }] }),
      'x',
    );
    const r = new ProxyRouter(pools, { benchMs: 60_000 });
    const guard = await startGuardProxy({
      policy: POLICY,
      route: (host, tried) => {
        const e = r.pick({ mode: 'basic' }, host, tried);
        return e && { id: e.id, upstream: e.upstream, failed: (why) => r.failed(e, why) };
      },
    });
    return { r, guard };
  }

  it('routes the guard proxy per request, benching a dead upstream and going on through the next', async () => {
    const { r, guard } = await routedGuard();
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const url = new URL(`${siteUrl}/through-guard`);
        http
          .get({ host: '127.0.0.1', port: guard.port, path: url.href, headers: { host: url.host }, agent: false }, (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve(text));
          })
          .on('error', reject);
      });
      expect(body).toBe('<p>via 1.1 good</p>');
      expect(good.requests.at(-1)?.target).toBe(`${siteUrl}/through-guard`);
      // Benched: the next request goes straight to the live one.
      expect(r.pick({ mode: 'basic' }, 'other.test')!.id).toBe('p#2');
    } finally {
      await guard.close();
    }
  });

  it('tunnels (what https pages use) the same way: past the dead upstream, to the checked IP', async () => {
    const { r, guard } = await routedGuard();
    try {
      const site = new URL(siteUrl);
      const status = await new Promise<number>((resolve, reject) => {
        http
          .request({ host: '127.0.0.1', port: guard.port, method: 'CONNECT', path: site.host, agent: false })
          .on('connect', (res, socket) => (socket.destroy(), resolve(res.statusCode ?? 0)))
          .on('error', reject)
          .end();
      });
      expect(status).toBe(200);
      expect(good.requests.at(-1)).toMatchObject({ method: 'CONNECT', target: site.host });
      expect(r.pick({ mode: 'basic' }, 'other.test')!.id).toBe('p#2');
    } finally {
      await guard.close();
    }
  });
});
