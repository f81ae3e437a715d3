// Real Chromium behind the guard proxy. The site listens on 0.0.0.0, so it
// answers as 127.0.0.1 (allowlisted) and as 127.0.0.2 (blocked): that a
// loopback address is refused at all shows Chromium sent it through the proxy
// rather than connecting directly, which is what <-loopback> is for.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { chromiumLaunch } from '../../src/platform/browser/chromium-launch.ts';
import { startGuardProxy, type GuardProxy } from '../../src/platform/net/guard-proxy.ts';

const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

let site: http.Server;
let port: number;
let proxy: GuardProxy;
let browser: Browser;
let page: Page;
const served: string[] = [];
// Upgraded sockets leave the server's bookkeeping, so closeAllConnections() misses them.
const webSockets = new Set<Socket>();

const at = (host: string, path: string) => `http://${host}:${port}${path}`;

function html(body: string): string {
  return `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
}

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  served.push(`${req.socket.localAddress}${req.url}`);
  if (req.url === '/redirect') {
    res.writeHead(302, { location: at('127.0.0.2', '/secret') }).end();
    return;
  }
  const body = req.url === '/secret' ? html('<p>SECRET</p>') : html(`<p>allowed page</p><img src="${at('127.0.0.2', '/pixel.png')}">`);
  res.writeHead(200, { 'content-type': 'text/html' }).end(body);
}

// Just enough of RFC 6455 to greet: accept the handshake, send one text frame.
function greetWebSocket(req: http.IncomingMessage, socket: Socket): void {
  served.push(`${socket.localAddress}${req.url} (websocket)`);
  const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}${WEBSOCKET_GUID}`).digest('base64');
  const greeting = Buffer.from(`hello from ${socket.localAddress}`);
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  socket.write(Buffer.concat([Buffer.from([0x81, greeting.length]), greeting]));
  socket.on('error', () => socket.destroy());
  webSockets.add(socket);
}

beforeAll(async () => {
  site = http.createServer(handle);
  site.on('upgrade', greetWebSocket);
  site.listen(0, '0.0.0.0');
  await once(site, 'listening');
  port = (site.address() as AddressInfo).port;
  proxy = await startGuardProxy({ policy: { allowPrivate: false, allowlist: ['127.0.0.1'] } });
  // As the scraper launches it: sandboxed, with the proxy and <-loopback> as the only bypass rule.
  browser = await chromium.launch(chromiumLaunch({ ...loadConfig().chromium, headless: true }).launchOptions(proxy.url));
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  site?.closeAllConnections();
  for (const socket of webSockets) socket.destroy();
  await new Promise((resolve) => site?.close(resolve));
});

beforeEach(async () => {
  page = await browser.newPage();
});

afterEach(async () => {
  await page.close();
  served.length = 0;
});

function webSocketGreeting(url: string): Promise<string> {
  return page.evaluate(
    (wsUrl) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(wsUrl);
        ws.onmessage = (event) => {
          resolve(String(event.data));
          ws.close();
        };
        ws.onerror = () => resolve('failed');
      }),
    url,
  );
}

describe('Chromium through the guard proxy', () => {
  it('loads a page from an allowed address and drops its blocked subresources', async () => {
    const response = await page.goto(at('127.0.0.1', '/'));
    expect(response?.status()).toBe(200);
    expect(await page.textContent('body')).toContain('allowed page');
    expect(served).toEqual(['127.0.0.1/']);
    expect(proxy.blockedReason(at('127.0.0.2', '/pixel.png'))).toMatch(/127\.0\.0\.2 is a loopback address/);
  });

  it('answers a plain-HTTP page on a blocked address with the proxy 403', async () => {
    const url = at('127.0.0.2', '/secret');
    const response = await page.goto(url);
    expect(response?.status()).toBe(403);
    expect(await page.textContent('body')).toContain(`Refused to crawl ${url}: 127.0.0.2 is a loopback address.`);
    expect(proxy.blockedReason(url)).toMatch(`Refused to crawl ${url}: 127.0.0.2 is a loopback address.`);
    expect(served).toEqual([]);
  });

  it('fails an HTTPS page on a blocked address with ERR_TUNNEL_CONNECTION_FAILED', async () => {
    const url = `https://127.0.0.2:${port}/secret`;
    await expect(page.goto(url)).rejects.toThrow(/net::ERR_TUNNEL_CONNECTION_FAILED/);
    expect(proxy.blockedReason(url)).toMatch(`Refused to crawl ${url}: 127.0.0.2 is a loopback address.`);
    expect(served).toEqual([]);
  });

  it('stops a redirect from the allowed host to the blocked one', async () => {
    const response = await page.goto(at('127.0.0.1', '/redirect'));
    expect(response?.status()).toBe(403);
    expect(response?.url()).toBe(at('127.0.0.2', '/secret'));
    expect(await page.textContent('body')).not.toContain('SECRET');
    expect(served).toEqual(['127.0.0.1/redirect']);
  });

  it('tunnels WebSockets with CONNECT and refuses blocked ones', async () => {
    await page.goto(at('127.0.0.1', '/'));
    expect(await webSocketGreeting(`ws://127.0.0.1:${port}/ws`)).toBe('hello from 127.0.0.1');
    expect(await webSocketGreeting(`ws://127.0.0.2:${port}/ws`)).toBe('failed');
    expect(served).toEqual(['127.0.0.1/', '127.0.0.1/ws (websocket)']);
    expect(proxy.blockedReason(`ws://127.0.0.2:${port}/ws`)).toMatch(/127\.0\.0\.2 is a loopback address/);
  });
});
