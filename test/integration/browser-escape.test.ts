// A hostile page in the scraper's own Chromium, with the guard on and only
// 127.0.0.1 allowlisted. The site listens on 0.0.0.0, so 127.0.0.2 (loopback,
// not allowlisted) would reach it if anything got past the guard: the page
// tries fetch, a WebSocket, WebRTC (STUN, TURN and ICE candidates over UDP and
// TCP), WebTransport (QUIC) and service workers toward 127.0.0.2, and a UDP
// socket counts every packet that arrives. While the page is open, the test
// reads the browser's processes in /proc: sandboxed, not root, no secrets in
// their environment.
import dgram from 'node:dgram';
import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrapeOptionsSchema } from '../../src/page/scrape-options.ts';
import { scrapeWithBrowser, type FetchedPage } from '../../src/page/browser-scraper.ts';
import { CHROMIUM_ARGS, chromiumLaunch } from '../../src/platform/browser/chromium-launch.ts';
import { CHROMIUM_ENVIRONMENT } from '../../src/platform/browser/chromium-environment.ts';
import { loadConfig } from '../../src/config.ts';
import { startGuardProxy, type GuardProxy } from '../../src/platform/net/guard-proxy.ts';

const BLOCKED = '127.0.0.2';
// Set in this process before Chromium starts: none may reach its environment.
const SECRETS: Record<string, string> = {
  DATABASE_URL: 'postgresql://crawl:db-secret-4711@db:5432/crawl',
  LLM_API_KEY: 'sk-llm-secret-4711',
  CRAWL_PROXY_URL: 'http://user:proxy-secret-4711@proxy:3128',
  SOME_TEAM_TOKEN: 'token-secret-4711',
};

let site: http.Server;
let port: number;
let udp: dgram.Socket;
let udpPort: number;
let proxy: GuardProxy;
/** Local address of every TCP connection the site accepted. */
const connections: string[] = [];
const served: string[] = [];
const udpPackets: string[] = [];
const savedEnv: Record<string, string | undefined> = {};

function escapePage(): string {
  const script = `
    const B = '${BLOCKED}', TCP = ${port}, UDP = ${udpPort};
    const results = {};
    const settle = (p, ms) => Promise.race([p, new Promise((r) => setTimeout(() => r('no answer'), ms))]);
    const attempt = async (name, fn, ms = 4000) => {
      try { results[name] = String(await settle(fn(), ms)); } catch (e) { results[name] = 'error: ' + e.message; }
    };
    async function webrtc() {
      const pc = new RTCPeerConnection({ iceServers: [
        { urls: 'stun:' + B + ':' + UDP },
        { urls: ['turn:' + B + ':' + UDP + '?transport=udp', 'turn:' + B + ':' + TCP + '?transport=tcp'], username: 'u', credential: 'c' },
      ] });
      pc.createDataChannel('x');
      const offer = await pc.createOffer();
      await pc.setLocalDescription(offer);
      // A made-up answer whose candidates are the blocked address: ICE checks would go straight there.
      const sdp = offer.sdp.replace(/a=setup:actpass/g, 'a=setup:active')
        .replace(/a=ice-ufrag:.*/, 'a=ice-ufrag:abcd').replace(/a=ice-pwd:.*/, 'a=ice-pwd:abcdefghijklmnopqrstuvwx');
      await pc.setRemoteDescription({ type: 'answer', sdp });
      await pc.addIceCandidate({ candidate: 'candidate:1 1 udp 2122260223 ' + B + ' ' + UDP + ' typ host', sdpMid: '0', sdpMLineIndex: 0 });
      await pc.addIceCandidate({ candidate: 'candidate:2 1 tcp 1518280447 ' + B + ' ' + TCP + ' typ host tcptype passive', sdpMid: '0', sdpMLineIndex: 0 });
      await new Promise((r) => setTimeout(r, 3000));
      return pc.iceConnectionState;
    }
    Promise.all([
      attempt('control', () => fetch('/allowed').then((r) => r.text())),
      attempt('fetch', () => fetch('http://' + B + ':' + TCP + '/fetch', { mode: 'no-cors' }).then((r) => 'answered ' + r.type)),
      attempt('websocket', () => new Promise((resolve) => {
        const ws = new WebSocket('ws://' + B + ':' + TCP + '/ws');
        ws.onopen = () => resolve('open');
        ws.onerror = () => resolve('failed');
      })),
      attempt('webrtc', webrtc, 6000),
      attempt('webtransport', () => new WebTransport('https://' + B + ':' + UDP + '/').ready.then(() => 'ready')),
      attempt('serviceWorkerElsewhere', () => navigator.serviceWorker.register('http://' + B + ':' + TCP + '/sw.js').then(() => 'registered')),
      attempt('serviceWorker', () => navigator.serviceWorker.register('/sw.js').then((r) => 'registered ' + Boolean(r))),
    ]).then(() => {
      document.getElementById('results').textContent = JSON.stringify(results);
      document.body.insertAdjacentHTML('beforeend', '<p id="done">done</p>');
    });`;
  return `<!doctype html><html><head><title>escape</title></head><body><pre id="results"></pre><script>${script}</script></body></html>`;
}

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  served.push(`${req.socket.localAddress}${req.url}`);
  if (req.url === '/allowed') return void res.end('allowed');
  if (req.url === '/sw.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(`fetch('http://${BLOCKED}:${port}/from-sw');`);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html' }).end(escapePage());
}

