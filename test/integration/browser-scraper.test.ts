// scrapeWithBrowser with real Chromium against a local server. Several URLs share
// one call (one browser) where their options allow it, to keep the file quick.
// The same server also acts as an HTTP proxy (absolute-form requests, CONNECT),
// so proxied runs can name hosts that never resolve and still stay on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { scrapeOptionsSchema, type ScrapeOptionsInput } from '../../src/page/scrape-options.ts';
import { loadConfig } from '../../src/config.ts';
import { chromiumLaunch } from '../../src/platform/browser/chromium-launch.ts';
import { scrapeWithBrowser, type BrowserScrapeOptions, type FetchedPage } from '../../src/page/browser-scraper.ts';
import { DEFAULT_USER_AGENTS, PRODUCT_TOKEN } from '../../src/platform/net/user-agents.ts';
import type { Logger } from '../../src/platform/log.ts';
import { createCrawlNetwork } from '../../src/platform/net/outbound-network.ts';
import { AD_HOST_REFUSAL } from '../../src/page/ad-block.ts';

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
}

let server: http.Server;
let base: string;
const seen: Seen[] = [];
const refusedTunnels: string[] = [];

function html(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`;
}

const PAGES: Record<string, string> = {
  '/echo': html('Echo', '<h1>Echo</h1>', '<meta name="viewport" content="width=device-width, initial-scale=1">'),
  '/late': html('Late', '<p id="late">early</p><script>setTimeout(() => { document.getElementById("late").textContent = "late content"; }, 150);</script>'),
  '/plain': html('Plain', '<p>Nothing to click here.</p>'),
  // Rewrites the getters a capture in the page's own world would read.
  '/disguised': html(
    'Disguised',
    `<h1>Real content</h1><p>${'padding '.repeat(400)}</p><script>
       Object.defineProperty(Element.prototype, 'outerHTML', { get: () => '<p>fake</p>' });
       XMLSerializer.prototype.serializeToString = () => '<!doctype fake>';
     </script>`,
  ),
  '/ads': html('Ads', '<p>Article</p><script src="http://ads.doubleclick.net/ad.js"></script><img src="http://pixel.adsrvr.org:8080/px.gif">'),
  '/actions': html(
    'Actions',
    `<button id="reveal" onclick="document.getElementById('secret').hidden = false">Reveal</button>
     <p id="secret" hidden>Secret revealed</p>
     <script>setTimeout(() => { const d = document.createElement('div'); d.id = 'ready'; d.textContent = 'ready'; document.body.append(d); }, 150);</script>
     <div style="height: 1000px">spacer</div>
     <div id="lazy">placeholder</div>
     <script>
       new IntersectionObserver((entries, observer) => {
         if (!entries.some((e) => e.isIntersecting)) return;
         document.getElementById('lazy').innerHTML = '<p id="lazy-loaded">Lazy content</p>';
         observer.disconnect();
       }).observe(document.getElementById('lazy'));
     </script>
     <form action="/search"><input id="q" name="q"></form>`,
  ),
};

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  seen.push({ url: req.url ?? '', headers: req.headers });
  const url = new URL(req.url ?? '/', base);
  if (url.hostname === 'ads.doubleclick.net') {
    res.writeHead(200, { 'content-type': 'text/javascript' }).end('document.title = "ad ran";');
  } else if (url.pathname === '/search') {
    res.writeHead(200, { 'content-type': 'text/html' }).end(html('Search', `<h1>Results for ${url.searchParams.get('q')}</h1>`));
  } else if (url.pathname === '/doc.pdf') {
    res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4\n%%EOF\n');
  } else if (PAGES[url.pathname] !== undefined) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGES[url.pathname]);
  } else {
    res.writeHead(404, { 'content-type': 'text/html' }).end(html('Not found', '<h1>Gone</h1>'));
  }
}

beforeAll(async () => {
  server = http.createServer(handle);
  // As a proxy: every tunnel (HTTPS) is refused, as an egress guard would.
  server.on('connect', (req, socket) => {
    refusedTunnels.push(req.url ?? '');
    socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

beforeEach(() => {
  seen.length = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface Outcome {
  pages: Map<string, FetchedPage>;
  failures: Map<string, string>;
  downloads: Map<string, { contentType?: string }>;
}

async function scrape(paths: string[], options: ScrapeOptionsInput, extra: Partial<BrowserScrapeOptions> = {}): Promise<Outcome> {
  const outcome: Outcome = { pages: new Map(), failures: new Map(), downloads: new Map() };
  const targets = paths.map((p) => ({ url: p.startsWith('http') ? p : `${base}${p}`, key: p }));
  await scrapeWithBrowser(targets, {
    browser: chromiumLaunch({ ...loadConfig().chromium, headless: true }),
    concurrency: 4,
    scrapeOptions: scrapeOptionsSchema.parse(options),
    onPage: async (page) => void outcome.pages.set(page.target.key, page),
    onFailure: async (target, error) => void outcome.failures.set(target.key, error),
    onDownload: async (target, info) => void outcome.downloads.set(target.key, info),
    ...extra,
  });
  return outcome;
}

type LogLine = { level: string; msg: string; fields?: Record<string, unknown> };

/** A logger that keeps its lines. */
function keptLog(lines: LogLine[]): Logger {
  const keep = (level: string) => (msg: string, fields?: Record<string, unknown>) => void lines.push({ level, msg, fields });
  const log: Logger = { debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error'), child: () => log };
  return log;
}

function requestsTo(path: string): Seen[] {
  return seen.filter((s) => new URL(s.url, base).pathname === path);
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(dataUrl: string): { width: number; height: number } {
  const png = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('scrapeWithBrowser', () => {
  it('launches one Chromium per batch: the browser version is learnt once per process, not by a second launch each time', async () => {
    await scrape(['/plain'], {});
    // Crawlee's plugin calls launch() only to read the version; the batch's own browser is a persistent context.
    const launch = vi.spyOn(chromium, 'launch');
    try {
      const outcome = await scrape(['/plain', '/echo'], {});
      expect([...outcome.pages.keys()].sort()).toEqual(['/echo', '/plain']);
      expect(launch).not.toHaveBeenCalled();
    } finally {
      launch.mockRestore();
    }
  });

  it('loads desktop pages with headers, waitFor, a sized screenshot, slots and downloads', async () => {
    const slots = { acquired: [] as string[], released: [] as string[] };
    const { pages, failures, downloads } = await scrape(
      ['/echo', '/late', '/missing', '/doc.pdf'],
      { headers: { 'X-Test': 'yes' }, waitFor: 400, formats: ['rawHtml', { type: 'screenshot', viewport: { width: 800, height: 600 } }] },
      {
        acquireSlot: async (target) => {
          slots.acquired.push(target.key);
          return { waitedMs: 7, release: async () => void slots.released.push(target.key) };
        },
      },
    );

    expect(failures).toEqual(new Map());
    expect([...pages.keys()].sort()).toEqual(['/echo', '/late', '/missing']);
    expect(downloads).toEqual(new Map([['/doc.pdf', { contentType: 'application/pdf' }]]));

    const [echo] = requestsTo('/echo');
    expect(echo?.headers['user-agent']).toBe(DEFAULT_USER_AGENTS.desktop);
    expect(echo?.headers['x-test']).toBe('yes');
    expect(echo?.headers['accept-language']).toBe('en-US,en;q=0.9');

    expect(pages.get('/late')?.rawHtml).toContain('late content');
    expect(pages.get('/missing')?.statusCode).toBe(404);
    expect(pages.get('/echo')).toMatchObject({ statusCode: 200, waitedMs: 7, contentType: 'text/html; charset=utf-8' });
    expect(pages.get('/echo')?.actions).toBeUndefined();
    expect(pngSize(pages.get('/echo')?.screenshot ?? '')).toEqual({ width: 800, height: 600 });

    // One slot per navigation, each given back once, the download's included.
    expect(slots.acquired.sort()).toEqual(['/doc.pdf', '/echo', '/late', '/missing']);
    expect(slots.released.sort()).toEqual(slots.acquired);
  });

  it('captures the DOM as it is, whatever getters the page rewrote; the worker measures what it received', async () => {
    const { pages, failures } = await scrape(['/disguised'], { formats: ['rawHtml'] });
    expect(failures.size).toBe(0);
    const raw = pages.get('/disguised')!.rawHtml;
    expect(raw).toMatch(/^<!DOCTYPE html><html><head><title>Disguised<\/title>/);
    expect(raw).toContain('<h1>Real content</h1>');
    // The page's lie (a few bytes) passes the check in the page; the whole document arrives, and
    // its size is the worker's to judge (page-handler.ts), not the page's.
    const { pages: small } = await scrape(['/disguised'], { formats: ['rawHtml'] }, { maxPageBytes: 1000 });
    expect(Buffer.byteLength(small.get('/disguised')!.rawHtml)).toBeGreaterThan(1000);
  });

  it('tops a batch up from its source as pages are stored, and ends when the source is exhausted', async () => {
    // A site whose pages become known one level at a time, as a crawl discovers them.
    const levels = [['/echo'], ['/late', '/plain', '/missing'], ['/ads', '/actions']];
    const known: string[] = [];
    let handed = 0;
    let handled = 0;
    let overlapping = 0;
    const rooms: number[] = [];
    const discover = () => {
      if (handled === known.length && levels.length > 0) known.push(...levels.shift()!);
    };
    discover();
    const pages = new Map<string, FetchedPage>();
    const { failures } = await scrape(
      [],
      {},
      {
        concurrency: 2,
        moreTargets: async (room) => {
          if (overlapping > 0) throw new Error('moreTargets called twice at once');
          overlapping++;
          try {
            rooms.push(room);
            await new Promise((r) => setTimeout(r, 5));
            const next = known.slice(handed, handed + room).map((p) => ({ url: `${base}${p}`, key: p }));
            handed += next.length;
            return { targets: next, exhausted: next.length === 0 && handled === known.length && levels.length === 0 };
          } finally {
            overlapping--;
          }
        },
        onPage: async (page) => {
          pages.set(page.target.key, page);
          handled++;
          discover();
        },
      },
    );
    expect(failures).toEqual(new Map());
    expect([...pages.keys()].sort()).toEqual(['/actions', '/ads', '/echo', '/late', '/missing', '/plain']);
    expect(Math.max(...rooms)).toBeLessThanOrEqual(4);
    for (const path of ['/echo', '/late', '/plain', '/ads', '/actions']) expect(requestsTo(path)).toHaveLength(1);
  });

  it('emulates a phone in the requested location', async () => {
    const mobileUa = `Mozilla/5.0 (Linux; Android 14; Test) Mobile ${PRODUCT_TOKEN}`;
    const probe = `return {
      width: window.innerWidth,
      touch: 'ontouchstart' in window,
      language: navigator.language,
      languages: navigator.languages,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      locale: Intl.DateTimeFormat().resolvedOptions().locale,
      userAgent: navigator.userAgent,
    };`;
    const { pages, failures } = await scrape(
      ['/echo'],
      {
        mobile: true,
        location: { country: 'DE', languages: ['de-DE', 'en'] },
        actions: [{ type: 'executeJavascript', script: probe }],
      },
      { userAgents: { desktop: DEFAULT_USER_AGENTS.desktop, mobile: mobileUa } },
    );

    expect(failures).toEqual(new Map());
    const [echo] = requestsTo('/echo');
    expect(echo?.headers['user-agent']).toBe(mobileUa);
    expect(echo?.headers['accept-language']).toBe('de-DE,en;q=0.9');
    expect(pages.get('/echo')?.actions?.javascriptReturns).toEqual([
      {
        type: 'object',
        value: {
          width: 390,
          touch: true,
          language: 'de-DE',
          languages: ['de-DE', 'en'],
          timeZone: 'Europe/Berlin',
          locale: 'de-DE',
          userAgent: mobileUa,
        },
      },
    ]);
  });

  it('runs actions in order and fails a page whose action cannot run', async () => {
    const lines: LogLine[] = [];
    const { pages, failures } = await scrape(
      ['/actions', '/plain'],
      {
        actions: [
          { type: 'click', selector: '#reveal' },
          { type: 'wait', selector: '#ready' },
          { type: 'scroll', direction: 'down' },
          { type: 'wait', selector: '#lazy-loaded' },
          { type: 'executeJavascript', script: 'return [document.title, document.getElementById("secret").hidden]' },
          { type: 'screenshot', quality: 50 },
          { type: 'scrape' },
          { type: 'pdf', format: 'A4' },
          { type: 'click', selector: '#q' },
          { type: 'write', text: 'hello world' },
          { type: 'press', key: 'Enter' },
        ],
      },
      { log: keptLog(lines) },
    );

    expect(failures).toEqual(new Map([['/plain', 'Action 0 (click) failed: no element matches "#reveal"']]));
    // The crawler's line about the failed page is one of the service's JSON lines, not Crawlee's text.
    expect(lines).toEqual([
      {
        level: 'error',
        msg: expect.stringContaining('Request failed and reached maximum retries'),
        fields: expect.objectContaining({ component: 'crawlee', url: `${base}/plain` }),
      },
    ]);
    const page = pages.get('/actions');
    expect(page?.finalUrl).toBe(`${base}/search?q=hello+world`);
    expect(page?.rawHtml).toContain('Results for hello world');
    const actions = page?.actions;
    expect(actions?.javascriptReturns).toEqual([{ type: 'array', value: ['Actions', false] }]);
    expect(actions?.screenshots).toHaveLength(1);
    expect(actions?.screenshots[0]).toMatch(/^data:image\/jpeg;base64,\/9j\//);
    expect(actions?.scrapes).toHaveLength(1);
    expect(actions?.scrapes[0]?.url).toBe(`${base}/actions`);
    expect(actions?.scrapes[0]?.html).toContain('Lazy content');
    expect(actions?.scrapes[0]?.html).toMatch(/<p id="secret">Secret revealed<\/p>/);
    expect(actions?.pdfs).toHaveLength(1);
    expect(
      Buffer.from(actions?.pdfs[0]?.split(',')[1] ?? '', 'base64')
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('blocks ad hosts, proxies loopback traffic and explains refused connections', async () => {
    const explained: string[] = [];
    const slots = { acquired: [] as string[], released: [] as string[] };
    const proxied = { proxyServer: base };
    const blocked = await scrape(
      ['/ads', 'https://refused.test/'],
      { blockAds: true },
      {
        ...proxied,
        acquireSlot: async (target) => {
          slots.acquired.push(target.key);
          return { waitedMs: 0, release: async () => void slots.released.push(target.key) };
        },
        explainFailure: (url) => {
          explained.push(url);
          return url.includes('refused.test') ? 'refused.test is not allowed by the egress policy' : undefined;
        },
      },
    );

    // The page itself came through the proxy (absolute-form request line), loopback or not.
    expect(seen.some((s) => s.url === `${base}/ads`)).toBe(true);
    expect(seen.some((s) => /doubleclick|adsrvr/.test(s.url))).toBe(false);
    expect(blocked.pages.get('/ads')?.rawHtml).toContain('<title>Ads</title>');
    expect(refusedTunnels).toContain('refused.test:443');
    expect(blocked.failures).toEqual(new Map([['https://refused.test/', 'refused.test is not allowed by the egress policy']]));
    expect(explained).toEqual(['https://refused.test/']);
    // The refused URL is tried twice, each attempt under its own slot.
    expect(slots.acquired.sort()).toEqual(['/ads', 'https://refused.test/', 'https://refused.test/']);
    expect(slots.released.sort()).toEqual(slots.acquired);

    // Without blockAds the same page does request the ad script: the check above is not vacuous.
    const open = await scrape(['/ads'], { blockAds: false }, proxied);
    expect(
      seen
        .map((s) => s.url)
        .filter((url) => /doubleclick|adsrvr/.test(url))
        .sort(),
    ).toEqual(['http://ads.doubleclick.net/ad.js', 'http://pixel.adsrvr.org:8080/px.gif']);
    expect(open.pages.get('/ads')?.rawHtml).toContain('<title>ad ran</title>');
  });

  it('leaves blockAds to a guard proxy that refuses the ad hosts: the ad requests end there, explained', async () => {
    const config = loadConfig();
    const network = createCrawlNetwork({ ...config, crawl: { ...config.crawl, allowPrivateAddresses: true } });
    try {
      const proxyServer = await network.proxyServer({ refusedHosts: AD_HOST_REFUSAL });
      const { pages } = await scrape(['/ads'], { blockAds: true }, { proxyServer, proxyBlocksAds: true });
      // The page came through (its own host is let through), the ad script never ran.
      expect(pages.get('/ads')?.rawHtml).toContain('<title>Ads</title>');
      expect(network.explainFailure('http://ads.doubleclick.net/ad.js')).toBe('ads.doubleclick.net is an ad or tracker host, blocked by blockAds');
      expect(network.explainFailure('http://pixel.adsrvr.org:8080/px.gif')).toBe('pixel.adsrvr.org is an ad or tracker host, blocked by blockAds');
      expect(network.explainFailure('http://ads.doubleclick.net/ad.js', proxyServer)).toMatch(/blocked by blockAds$/);
      // The plain guard proxy is another one, which never saw them.
      const plain = await network.proxyServer();
      expect(plain).not.toBe(proxyServer);
      expect(network.explainFailure('http://ads.doubleclick.net/ad.js', plain)).toBeUndefined();
    } finally {
      await network.close();
    }
  });

  it('stops a page at its timeout, and a batch at abort even while it waits for a slot', async () => {
    const slow = await scrape(['/plain'], { timeout: 5000, actions: [{ type: 'executeJavascript', script: 'new Promise(() => {})' }] });
    // On a loaded machine the load itself may use the time up before the action starts: either way the page stops at its timeout.
    expect([...slow.failures.keys()]).toEqual(['/plain']);
    expect(slow.failures.get('/plain')).toMatch(/^(Action 0 \(executeJavascript\) failed: )?The page did not finish within its 5000 ms timeout$/);

    const abort = new AbortController();
    const waits: AbortSignal[] = [];
    const lines: LogLine[] = [];
    const started = Date.now();
    await scrape(
      ['/echo', '/plain'],
      {},
      {
        log: keptLog(lines),
        signal: abort.signal,
        acquireSlot: (_target, signal) => {
          waits.push(signal);
          if (waits.length === 2) abort.abort();
          return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('wait aborted')), { once: true }));
        },
      },
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(waits).toHaveLength(2);
    expect(waits.every((s) => s.aborted)).toBe(true);
    expect(requestsTo('/echo')).toEqual([]);
    // Pages of a stopping batch are not failures: no error line for them.
    expect(lines).toEqual([]);
  });

  it('stops the batch when a page cannot be stored, and never reports the pages it tore down as failed', async () => {
    const failures = new Map<string, string>();
    const asked = new Map<string, number>();
    let retryWaiting!: () => void;
    const waitingForRetry = new Promise<void>((resolve) => (retryWaiting = resolve));
    const run = scrape(
      ['/echo', '/plain'],
      {},
      {
        acquireSlot: (target, signal) => {
          const n = (asked.get(target.key) ?? 0) + 1;
          asked.set(target.key, n);
          if (target.key === '/echo') return Promise.resolve({ waitedMs: 0, release: async () => undefined });
          // /plain: the first attempt fails, so the batch stops during its last attempt.
          if (n === 1) return Promise.reject(new Error('slot table busy'));
          retryWaiting();
          return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('wait aborted')), { once: true }));
        },
        onPage: async () => {
          await waitingForRetry;
          throw new Error('database unavailable');
        },
        onFailure: async (target, error) => void failures.set(target.key, error),
      },
    );
    await expect(run).rejects.toThrow('storing a page failed: database unavailable');
    // Pages torn down by the stop must not write anything, even late.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(asked.get('/plain')).toBe(2);
    expect(failures).toEqual(new Map());
  });
});
