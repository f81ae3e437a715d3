// The servers listen on 0.0.0.0, so they answer as 127.0.0.1 (allowlisted) and
// as 127.0.0.2 (blocked): Linux routes all of 127.0.0.0/8 to loopback.
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AddressPolicy } from '../../../src/platform/net/address-policy.ts';
import { hostListed, startGuardProxy, type GuardProxy } from '../../../src/platform/net/guard-proxy.ts';
import { freePort } from '../../../src/platform/process/ports.ts';

const POLICY: AddressPolicy = { allowPrivate: false, allowlist: ['127.0.0.1'] };

const originRequests: { address: string; url: string; headers: http.IncomingHttpHeaders }[] = [];
let origin: http.Server;
let originPort: number;
let echo: net.Server;
let echoPort: number;
let proxy: GuardProxy;

async function listen(server: net.Server): Promise<number> {
  server.listen(0, '0.0.0.0');
  await once(server, 'listening');
  return (server.address() as net.AddressInfo).port;
}

async function stop(server: net.Server): Promise<void> {
  if (server instanceof http.Server) server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

interface Reply {
  status: number;
  body: string;
}

function viaProxy(proxyPort: number, url: string, headers: http.OutgoingHttpHeaders = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort, path: url, agent: false, headers: { host: headers.host ?? new URL(url).host, ...headers } });
    req.on('error', reject);
    req.on('response', async (res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk);
      resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() });
    });
    req.end();
  });
}

function connectVia(proxyPort: number, target: string): Promise<{ status: number; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort, method: 'CONNECT', path: target, agent: false });
    req.on('error', reject);
    req.on('connect', (res, socket) => resolve({ status: res.statusCode!, socket: socket as net.Socket }));
    req.end();
  });
}

async function roundTrip(socket: net.Socket, text: string): Promise<string> {
  socket.write(text);
  const [data] = await once(socket, 'data');
  return String(data);
}

beforeAll(async () => {
  origin = http.createServer((req, res) => {
    originRequests.push({ address: req.socket.localAddress!, url: req.url!, headers: req.headers });
    res.setHeader('x-served-by', req.socket.localAddress!);
    res.end(`hello from ${req.socket.localAddress}`);
  });
  echo = net.createServer((socket) => socket.pipe(socket));
  [originPort, echoPort] = await Promise.all([listen(origin), listen(echo)]);
  proxy = await startGuardProxy({ policy: POLICY });
});

afterAll(async () => {
  await proxy.close();
  await Promise.all([stop(origin), stop(echo)]);
});

afterEach(() => {
  originRequests.length = 0;
});

describe('guard proxy, plain HTTP', () => {
  it('forwards a request to an allowed address without hop-by-hop headers', async () => {
    const reply = await viaProxy(proxy.port, `http://127.0.0.1:${originPort}/page?q=1`, {
      'proxy-authorization': 'Basic c2VjcmV0',
      connection: 'keep-alive, x-hop',
      'x-hop': 'dropped',
      'x-end': 'kept',
    });
    expect(reply).toEqual({ status: 200, body: 'hello from 127.0.0.1' });
    expect(originRequests).toHaveLength(1);
    expect(originRequests[0].url).toBe('/page?q=1');
    expect(originRequests[0].headers).toMatchObject({ host: `127.0.0.1:${originPort}`, 'x-end': 'kept' });
    expect(originRequests[0].headers['proxy-authorization']).toBeUndefined();
    expect(originRequests[0].headers['x-hop']).toBeUndefined();
  });

  it('answers 403 with the reason for a blocked address and remembers it', async () => {
    const url = `http://127.0.0.2:${originPort}/secret`;
    const reply = await viaProxy(proxy.port, url);
    expect(reply.status).toBe(403);
    expect(reply.body).toContain(`Refused to crawl ${url}: 127.0.0.2 is a loopback address.`);
    expect(originRequests).toEqual([]);
    expect(proxy.blockedReason(`http://127.0.0.2:${originPort}/other`)).toMatch(
      `Refused to crawl http://127.0.0.2:${originPort}/other: 127.0.0.2 is a loopback address.`,
    );
    expect(proxy.blockedReason(`http://127.0.0.1:${originPort}/`)).toBeUndefined();
    expect(proxy.blockedReason('not a url')).toBeUndefined();
  });

  it('remembers why an allowed address could not be reached, until it answers again', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/gone`;
    expect((await viaProxy(proxy.port, url)).status).toBe(502);
    expect(proxy.failureReason(url)).toMatch(/ECONNREFUSED/);
    const tunnel = await connectVia(proxy.port, `127.0.0.1:${port}`);
    tunnel.socket.destroy();
    expect(tunnel.status).toBe(502);
    expect(proxy.failureReason(`https://127.0.0.1:${port}/any`)).toMatch(/ECONNREFUSED/);

    const revived = http.createServer((_req, res) => res.end('back'));
    revived.listen(port, '127.0.0.1');
    await once(revived, 'listening');
    try {
      expect(await viaProxy(proxy.port, url)).toEqual({ status: 200, body: 'back' });
      expect(proxy.failureReason(url)).toBeUndefined();
    } finally {
      await stop(revived);
    }
  });

  it('refuses requests that are not absolute http URLs', async () => {
    expect((await viaProxy(proxy.port, '/relative', { host: `127.0.0.1:${originPort}` })).status).toBe(400);
    expect((await viaProxy(proxy.port, `https://127.0.0.1:${originPort}/`)).status).toBe(400);
    expect(originRequests).toEqual([]);
  });
});

