// CRAWL_RENDERING=auto: static pages are fetched over HTTP and converted
// without Chromium, script-rendered ones still get Chromium, and a client sees
// the same documents either way. CRAWL_RENDERING=http: no page ever reaches
// Chromium. The same site is crawled by a worker in each mode (a harness and a
// copy of the site per mode, so each copy's hits are one mode's requests).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlNetwork } from '../../src/platform/net/outbound-network.ts';
import { loadOverHttp } from '../../src/page/http-load.ts';
import { page, startFixtureSite, type FixtureResource, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitForCrawl, type Harness } from '../support/harness.ts';

const TEXT = 'Static pages carry their words in the HTML itself, so no browser is needed to read them. ';

function site(): Record<string, FixtureResource> {
  return {
    '/': page(
      'Home',
      `<main><h1>Home</h1><p>${TEXT.repeat(3)}</p><a href="/about">About</a> <a href="/docs/guide?x=1">Guide</a> <a href="/js">JS</a> <a href="/app">App</a></main><script src="/analytics.js"></script>`,
      '<meta name="description" content="The home page">',
    ),
    '/about': page('About us', `<main><h2>Who</h2><ul><li>One</li><li>Two</li></ul><p>${TEXT.repeat(2)}</p><a href="/">home</a></main>`),
    '/docs/guide': page(
      'Guide',
      `<article><h1>Guide</h1><p>${TEXT.repeat(4)}</p><pre><code>npm start</code></pre><table><tr><th>a</th></tr><tr><td>1</td></tr></table></article>`,
    ),
    // Content a script adds: only a browser has it.
    '/js': page(
      'Scripted',
      `<main><p>${TEXT.repeat(3)}</p><div id="late"></div></main><script>document.getElementById('late').textContent = 'Written by JavaScript at load.';</script>`,
    ),
    // An app shell: nothing without the script.
    '/app': page('App', '<div id="root"></div><script>document.getElementById("root").innerHTML = "<h1>Rendered app</h1><p>The app drew this.</p>";</script>'),
    '/analytics.js': { headers: { 'content-type': 'text/javascript' }, body: 'window.seen = true;' },
  };
}

let auto: Harness;
let browser: Harness;
let httpOnly: Harness;
let autoSite: FixtureSite;
let browserSite: FixtureSite;
let httpSite: FixtureSite;

beforeAll(async () => {
  [auto, browser, httpOnly] = await Promise.all([
    startHarness({ crawl: { rendering: 'auto' } }),
    startHarness({ crawl: { rendering: 'browser' } }),
    startHarness({ crawl: { rendering: 'http' } }),
  ]);
  await Promise.all([auto.startWorker(), browser.startWorker(), httpOnly.startWorker()]);
  [autoSite, browserSite, httpSite] = await Promise.all([startFixtureSite(site()), startFixtureSite(site()), startFixtureSite(site())]);
});

afterAll(async () => {
  await Promise.all([autoSite?.close(), browserSite?.close(), httpSite?.close()]);
  await Promise.all([auto?.stop(), browser?.stop(), httpOnly?.stop()]);
});

type Doc = { markdown: string; links: string[]; metadata: Record<string, unknown> & { sourceURL: string } };

async function crawl(h: Harness, s: FixtureSite): Promise<Map<string, Doc>> {
  const started = await (
    await h.api('/v2/crawl', { method: 'POST', json: { url: `${s.url}/`, sitemap: 'skip', scrapeOptions: { formats: ['markdown', 'links'], maxAge: 0 } } })
  ).json();
  const status = await waitForCrawl(h, started.id);
  expect(status.status).toBe('completed');
  return new Map((status.data as Doc[]).map((d) => [new URL(d.metadata.sourceURL).pathname, d]));
}

/** What a client reads, with the site's own address (each copy has its port) and the per-crawl fields taken out. */
function comparable(doc: Doc, s: FixtureSite) {
  const { scrapeId: _s, concurrencyLimited: _c, concurrencyQueueDurationMs: _q, ...metadata } = doc.metadata;
  return JSON.parse(JSON.stringify({ markdown: doc.markdown, links: doc.links, metadata }).replaceAll(s.url, 'SITE'));
}