beforeAll(async () => {
  for (const [name, value] of Object.entries(SECRETS)) {
    savedEnv[name] = process.env[name];
    process.env[name] = value;
  }
  site = http.createServer(handle);
  site.on('connection', (socket) => connections.push(socket.localAddress ?? '?'));
  site.on('upgrade', (_req, socket) => socket.destroy());
  site.listen(0, '0.0.0.0');
  await new Promise((resolve) => site.once('listening', resolve));
  port = (site.address() as AddressInfo).port;
  udp = dgram.createSocket('udp4');
  udp.on('message', (msg, from) => udpPackets.push(`${msg.length} bytes from ${from.address}:${from.port}`));
  await new Promise<void>((resolve) => udp.bind(0, '0.0.0.0', resolve));
  udpPort = udp.address().port;
  proxy = await startGuardProxy({ policy: { allowPrivate: false, allowlist: ['127.0.0.1'] } });
});

afterAll(async () => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await proxy?.close();
  udp?.close();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

interface ProcessInfo {
  pid: number;
  cmdline: string;
  status: string;
  environ: string[] | undefined;
}

function parentOf(pid: string): number | undefined {
  try {
    return Number(
      readFileSync(`/proc/${pid}/stat`, 'utf8')
        .replace(/^.*\) /, '')
        .split(' ')[1],
    );
  } catch {
    return undefined;
  }
}

/** Every process below this one (Chromium and its helpers), as /proc shows them. */
function descendants(): ProcessInfo[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    const parent = parentOf(entry);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: ProcessInfo[] = [];
  const stack = [...(children.get(process.pid) ?? [])];
  while (stack.length) {
    const pid = stack.pop()!;
    stack.push(...(children.get(pid) ?? []));
    try {
      const read = (file: string) => readFileSync(`/proc/${pid}/${file}`, 'utf8');
      let environ: string[] | undefined;
      try {
        environ = read('environ').split('\0').filter(Boolean);
      } catch {
        // A sandboxed process in its own user namespace may not be readable: its parent was.
      }
      found.push({ pid, cmdline: read('cmdline').split('\0').join(' '), status: read('status'), environ });
    } catch {
      // Gone since the listing.
    }
  }
  return found;
}