describe('guard proxy, CONNECT', () => {
  it('tunnels to an allowed address', async () => {
    const { status, socket } = await connectVia(proxy.port, `127.0.0.1:${echoPort}`);
    expect(status).toBe(200);
    expect(await roundTrip(socket, 'ping')).toBe('ping');
    socket.destroy();
  });

  it('tunnels to a hostname through the address it checked', async () => {
    const { status, socket } = await connectVia(proxy.port, `localhost:${originPort}`);
    expect(status).toBe(200);
    const reply = await roundTrip(socket, `GET /tunnelled HTTP/1.1\r\nHost: localhost:${originPort}\r\nConnection: close\r\n\r\n`);
    expect(reply).toContain('x-served-by: 127.0.0.1');
    socket.destroy();
  });

  it('answers 403 to a tunnel to a blocked address', async () => {
    const { status, socket } = await connectVia(proxy.port, `127.0.0.2:${echoPort}`);
    expect(status).toBe(403);
    socket.destroy();
    expect(proxy.blockedReason(`https://127.0.0.2:${echoPort}/`)).toMatch(/127\.0\.0\.2 is a loopback address/);
  });

  it('answers 400 to a malformed target', async () => {
    const { status, socket } = await connectVia(proxy.port, 'no-port');
    expect(status).toBe(400);
    socket.destroy();
  });

  it('destroys open tunnels on close', async () => {
    const own = await startGuardProxy({ policy: POLICY });
    const { socket } = await connectVia(own.port, `127.0.0.1:${echoPort}`);
    expect(await roundTrip(socket, 'before')).toBe('before');
    const closed = once(socket, 'close');
    await own.close();
    await closed;
  });
});

describe('guard proxy with an upstream proxy', () => {
  const asked: { method: string; target: string; host?: string; authorization?: string }[] = [];
  let upstream: http.Server;
  let chained: GuardProxy;

  beforeAll(async () => {
    // A minimal upstream proxy that records what it was asked for and obeys.
    upstream = http.createServer((req, res) => {
      asked.push({ method: req.method!, target: req.url!, host: req.headers.host, authorization: req.headers['proxy-authorization'] });
      const url = new URL(req.url!);
      const { 'proxy-authorization': _, ...headers } = req.headers;
      http
        .request({ host: url.hostname, port: url.port, path: url.pathname, headers, agent: false }, (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode!, upstreamRes.headers);
          upstreamRes.pipe(res);
        })
        .end();
    });
    upstream.on('connect', (req, client: net.Socket) => {
      asked.push({ method: 'CONNECT', target: req.url!, authorization: req.headers['proxy-authorization'] });
      const [host, port] = req.url!.split(':');
      const target = net.connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        client.pipe(target).pipe(client);
      });
      client.on('error', () => target.destroy());
      target.on('error', () => client.destroy());
    });
    const port = await listen(upstream);
    chained = await startGuardProxy({ policy: POLICY, upstream: `http://pool-user:p%40ss@127.0.0.1:${port}` });
  });

  afterAll(async () => {
    await chained.close();
    await stop(upstream);
  });

  afterEach(() => {
    asked.length = 0;
  });

  const credentials = `Basic ${Buffer.from('pool-user:p@ss').toString('base64')}`;

  it('asks the upstream to CONNECT to the checked IP, not the hostname', async () => {
    const { status, socket } = await connectVia(chained.port, `localhost:${echoPort}`);
    expect(status).toBe(200);
    expect(await roundTrip(socket, 'via upstream')).toBe('via upstream');
    socket.destroy();
    expect(asked).toEqual([{ method: 'CONNECT', target: `127.0.0.1:${echoPort}`, authorization: credentials }]);
  });

  it('asks the upstream for an absolute URI naming the checked IP, with the original Host', async () => {
    const reply = await viaProxy(chained.port, `http://localhost:${originPort}/page`);
    expect(reply).toEqual({ status: 200, body: 'hello from 127.0.0.1' });
    expect(asked).toEqual([{ method: 'GET', target: `http://127.0.0.1:${originPort}/page`, host: `localhost:${originPort}`, authorization: credentials }]);
    expect(originRequests[0].headers.host).toBe(`localhost:${originPort}`);
  });

  it('refuses blocked targets without asking the upstream', async () => {
    const { status, socket } = await connectVia(chained.port, `127.0.0.2:${echoPort}`);
    expect(status).toBe(403);
    socket.destroy();
    expect((await viaProxy(chained.port, `http://127.0.0.2:${originPort}/`)).status).toBe(403);
    expect(asked).toEqual([]);
  });
});

