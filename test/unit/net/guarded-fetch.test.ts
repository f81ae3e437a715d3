// Linux routes all of 127.0.0.0/8 to loopback, so one server listening on
// 0.0.0.0 is reachable as 127.0.0.1 (allowlisted below) and as 127.0.0.2
// (blocked): a blocked address that would really have answered.
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync, deflateSync, deflateRawSync, brotliCompressSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BlockedAddressError, type AddressPolicy } from '../../../src/platform/net/address-policy.ts';
import { FetchTimeoutError, guardedFetch, keepAliveAgents, ResponseTooLargeError } from '../../../src/platform/net/guarded-fetch.ts';
import { checkHostAllowed, createGuardedLookup, type Resolver } from '../../../src/platform/net/guarded-lookup.ts';

const POLICY: AddressPolicy = { allowPrivate: false, allowlist: ['127.0.0.1'] };
const TEXT = 'compressed hello '.repeat(20);

let server: http.Server;
let port: number;
const seen: string[] = [];

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url!, 'http://x');
  seen.push(`${req.socket.localAddress}${url.pathname}`);
  const encoded: Record<string, [string, Buffer]> = {
    '/gzip': ['gzip', gzipSync(TEXT)],
    '/deflate': ['deflate', deflateSync(TEXT)],
    '/deflate-raw': ['deflate', deflateRawSync(TEXT)],
    '/br': ['br', brotliCompressSync(TEXT)],
    '/bomb': ['gzip', gzipSync(Buffer.alloc(1_000_000))],
  };
  if (encoded[url.pathname]) {
    const [encoding, body] = encoded[url.pathname];
    res.writeHead(200, { 'content-encoding': encoding }).end(body);
    return;
  }
  switch (url.pathname) {
    case '/hello':
      res.end('hello');
      return;
    case '/whoami':
      res.end(req.socket.localAddress);
      return;
    case '/port':
      res.end(String(req.socket.remotePort));
      return;
    case '/headers':
      res.end(JSON.stringify(req.headers));
      return;
    case '/echo': {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => res.end(JSON.stringify({ method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString('base64') })));
      return;
    }
    case '/redirect':
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to')! }).end();
      return;
    case '/loop':
      res.writeHead(302, { location: '/loop' }).end();
      return;
    case '/big':
      res.end(Buffer.alloc(1000, 'a'));
      return;
    case '/big-chunked':
      res.write(Buffer.alloc(600, 'a'));
      res.end(Buffer.alloc(600, 'b'));
      return;
    case '/stall-body':
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
      return;
    case '/stall':
      return;
    default:
      res.writeHead(404).end('not here');
  }
}

beforeAll(async () => {
  server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  seen.length = 0;
  vi.restoreAllMocks();
});

const at = (host: string, path: string) => `http://${host}:${port}${path}`;

/** Answers `hostname` from `answers` in turn, one per call, and everything else from the real resolver. */
function fakeDns(hostname: string, answers: string[]) {
  const real = dns.lookup;
  let calls = 0;
  const spy = vi.spyOn(dns, 'lookup').mockImplementation(((host: string, options: dns.LookupAllOptions, cb: Parameters<Resolver>[2]) => {
    if (host !== hostname) return real(host, options, cb);
    const address = answers[Math.min(calls++, answers.length - 1)];
    process.nextTick(() => cb(null, [{ address, family: 4 }]));
  }) as typeof dns.lookup);
  return { calls: () => spy.mock.calls.filter(([host]) => host === hostname).length };
}

