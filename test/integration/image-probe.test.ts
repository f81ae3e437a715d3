// Image sizes on the HTTP path: imageDimensions reads what Chromium decodes,
// file by file, and the probe fetches images through the crawl network's guard,
// within its per-page limits, sending the crawl's headers to the page's own
// origin only and remembering sizes per crawl.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromiumLaunch } from '../../src/platform/browser/chromium-launch.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createCrawlNetwork, type CrawlNetwork } from '../../src/platform/net/outbound-network.ts';
import { imageDimensions } from '../../src/page/rendering/image-dimensions.ts';
import { createImageProbe, imagesToProbe, type ImageProbe, type ProbeRequest } from '../../src/page/rendering/image-probe.ts';
import { parseHtmlDocument } from '../../src/page/parse-html.ts';
import { bmp, exif, jpeg, webpLossless, webpLossy } from '../support/image-files.ts';
import { solidPng } from '../support/png.ts';

const files: Record<string, Buffer> = {};
const seen: { path: string; host: string; range?: string; accept?: string; cookie?: string }[] = [];
let server: http.Server;
let port: number;
let browser: Browser;
let config: Config;
let open: CrawlNetwork;
let guarded: CrawlNetwork;

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  const path = new URL(req.url!, 'http://x').pathname;
  seen.push({ path, host: req.headers.host!.split(':')[0], range: req.headers.range, accept: req.headers.accept, cookie: req.headers.cookie });
  if (path === '/stall.png') return;
  const file = files[path.slice(1)];
  if (!file) return void res.writeHead(404).end('no such image');
  // Some servers honour Range, some send the whole file: the probe reads a prefix either way.
  const range = /^bytes=0-(\d+)$/.exec(req.headers.range ?? '');
  if (range && path.startsWith('/ranged/')) {
    const end = Math.min(Number(range[1]), file.length - 1);
    return void res.writeHead(206, { 'content-range': `bytes 0-${end}/${file.length}` }).end(file.subarray(0, end + 1));
  }
  res.end(file);
}

beforeAll(async () => {
  server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  port = (server.address() as AddressInfo).port;
  browser = await chromium.launch(chromiumLaunch({ ...loadConfig().chromium, headless: true }).launchOptions(undefined));
  const page = await browser.newPage();
  // Real pictures Chromium encodes itself (canvas has no GIF or BMP encoder: those are written by hand).
  const encoded = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 80;
    canvas.height = 60;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = 'rgba(200, 0, 0, 0.5)';
    ctx.fillRect(0, 0, 40, 60);
    return { jpeg: canvas.toDataURL('image/jpeg', 0.9), webp: canvas.toDataURL('image/webp', 0.9) };
  });
  await page.close();
  const photo = Buffer.from(encoded.jpeg.split(',')[1], 'base64');
  // The smallest GIF there is (1x1), its screen and frame widened: Chromium sizes it from them.
  const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
  for (const at of [6, 32]) {
    gif.writeUInt16LE(33, at);
    gif.writeUInt16LE(17, at + 2);
  }
  Object.assign(files, {
    'photo.jpg': photo,
    'turned-le.jpg': Buffer.concat([photo.subarray(0, 2), exif(6, true), photo.subarray(2)]),
    'turned-be.jpg': Buffer.concat([photo.subarray(0, 2), exif(8, false), photo.subarray(2)]),
    'alpha.webp': Buffer.from(encoded.webp.split(',')[1], 'base64'),
    'lossy.webp': webpLossy(100, 50),
    'lossless.webp': webpLossless(5, 7),
    'wide.gif': gif,
    'bottom-up.bmp': bmp(30, 20),
    'top-down.bmp': bmp(30, -20),
    'banner.png': solidPng(640, 160),
    'ranged/banner.png': solidPng(640, 160),
    // A header, then two megabytes the probe must not wait for.
    'huge.jpg': Buffer.concat([jpeg(4000, 3000), Buffer.alloc(2 * 1024 * 1024)]),
  });
  config = loadConfig();
  open = createCrawlNetwork({ ...config, crawl: { ...config.crawl, allowPrivateAddresses: true } });
  guarded = createCrawlNetwork({ ...config, crawl: { ...config.crawl, allowPrivateAddresses: false, privateAddressAllowlist: [] } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([open?.close(), guarded?.close()]);
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
});

const at = (path: string, host = '127.0.0.1') => `http://${host}:${port}${path}`;
const doc = (body: string) => parseHtmlDocument(`<!doctype html><html><body>${body}</body></html>`);
/** The probe as the crawl drives it: the page's images listed (up to `max`), then sized. */
const onPages =
  (probe: ImageProbe, max = 20) =>
  (page: Document, url: string, scope: string, req: ProbeRequest) =>
    probe(imagesToProbe(page, url, max), url, scope, req);