describe("the service's own listeners", () => {
  let guarded: GuardProxy;

  beforeAll(async () => {
    // The guard is off (allowPrivate): the listeners are refused all the same.
    guarded = await startGuardProxy({
      policy: { allowPrivate: true, allowlist: [], serviceEndpoints: [{ name: 'Temporal UI', host: '127.0.0.1', port: originPort }] },
    });
  });

  afterAll(async () => {
    await guarded.close();
  });

  it('refuses them by address and port, in requests and tunnels, and explains the refusal', async () => {
    const url = `http://127.0.0.1:${originPort}/api/v1/namespaces/default/workflows`;
    const reply = await viaProxy(guarded.port, url);
    expect(reply.status).toBe(403);
    expect(reply.body).toContain(`Refused to crawl ${url}: 127.0.0.1:${originPort} is this service's Temporal UI.`);
    const { status, socket } = await connectVia(guarded.port, `localhost:${originPort}`);
    socket.destroy();
    expect(status).toBe(403);
    expect(originRequests).toEqual([]);
    expect(guarded.blockedReason(`https://localhost:${originPort}/`)).toMatch(`localhost:${originPort} resolves to`);
    // 0.0.0.0 reaches the machine's own listeners.
    expect((await viaProxy(guarded.port, `http://0.0.0.0:${originPort}/`)).status).toBe(403);
  });

  it('lets other ports of the same address through', async () => {
    const { status, socket } = await connectVia(guarded.port, `127.0.0.1:${echoPort}`);
    expect(status).toBe(200);
    expect(await roundTrip(socket, 'still open')).toBe('still open');
    socket.destroy();
    expect(guarded.blockedReason(`http://127.0.0.1:${echoPort}/`)).toBeUndefined();
  });

  it('refuses to connect to itself', async () => {
    const reply = await viaProxy(guarded.port, `http://127.0.0.1:${guarded.port}/`);
    expect(reply.status).toBe(403);
    expect(reply.body).toContain(`127.0.0.1:${guarded.port} is this service's guard proxy.`);
  });
});

describe('refused hosts (blockAds)', () => {
  let refusing: GuardProxy;

  beforeAll(async () => {
    refusing = await startGuardProxy({ policy: POLICY, refusedHosts: { hosts: ['ads.test', 'pixel.test'], why: 'is refused here' } });
  });

  afterAll(async () => {
    await refusing.close();
  });

  it('refuses a listed host and its subdomains before looking them up, in requests and tunnels, and explains it', async () => {
    const reply = await viaProxy(refusing.port, 'http://Cdn.Ads.Test./script.js');
    expect(reply).toEqual({ status: 403, body: 'cdn.ads.test. is refused here\n' });
    const { status, socket } = await connectVia(refusing.port, 'pixel.test:443');
    socket.destroy();
    expect(status).toBe(403);
    expect(refusing.blockedReason('https://pixel.test/p.gif')).toBe('pixel.test is refused here');
    // Explained only once refused: a host this proxy never saw is nobody's failure.
    expect(refusing.blockedReason('https://other.ads.test/')).toBeUndefined();
  });

  it('lets other hosts through, those ending in a listed name included', async () => {
    expect((await viaProxy(refusing.port, `http://127.0.0.1:${originPort}/`)).status).toBe(200);
    // Not refused: looked up (and unknown here).
    expect((await viaProxy(refusing.port, 'http://notads.test/')).status).toBe(502);
  });
});

describe('hostListed', () => {
  it('matches a name and its subdomains, whatever the case, a trailing dot or brackets', () => {
    const hosts = ['doubleclick.net'];
    expect(hostListed('doubleclick.net', hosts)).toBe(true);
    expect(hostListed('Ads.DoubleClick.NET.', hosts)).toBe(true);
    expect(hostListed('notdoubleclick.net', hosts)).toBe(false);
    expect(hostListed('doubleclick.net.example', hosts)).toBe(false);
    expect(hostListed('[::1]', hosts)).toBe(false);
  });
});