describe('CRAWL_RENDERING=auto', () => {
  it('fetches static pages over HTTP only, renders script-written ones, and gives the same documents as the browser', async () => {
    const [viaAuto, viaBrowser] = await Promise.all([crawl(auto, autoSite), crawl(browser, browserSite)]);
    expect([...viaAuto.keys()].sort()).toEqual(['/', '/about', '/app', '/docs/guide', '/js']);
    expect([...viaBrowser.keys()].sort()).toEqual([...viaAuto.keys()].sort());
    for (const path of viaAuto.keys()) {
      expect(comparable(viaAuto.get(path)!, autoSite), path).toEqual(comparable(viaBrowser.get(path)!, browserSite));
    }
    expect(viaAuto.get('/js')!.markdown).toContain('Written by JavaScript at load.');
    expect(viaAuto.get('/app')!.markdown).toContain('Rendered app');
    // Chromium marks its navigations with Sec-Fetch-Dest; the HTTP fetch sends none.
    const byBrowser = (path: string) => autoSite.headers.get(path)?.['sec-fetch-dest'] === 'document';
    // Static pages: one request each, the HTTP fetch, and their scripts were never loaded.
    for (const path of ['/', '/about', '/docs/guide']) {
      expect(autoSite.hits.get(path), path).toBe(1);
      expect(byBrowser(path), path).toBe(false);
    }
    expect(autoSite.hits.get('/analytics.js')).toBeUndefined();
    // Script-written pages end in the browser: after an HTTP fetch, or at once when their host
    // was already known to be script-rendered (the crawl's memory).
    for (const path of ['/js', '/app']) {
      expect(byBrowser(path), path).toBe(true);
      expect(autoSite.hits.get(path), path).toBeLessThanOrEqual(2);
    }
    expect((autoSite.hits.get('/js') ?? 0) + (autoSite.hits.get('/app') ?? 0)).toBeGreaterThanOrEqual(3);
    // The browser-only worker loaded every page in Chromium, scripts included.
    expect(browserSite.hits.get('/analytics.js')).toBe(1);
  });

  it('fetches over HTTP through the address guard: a private address is never connected to', async () => {
    const network = createCrawlNetwork({ ...auto.config, crawl: { ...auto.config.crawl, allowPrivateAddresses: false } });
    try {
      const before = autoSite.hits.get('/about') ?? 0;
      const result = await loadOverHttp(`${autoSite.url}/about`, network.fetchPage, { timeoutMs: 5000 });
      expect(result).toMatchObject({ browser: expect.stringMatching(/^the HTTP fetch failed \(.*(private|blocked|not allowed).*\)$/i) });
      expect(autoSite.hits.get('/about') ?? 0).toBe(before);
    } finally {
      await network.close();
    }
  });
});

describe('CRAWL_RENDERING=http', () => {
  it('never opens a page in Chromium: static pages read as in the browser, scripts never run', async () => {
    const [viaHttp, viaBrowser] = await Promise.all([crawl(httpOnly, httpSite), crawl(browser, browserSite)]);
    expect([...viaHttp.keys()].sort()).toEqual(['/', '/about', '/app', '/docs/guide', '/js']);
    for (const path of ['/', '/about', '/docs/guide']) {
      expect(comparable(viaHttp.get(path)!, httpSite), path).toEqual(comparable(viaBrowser.get(path)!, browserSite));
    }
    expect(viaHttp.get('/js')!.markdown).toContain('Static pages carry their words');
    expect(viaHttp.get('/js')!.markdown).not.toContain('Written by JavaScript');
    expect(viaHttp.get('/app')!.markdown).not.toContain('Rendered app');
    for (const path of ['/', '/about', '/docs/guide', '/js', '/app']) {
      expect(httpSite.hits.get(path), path).toBe(1);
      expect(httpSite.headers.get(path)?.['sec-fetch-dest'], path).toBeUndefined();
    }
    expect(httpSite.hits.get('/analytics.js')).toBeUndefined();
  });

  it('refuses a request that needs a browser with a 400, before any job is made', async () => {
    const res = await httpOnly.api('/v2/crawl', { method: 'POST', json: { url: `${httpSite.url}/`, scrapeOptions: { formats: ['screenshot'] } } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('BROWSER_REQUIRED');
    expect(body.error).toBe('The request asks for a screenshot, which needs a browser, and this deployment renders pages without one (CRAWL_RENDERING=http)');
  });

  it("fails a page whose fetch the address guard refuses, with the guard's reason", async () => {
    const network = createCrawlNetwork({ ...httpOnly.config, crawl: { ...httpOnly.config.crawl, allowPrivateAddresses: false } });
    try {
      const before = httpSite.hits.get('/about') ?? 0;
      await expect(loadOverHttp(`${httpSite.url}/about`, network.fetchPage, { timeoutMs: 5000 }, 'http')).rejects.toThrow(/private|blocked|not allowed/i);
      expect(httpSite.hits.get('/about') ?? 0).toBe(before);
    } finally {
      await network.close();
    }
  });
});