describe('imageDimensions against Chromium', () => {
  it('gives the size Chromium decodes for every file, EXIF turns included', async () => {
    const names = Object.keys(files).filter((n) => !n.startsWith('ranged/') && n !== 'huge.jpg');
    const page = await browser.newPage();
    await page.setContent(names.map((n) => `<img src="${at(`/${n}`)}">`).join(''), { waitUntil: 'load' });
    const decoded = await page.evaluate(() => Array.from(document.images).map((i) => [i.naturalWidth, i.naturalHeight]));
    await page.close();
    const read = names.map((n) => imageDimensions(files[n]));
    expect(read).toEqual(decoded);
    expect(decoded.every(([w, h]) => w > 0 && h > 0)).toBe(true);
    expect(read[names.indexOf('turned-le.jpg')]).toEqual([60, 80]);
  });
});

describe('the image probe', () => {
  const limits = { timeoutMs: 3_000 };

  it('sizes the images that lack a width or height, from a prefix of each, whatever the server does with Range', async () => {
    const probe = onPages(createImageProbe(open.fetchImageHead, limits));
    const page = doc(
      `<img src="/banner.png"><img src="/ranged/banner.png" width="320"><img src="/huge.jpg" height="10">` +
        `<img src="/photo.jpg" width="80" height="60"><img data-src="/lossy.webp"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><img src="/missing.png"><img src="/banner.png">`,
    );
    const sizes = await probe(page, at('/page'), 'crawl-1', {});
    expect(sizes).toEqual({
      [at('/banner.png')]: [640, 160],
      [at('/ranged/banner.png')]: [640, 160],
      [at('/huge.jpg')]: [4000, 3000],
      [at('/lossy.webp')]: [100, 50],
    });
    // The attributes give photo.jpg's size; a data: URL is not fetched; each URL once.
    expect(seen.map((s) => s.path).sort()).toEqual(['/banner.png', '/huge.jpg', '/lossy.webp', '/missing.png', '/ranged/banner.png']);
    expect(seen[0]).toMatchObject({ range: `bytes=0-${config.crawl.imageProbeBytes - 1}`, accept: expect.stringMatching(/^image\/avif/) });
  });

  it("sends the crawl's headers to the page's own origin only", async () => {
    const probe = onPages(createImageProbe(open.fetchImageHead, limits));
    await probe(doc(`<img src="/banner.png"><img src="${at('/lossy.webp', 'localhost')}">`), at('/page'), 'crawl-2', { headers: { Cookie: 'session=secret' } });
    expect(seen.map(({ host, cookie }) => [host, cookie]).sort()).toEqual([
      ['127.0.0.1', 'session=secret'],
      ['localhost', undefined],
    ]);
  });

  it('remembers sizes, and failures, within a crawl, not across crawls', async () => {
    const probe = onPages(createImageProbe(open.fetchImageHead, limits));
    const page = doc('<img src="/banner.png"><img src="/missing.png">');
    const first = await probe(page, at('/a'), 'crawl-3', {});
    expect(await probe(page, at('/a'), 'crawl-3', {})).toEqual(first);
    expect(seen).toHaveLength(2);
    expect(await probe(page, at('/a'), 'crawl-4', {})).toEqual(first);
    expect(seen).toHaveLength(4);
  });

  it('probes at most maxImages a page, and none at 0', async () => {
    const page = doc(['banner.png', 'photo.jpg', 'lossy.webp', 'wide.gif'].map((n) => `<img src="/${n}">`).join(''));
    expect(Object.keys(await onPages(createImageProbe(open.fetchImageHead, limits), 2)(page, at('/'), 'crawl-5', {}))).toEqual([
      at('/banner.png'),
      at('/photo.jpg'),
    ]);
    expect(seen).toHaveLength(2);
    expect(await onPages(createImageProbe(open.fetchImageHead, limits), 0)(page, at('/'), 'crawl-6', {})).toEqual({});
    expect(seen).toHaveLength(2);
  });

  it("ends a page's probes at its deadline, keeping what was read, and asks again on the next page", async () => {
    // Counted where the probe asks, not where the site answers: on a loaded machine the second
    // page's deadline can pass before its request for the stalled image has even connected.
    const asked: string[] = [];
    const fetchHead: typeof open.fetchImageHead = (url, opts) => (asked.push(new URL(url).pathname), open.fetchImageHead(url, opts));
    const probe = onPages(createImageProbe(fetchHead, { timeoutMs: 1_500 }));
    const page = doc('<img src="/stall.png"><img src="/banner.png">');
    const started = Date.now();
    expect(await probe(page, at('/'), 'crawl-7', {})).toEqual({ [at('/banner.png')]: [640, 160] });
    // Generous: the point is that a stalled image cannot hold the page for long.
    expect(Date.now() - started).toBeLessThan(5_000);
    await probe(page, at('/'), 'crawl-7', {});
    expect(asked.filter((path) => path === '/stall.png')).toHaveLength(2);
  });

  it('goes through the address guard: private addresses are refused before connecting', async () => {
    const probe = onPages(createImageProbe(guarded.fetchImageHead, limits));
    expect(await probe(doc(`<img src="/banner.png"><img src="${at('/photo.jpg', 'localhost')}">`), at('/'), 'crawl-8', {})).toEqual({});
    expect(seen).toEqual([]);
  });
});