const statusField = (p: ProcessInfo, name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(p.status)?.[1];

describe('a hostile page in the scraper', () => {
  it('reaches nothing blocked by fetch, WebSocket, WebRTC, WebTransport or a service worker, in a sandboxed Chromium without secrets', async () => {
    // Another file of this worker may have left a browser running below it (a warm browser idles
    // for minutes): only the processes this test starts are this browser's.
    const before = new Set(descendants().map((p) => p.pid));
    const config = loadConfig();
    const browser = chromiumLaunch({ ...config.chromium, headless: true });
    let page: FetchedPage | undefined;
    let processes: ProcessInfo[] = [];
    const failures: string[] = [];
    await scrapeWithBrowser([{ url: `http://127.0.0.1:${port}/escape`, key: 'escape' }], {
      browser,
      proxyServer: proxy.url,
      concurrency: 1,
      scrapeOptions: scrapeOptionsSchema.parse({ actions: [{ type: 'wait', selector: '#done' }] }),
      // The page is still open here: its renderer is alive.
      onPage: async (p) => {
        page = p;
        processes = descendants().filter((p) => !before.has(p.pid));
      },
      onFailure: async (_target, error) => void failures.push(error),
    });
    expect(failures).toEqual([]);
    const results = JSON.parse(/<pre id="results">(.*?)<\/pre>/s.exec(page!.rawHtml)![1].replaceAll('&quot;', '"'));

    // The page ran, and its own origin stays reachable.
    expect(results.control).toBe('allowed');
    expect(results.websocket).toBe('failed');
    // Nothing reached the blocked address, over TCP or UDP.
    expect(connections.filter((a) => a !== '127.0.0.1')).toEqual([]);
    expect(udpPackets).toEqual([]);
    expect(served.filter((s) => !s.startsWith('127.0.0.1/'))).toEqual([]);
    // The proxy is where fetch and the WebSocket were stopped.
    expect(proxy.blockedReason(`http://${BLOCKED}:${port}/`)).toMatch(`${BLOCKED} is a loopback address`);
    // Service workers are blocked: the same-origin script was never even requested.
    expect(served).not.toContain('127.0.0.1/sw.js');

    const browserProcess = processes.find((p) => p.cmdline.includes('--remote-debugging-pipe'));
    expect(browserProcess, 'the Chromium browser process').toBeDefined();
    expect(browserProcess!.cmdline).not.toContain('--no-sandbox');
    expect(browserProcess!.cmdline).toContain(`--proxy-server=${proxy.url}`);
    expect(browserProcess!.cmdline).toContain('--proxy-bypass-list=<-loopback>');
    expect(browserProcess!.cmdline).toContain('--force-webrtc-ip-handling-policy=disable_non_proxied_udp');
    expect(browserProcess!.cmdline).toContain('--disable-quic');

    // The renderer runs under the sandbox's seccomp filter (mode 2), which --no-sandbox leaves out.
    const renderers = processes.filter((p) => p.cmdline.includes('--type=renderer'));
    expect(renderers.length).toBeGreaterThan(0);
    for (const renderer of renderers) expect(statusField(renderer, 'Seccomp'), `renderer ${renderer.pid}`).toBe('2');

    // Not root when the test is root; the worker's own uid otherwise.
    const uid = process.getuid!();
    for (const p of processes) {
      const uids = statusField(p, 'Uid')!.split(/\s+/).map(Number);
      if (uid === 0)
        expect(
          uids.every((u) => u !== 0),
          `uids of ${p.pid}: ${uids}`,
        ).toBe(true);
      else expect(uids.every((u) => u === uid)).toBe(true);
    }
    if (uid === 0) expect(browser.user).toBeDefined();

    // PWD is the wrapper shell's own (Chromium's home directory when it drops to CHROMIUM_USER).
    const allowed = new Set<string>([...CHROMIUM_ENVIRONMENT, 'PWD']);
    expect(browserProcess!.environ, 'environment of the browser process').toBeDefined();
    expect(browserProcess!.environ!.map((e) => e.split('=')[0]).filter((name) => !allowed.has(name))).toEqual([]);
    // Helpers retitle themselves over the memory /proc/<pid>/environ shows, so only the absence of secrets is checked there.
    for (const p of processes.filter((p) => p.environ !== undefined)) {
      const text = p.environ!.join('\n');
      for (const [name, secret] of Object.entries(SECRETS)) {
        expect(text, `environment of ${p.pid}`).not.toContain(secret);
        expect(text, `environment of ${p.pid}`).not.toContain(`${name}=`);
      }
    }
  });

  it('does send UDP to the blocked address without the WebRTC policy (the listener can see a leak)', async () => {
    const launch = chromiumLaunch({ ...loadConfig().chromium, headless: true });
    const options = launch.launchOptions(proxy.url);
    const browser = await chromium.launch({ ...options, args: CHROMIUM_ARGS.filter((a) => !a.startsWith('--force-webrtc-ip-handling-policy')) });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${port}/escape`);
      await page.waitForSelector('#done');
    } finally {
      await browser.close();
    }
    expect(udpPackets.length).toBeGreaterThan(0);
    // Still nothing over TCP: that part is the proxy's work, not the policy's.
    expect(connections.filter((a) => a !== '127.0.0.1')).toEqual([]);
  });
});