describe('guardedFetch', () => {
  it('fetches from an allowed address', async () => {
    const res = await guardedFetch(at('127.0.0.1', '/hello'), { policy: POLICY });
    expect(res).toMatchObject({ status: 200, finalUrl: at('127.0.0.1', '/hello'), redirects: [] });
    expect(res.body.toString()).toBe('hello');
    expect(res.headers['content-length']).toBe('5');
  });

  it('returns non-2xx responses', async () => {
    const res = await guardedFetch(at('127.0.0.1', '/missing'), { policy: POLICY });
    expect(res.status).toBe(404);
    expect(res.body.toString()).toBe('not here');
  });

  it('refuses a literal blocked IP without connecting', async () => {
    const err = await guardedFetch(at('127.0.0.2', '/hello'), { policy: POLICY }).catch((e) => e);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect(err).toMatchObject({ code: 'BLOCKED_ADDRESS', host: '127.0.0.2', address: '127.0.0.2', url: at('127.0.0.2', '/hello') });
    expect(err.message).toMatch(`Refused to crawl ${at('127.0.0.2', '/hello')}: 127.0.0.2 is a loopback address.`);
    expect(seen).toEqual([]);
  });

  it('refuses literal IPv6 and IPv4-mapped hosts', async () => {
    await expect(guardedFetch(`http://[::1]:${port}/hello`, { policy: POLICY })).rejects.toThrow(BlockedAddressError);
    await expect(guardedFetch(`http://[::ffff:127.0.0.2]:${port}/hello`, { policy: POLICY })).rejects.toThrow(/loopback address/);
    expect(seen).toEqual([]);
  });

  it('follows redirects between allowed addresses and reports the hops', async () => {
    const res = await guardedFetch(at('127.0.0.1', `/redirect?status=301&to=${encodeURIComponent('/redirect?to=/hello')}`), { policy: POLICY });
    expect(res.body.toString()).toBe('hello');
    expect(res.redirects).toEqual([at('127.0.0.1', '/redirect?to=/hello'), at('127.0.0.1', '/hello')]);
    expect(res.finalUrl).toBe(at('127.0.0.1', '/hello'));
  });

  it('refuses a redirect hop to a blocked address', async () => {
    const start = at('127.0.0.1', `/redirect?to=${encodeURIComponent(at('127.0.0.2', '/secret'))}`);
    const err = await guardedFetch(start, { policy: POLICY }).catch((e) => e);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect(err.url).toBe(at('127.0.0.2', '/secret'));
    expect(seen).toEqual(['127.0.0.1/redirect']);
  });

  it('refuses redirects to other schemes and endless redirects', async () => {
    await expect(guardedFetch(at('127.0.0.1', '/redirect?to=file:///etc/passwd'), { policy: POLICY })).rejects.toThrow(
      'Refused to fetch file:///etc/passwd: only http and https URLs can be fetched',
    );
    seen.length = 0;
    await expect(guardedFetch(at('127.0.0.1', '/loop'), { policy: POLICY, maxRedirects: 3 })).rejects.toThrow(/Too many redirects .*more than 3/);
    expect(seen).toHaveLength(4);
  });

  it('sends the user agent and drops credentials on a cross-origin redirect', async () => {
    const headers = { Authorization: 'Bearer secret', 'X-Extra': 'kept' };
    const same = await guardedFetch(at('127.0.0.1', '/headers'), { policy: POLICY, headers, userAgent: 'guard-test/1' });
    expect(JSON.parse(same.body.toString())).toMatchObject({ authorization: 'Bearer secret', 'x-extra': 'kept', 'user-agent': 'guard-test/1' });
    const cross = await guardedFetch(at('127.0.0.1', `/redirect?to=${encodeURIComponent(at('localhost', '/headers'))}`), { policy: POLICY, headers });
    const received = JSON.parse(cross.body.toString());
    expect(received.authorization).toBeUndefined();
    expect(received['x-extra']).toBe('kept');
  });

  it('refuses localhost when its address is not allowlisted', async () => {
    const err = await guardedFetch(at('localhost', '/hello'), { policy: { allowPrivate: false, allowlist: [] } }).catch((e) => e);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect(err.host).toBe('localhost');
    expect(['127.0.0.1', '::1']).toContain(err.address);
    expect(err.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(seen).toEqual([]);
  });

  it('refuses a hostname the resolver maps to a private address', async () => {
    fakeDns('intranet.test', ['10.0.0.5']);
    const err = await guardedFetch('http://intranet.test/', { policy: POLICY }).catch((e) => e);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect(err.message).toMatch('Refused to crawl http://intranet.test/: intranet.test resolves to 10.0.0.5, a private address.');
  });

  it('connects to the address it checked: one resolution per connection, no rebinding gap', async () => {
    // A rebinding server answers with an allowed address first and a blocked one after.
    const resolver = fakeDns('rebind.test', ['127.0.0.1', '127.0.0.2']);
    const first = await guardedFetch(`http://rebind.test:${port}/whoami`, { policy: POLICY });
    expect(first.body.toString()).toBe('127.0.0.1');
    expect(resolver.calls()).toBe(1);
    await expect(guardedFetch(`http://rebind.test:${port}/whoami`, { policy: POLICY })).rejects.toThrow(
      /rebind\.test resolves to 127\.0\.0\.2, a loopback address/,
    );
    expect(resolver.calls()).toBe(2);
    expect(seen).toEqual(['127.0.0.1/whoami']);
  });

  it.each(['/gzip', '/deflate', '/deflate-raw', '/br'])('decodes the %s body', async (path) => {
    const res = await guardedFetch(at('127.0.0.1', path), { policy: POLICY });
    expect(res.body.toString()).toBe(TEXT);
  });

  // /bomb is 1 KB on the wire and 1 MB decoded: the cap applies to both.
  it.each([
    ['/big', 500],
    ['/big-chunked', 500],
    ['/bomb', 5000],
  ])('refuses a %s body over maxBytes', async (path, maxBytes) => {
    await expect(guardedFetch(at('127.0.0.1', path), { policy: POLICY, maxBytes })).rejects.toThrow(
      `The response of ${at('127.0.0.1', path)} is larger than the ${maxBytes}-byte limit`,
    );
  });

  it.each(['/stall', '/stall-body'])('times out on %s with a clear message', async (path) => {
    const err = await guardedFetch(at('127.0.0.1', path), { policy: POLICY, timeoutMs: 200 }).catch((e) => e);
    expect(err).toBeInstanceOf(FetchTimeoutError);
    expect(err).toMatchObject({ timeoutMs: 200, message: `Timed out after 200 ms fetching ${at('127.0.0.1', path)}` });
  });

  it('POSTs a body with its content-length', async () => {
    const body = Buffer.from('{"é":"\u0000 bytes"}');
    for (const sent of [body, body.toString()]) {
      const res = await guardedFetch(at('127.0.0.1', '/echo'), { policy: POLICY, method: 'POST', body: sent, headers: { 'Content-Length': '1' } });
      const echoed = JSON.parse(res.body.toString());
      expect(echoed.method).toBe('POST');
      expect(echoed.headers['content-length']).toBe(String(body.length));
      expect(Buffer.from(echoed.body, 'base64').equals(body)).toBe(true);
    }
  });

  it('GETs by default, with no body', async () => {
    const echoed = JSON.parse((await guardedFetch(at('127.0.0.1', '/echo'), { policy: POLICY })).body.toString());
    expect(echoed).toMatchObject({ method: 'GET', body: '' });
    expect(echoed.headers['content-length']).toBeUndefined();
  });

  it.each([301, 302, 303, 307, 308])('returns a %i answer to a POST as is, whatever maxRedirects says', async (status) => {
    const url = at('127.0.0.1', `/redirect?status=${status}&to=/hello`);
    const res = await guardedFetch(url, { policy: POLICY, method: 'POST', body: 'x', maxRedirects: 5 });
    expect(res).toMatchObject({ status, finalUrl: url, redirects: [] });
    expect(res.headers.location).toBe('/hello');
    expect(seen).toEqual(['127.0.0.1/redirect']);
    seen.length = 0;
  });

  it('tells how a too-large body was answered', async () => {
    const err = await guardedFetch(at('127.0.0.1', '/big'), { policy: POLICY, maxBytes: 500 }).catch((e) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.status).toBe(200);
  });

  it('keeps the first maxBytes of a longer body when asked to truncate, and asks for no encoding', async () => {
    const whole = await guardedFetch(at('127.0.0.1', '/big'), { policy: POLICY, maxBytes: 500, truncate: true });
    expect(whole).toMatchObject({ status: 200 });
    expect(whole.body).toEqual(Buffer.alloc(500, 'a'));
    const chunked = await guardedFetch(at('127.0.0.1', '/big-chunked'), { policy: POLICY, maxBytes: 700, truncate: true });
    expect(chunked.body.toString()).toBe('a'.repeat(600) + 'b'.repeat(100));
    const sent = JSON.parse((await guardedFetch(at('127.0.0.1', '/headers'), { policy: POLICY, maxBytes: 10_000, truncate: true })).body.toString());
    expect(sent['accept-encoding']).toBe('identity');
  });

  it('reuses connections through keep-alive agents, and still checks every hop', async () => {
    const agents = keepAliveAgents();
    try {
      const ports = new Set<string>();
      for (let i = 0; i < 3; i++) ports.add((await guardedFetch(at('127.0.0.1', '/port'), { policy: POLICY, agents })).body.toString());
      expect(ports.size).toBe(1);
      // Without agents, a connection per fetch.
      const fresh = new Set<string>();
      for (let i = 0; i < 2; i++) fresh.add((await guardedFetch(at('127.0.0.1', '/port'), { policy: POLICY })).body.toString());
      expect(fresh.size).toBe(2);
      await expect(guardedFetch(at('127.0.0.2', '/hello'), { policy: POLICY, agents })).rejects.toBeInstanceOf(BlockedAddressError);
      const hop = at('127.0.0.1', `/redirect?to=${encodeURIComponent(at('127.0.0.2', '/hello'))}`);
      await expect(guardedFetch(hop, { policy: POLICY, agents })).rejects.toBeInstanceOf(BlockedAddressError);
    } finally {
      agents.http.destroy();
    }
  });

  it('lets everything through when private addresses are allowed', async () => {
    const open: AddressPolicy = { allowPrivate: true, allowlist: [] };
    expect((await guardedFetch(at('127.0.0.2', '/whoami'), { policy: open })).body.toString()).toBe('127.0.0.2');
    expect((await guardedFetch(at('localhost', '/hello'), { policy: open })).body.toString()).toBe('hello');
    const start = at('127.0.0.1', `/redirect?to=${encodeURIComponent(at('127.0.0.2', '/whoami'))}`);
    expect((await guardedFetch(start, { policy: open })).body.toString()).toBe('127.0.0.2');
  });
});

describe("guardedFetch and the service's own listeners", () => {
  const service = () => ({ name: 'gateway', host: '0.0.0.0', port });

  it('refuses a listener even where private addresses are allowed', async () => {
    const policy: AddressPolicy = { allowPrivate: true, allowlist: [], serviceEndpoints: [service()] };
    const direct = await guardedFetch(at('localhost', '/hello'), { policy }).catch((e) => e);
    expect(direct).toBeInstanceOf(BlockedAddressError);
    expect(direct.message).toMatch(new RegExp(`localhost:${port} resolves to .*:${port}, this service's gateway\\.`));
    expect(seen).toEqual([]);
  });

  it('refuses a redirect hop to a listener on another port, after the first hop was fetched', async () => {
    const other = http.createServer((_req, res) => res.writeHead(302, { location: at('127.0.0.1', '/hello') }).end());
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
      const policy: AddressPolicy = { allowPrivate: false, allowlist: ['127.0.0.1'], serviceEndpoints: [service()] };
      const err = await guardedFetch(otherUrl, { policy }).catch((e) => e);
      expect(err).toBeInstanceOf(BlockedAddressError);
      expect(err.url).toBe(at('127.0.0.1', '/hello'));
      expect(err.message).toMatch(`127.0.0.1:${port} is this service's gateway.`);
      expect(seen).toEqual([]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});

describe('createGuardedLookup', () => {
  const resolver: Resolver = (host, _options, cb) =>
    process.nextTick(() =>
      cb(
        null,
        host === 'mixed.test'
          ? [
              { address: '93.184.215.14', family: 4 },
              { address: '10.0.0.1', family: 4 },
            ]
          : [
              { address: '2606:4700::1', family: 6 },
              { address: '93.184.215.14', family: 4 },
            ],
      ),
    );
  const lookup = createGuardedLookup({ allowPrivate: false, allowlist: [] }, resolver);
  const call = (host: string, options: object) => new Promise<unknown[]>((resolve) => lookup(host, options, (...args: unknown[]) => resolve(args)));

  it('answers every form Node uses', async () => {
    expect(await call('public.test', { all: true })).toEqual([
      null,
      [
        { address: '2606:4700::1', family: 6 },
        { address: '93.184.215.14', family: 4 },
      ],
    ]);
    expect(await call('public.test', {})).toEqual([null, '2606:4700::1', 6]);
    const legacy = await new Promise<unknown[]>((resolve) =>
      (lookup as unknown as (h: string, cb: (...args: unknown[]) => void) => void)('public.test', (...args) => resolve(args)),
    );
    expect(legacy).toEqual([null, '2606:4700::1', 6]);
  });

  it('refuses a host when any of its addresses is blocked', async () => {
    const [err] = await call('mixed.test', { all: true });
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect((err as BlockedAddressError).address).toBe('10.0.0.1');
  });

  it('checkHostAllowed returns the checked addresses or throws', async () => {
    await expect(checkHostAllowed('public.test', { allowPrivate: false, allowlist: [] }, resolver)).resolves.toHaveLength(2);
    await expect(checkHostAllowed('mixed.test', { allowPrivate: false, allowlist: [] }, resolver)).rejects.toThrow(BlockedAddressError);
    await expect(checkHostAllowed('169.254.169.254', { allowPrivate: false, allowlist: [] }, resolver)).rejects.toThrow(/cloud-metadata address/);
    await expect(checkHostAllowed('mixed.test', { allowPrivate: true, allowlist: [] }, resolver)).resolves.toHaveLength(2);
  });
});
