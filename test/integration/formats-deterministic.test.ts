// The formats made without a model (images, attributes, branding) on every route
// that scrapes: a single scrape over HTTP and in Chromium, a crawl, a batch scrape
// and search's scrapeOptions; the official JS SDK's scrape with them,
// getActiveCrawls (and GET /v2/crawl/ongoing beside /active) and
// crawlParamsPreview against a fake LLM. Every JSON answer is checked against
// the OpenAPI document at the end.
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { solidPng } from '../support/png.ts';
import { SAMPLE_TIMEOUT_MS } from '../../src/page/branding/branding-sample.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import { runPythonSdk } from '../support/python-sdk.ts';

let h: Harness;
let site: FixtureSite;
let llm: FakeLlm;
let client: Firecrawl;
const recorded: RecordedResponse[] = [];
let releaseSlow: () => void = () => {};
let releaseSlower: () => void = () => {};

const SKUS = { type: 'attributes', selectors: [{ selector: '.item', attribute: 'data-sku' }] };
const ALL_THREE = ['images', SKUS, 'branding'];

const STYLE = `<style>
  body { background: #ffffff; color: #111827; font-family: Georgia, serif; font-size: 16px; line-height: 24px; margin: 0; }
  header { background: #ffffff; padding: 8px; }
  h1 { color: #ff5a1f; font-family: "Trebuchet MS", sans-serif; font-size: 40px; }
  a { color: #2563eb; }
  .btn { display: inline-block; background: #ff5a1f; color: #ffffff; border: 1px solid #ff5a1f; border-radius: 6px; padding: 10px 16px; }
</style>`;

// Its third item is written by a script: only the rendered page has it.
const BRAND_PAGE = page(
  'Acme tools',
  `<header><a href="/" class="logo-link"><img src="/logo.png" alt="Acme logo" width="120" height="40"></a></header>
   <main><h1>Acme tools</h1>
   <p>Tools for builders who like sturdy things, sold since 1999.</p>
   <p>Read <a href="/about">about us</a> before you buy anything at all.</p>
   <a class="btn" href="/signup">Sign up</a>
   <div class="item" data-sku="A1">Hammer</div><div class="item" data-sku="B2">Saw</div><div id="late"></div>
   <script>document.getElementById('late').innerHTML = '<div class="item" data-sku="C3">Drill</div>';</script></main>`,
  `<link rel="icon" href="/favicon.png"><meta property="og:image" content="/og.png">${STYLE}`,
);

const STATIC_PAGE = page(
  'Static shop',
  `<header><svg class="logo" width="40" height="40"><circle cx="20" cy="20" r="10" fill="#ff5a1f"/></svg></header>
   <main><h1>Widgets</h1><p>The zanzibarwidget catalogue lists every widget we make, large and small, old and new.</p>
   <img src="/img/a.png" srcset="/img/a-2x.png 2x"><img src="data:image/png;base64,iVBORw0KGgo=">
   <div class="item" data-sku="S1">one</div><div class="item" data-sku="S2">two</div><div class="item">none</div>
   <a href="/brand">brand</a></main>`,
  '<meta property="og:image" content="/og.png">',
);

beforeAll(async () => {
  llm = await startFakeLlm();
  h = await startHarness({ recordResponses: recorded, llm: { baseUrl: llm.url, model: 'fake-model' } });
  await h.startWorker();
  const slow = new Promise((resolve) => (releaseSlow = () => resolve(undefined)));
  const slower = new Promise((resolve) => (releaseSlower = () => resolve(undefined)));
  site = await startFixtureSite({
    '/': page('Shop', '<main><p>Welcome to the shop.</p><a href="/static">static</a> <a href="/brand">brand</a></main>'),
    '/static': STATIC_PAGE,
    '/brand': BRAND_PAGE,
    '/slow': { until: slow, body: page('Slow', '<p>slow</p>') },
    '/slower': { until: slower, body: page('Slower', '<p>slower</p>') },
    // Hangs whoever reads its styles: the branding read gives up, the page is stored without it.
    '/hostile': page('Hostile', '<p>Styles are a trap here.</p><script>window.getComputedStyle = () => { for (;;) {} };</script>'),
    '/logo.png': { headers: { 'content-type': 'image/png' }, body: solidPng(120, 40) },
    '/img/a.png': { headers: { 'content-type': 'image/png' }, body: solidPng(20, 20) },
  });
  client = new Firecrawl({ apiKey: h.apiKey, apiUrl: h.baseUrl });
});

afterAll(async () => {
  releaseSlow();
  await site?.close();
  await h?.stop();
  await llm?.close();
});

async function scrape(body: Record<string, unknown>) {
  const res = await h.api('/v2/scrape', { method: 'POST', json: body });
  return { status: res.status, body: await res.json() };
}

const brandExpectations = () => ({
  colorScheme: 'light',
  logo: `${site.url}/logo.png`,
  colors: { primary: '#FF5A1F', accent: '#2563EB', background: '#FFFFFF', textPrimary: '#111827', link: '#2563EB' },
  typography: { fontFamilies: { primary: 'Georgia', heading: 'Trebuchet MS' }, fontSizes: { h1: '40px', body: '16px' }, lineHeights: { body: 1.5 } },
  components: { buttonPrimary: { background: '#FF5A1F', textColor: '#FFFFFF', borderColor: '#FF5A1F', borderRadius: '6px' } },
  images: { logo: `${site.url}/logo.png`, favicon: `${site.url}/favicon.png`, ogImage: `${site.url}/og.png` },
});

const staticImages = () => [`${site.url}/og.png`, `${site.url}/img/a.png`, `${site.url}/img/a-2x.png`];

describe('POST /v2/scrape', () => {
  it('over HTTP: images and attributes come from the fetched HTML, without a browser', async () => {
    const { status, body } = await scrape({ url: `${site.url}/static`, formats: ['images', SKUS], maxAge: 0 });
    expect(status).toBe(200);
    expect(body.data.images).toEqual(staticImages());
    expect(body.data.attributes).toEqual([{ selector: '.item', attribute: 'data-sku', values: ['S1', 'S2'] }]);
    expect(body.data).not.toHaveProperty('markdown');
    // Chromium sends Sec-Fetch-Dest with a navigation; the HTTP path does not.
    expect(site.headers.get('/static')?.['sec-fetch-dest']).toBeUndefined();
  });

  it('in Chromium: branding from the rendered page, attributes of the rendered DOM', async () => {
    const { status, body } = await scrape({ url: `${site.url}/brand`, formats: ['markdown', ...ALL_THREE], maxAge: 0 });
    expect(status).toBe(200);
    expect(site.headers.get('/brand')?.['sec-fetch-dest']).toBe('document');
    expect(body.data.branding).toMatchObject(brandExpectations());
    expect(body.data.branding.brandName).toBeUndefined();
    expect(body.data.attributes).toEqual([{ selector: '.item', attribute: 'data-sku', values: ['A1', 'B2', 'C3'] }]);
    expect(body.data.images).toEqual([`${site.url}/favicon.png`, `${site.url}/og.png`, `${site.url}/logo.png`]);
    expect(body.data.markdown).toContain('Acme tools');
    expect(body.data.warning).toBeUndefined();
  });

  it('a page that hangs the style read gets no branding and a warning, and is stored all the same', async () => {
    const { status, body } = await scrape({ url: `${site.url}/hostile`, formats: ['markdown', 'branding'], maxAge: 0 });
    expect(status).toBe(200);
    expect(body.data.markdown).toContain('Styles are a trap here.');
    expect(body.data).not.toHaveProperty('branding');
    expect(body.data.warning).toBe(`No branding: the page did not answer the style read within ${SAMPLE_TIMEOUT_MS} ms.`);
  });

  it('refuses an attributes selector the parser cannot run, before any job exists', async () => {
    const before = await h.db.job.count({ where: { teamId: h.teamId } });
    const { status, body } = await scrape({
      url: `${site.url}/static`,
      formats: [{ type: 'attributes', selectors: [{ selector: 'div[[', attribute: 'id' }] }],
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, code: 'BAD_REQUEST', error: 'formats.0.selectors.0.selector: Invalid CSS selector: "div[["' });
    expect(await h.db.job.count({ where: { teamId: h.teamId } })).toBe(before);
  });
});

describe('crawl, batch scrape and search', () => {
  it('a crawl gives every page the three formats', async () => {
    const started = await (
      await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 3, sitemap: 'skip', scrapeOptions: { formats: ALL_THREE, maxAge: 0 } } })
    ).json();
    const status = await waitForCrawl(h, started.id);
    expect(status.status).toBe('completed');
    const byPath = new Map(status.data.map((d) => [new URL(d.metadata.sourceURL).pathname, d]));
    expect([...byPath.keys()].sort()).toEqual(['/', '/brand', '/static']);
    expect(byPath.get('/static').images).toEqual(staticImages());
    expect(byPath.get('/static').attributes[0].values).toEqual(['S1', 'S2']);
    expect(byPath.get('/brand').branding).toMatchObject(brandExpectations());
    expect(byPath.get('/brand').attributes[0].values).toEqual(['A1', 'B2', 'C3']);
    expect(byPath.get('/').images).toEqual([]);
    expect(byPath.get('/').branding).toMatchObject({ colorScheme: 'light', colors: { background: '#FFFFFF' } });
  });

  it('a batch scrape gives each URL the three formats', async () => {
    const started = await (
      await h.api('/v2/batch/scrape', { method: 'POST', json: { urls: [`${site.url}/static`, `${site.url}/brand`], formats: ALL_THREE } })
    ).json();
    const status = await waitFor(
      'the batch',
      async () => {
        const body = await (await h.api(`/v2/batch/scrape/${started.id}`)).json();
        return body.status === 'completed' ? body : undefined;
      },
      120_000,
    );
    const bySource = new Map(status.data.map((d: any) => [new URL(d.metadata.sourceURL).pathname, d]));
    expect((bySource.get('/static') as any).images).toEqual(staticImages());
    expect((bySource.get('/static') as any).attributes[0].values).toEqual(['S1', 'S2']);
    // Its logo is an inline <svg>, handed out as a data: URL.
    expect((bySource.get('/static') as any).branding).toMatchObject({
      colorScheme: 'light',
      logo: expect.stringMatching(/^data:image\/svg\+xml,%3Csvg[^]*circle/),
    });
    expect((bySource.get('/brand') as any).branding).toMatchObject(brandExpectations());
  });

  it("search's scrapeOptions gives each result the three formats", async () => {
    const res = await h.api('/v2/search', { method: 'POST', json: { query: 'zanzibarwidget', scrapeOptions: { formats: ALL_THREE } } });
    const body = await res.json();
    expect(res.status).toBe(200);
    const [hit] = body.data.web;
    expect(hit.url).toBe(`${site.url}/static`);
    expect(hit.images).toEqual(staticImages());
    expect(hit.attributes).toEqual([{ selector: '.item', attribute: 'data-sku', values: ['S1', 'S2'] }]);
    expect(hit.branding).toMatchObject({ colorScheme: 'light', colors: { background: '#FFFFFF' }, images: { ogImage: `${site.url}/og.png` } });
  }, 120_000);
});

describe('@mendable/firecrawl-js', () => {
  it('scrape() with images, attributes and branding', async () => {
    const doc = await client.scrape(`${site.url}/brand`, {
      formats: ['images', { type: 'attributes', selectors: [{ selector: '.item', attribute: 'data-sku' }] }, 'branding'],
    });
    expect(doc.images).toContain(`${site.url}/logo.png`);
    expect(doc.attributes).toEqual([{ selector: '.item', attribute: 'data-sku', values: ['A1', 'B2', 'C3'] }]);
    expect(doc.branding).toMatchObject(brandExpectations());
  });

  it('getActiveCrawls() lists a running crawl, and GET /v2/crawl/ongoing answers as /active', async () => {
    const started = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/slow`, limit: 1 } })).json();
    const active = await client.getActiveCrawls();
    expect(active.crawls.find((c) => c.id === started.id)).toMatchObject({ url: `${site.url}/slow`, teamId: expect.any(String) });
    const [ongoing, listed] = await Promise.all([(await h.api('/v2/crawl/ongoing')).json(), (await h.api('/v2/crawl/active')).json()]);
    expect(ongoing).toEqual(listed);
    expect(ongoing.crawls.map((c: { id: string }) => c.id)).toContain(started.id);
    releaseSlow();
    expect((await waitForCrawl(h, started.id)).status).toBe('completed');
  });

  it('crawlParamsPreview() answers the options the prompt produced, and starts nothing', async () => {
    llm.script = () => JSON.stringify({ includePaths: ['^/blog/'], limit: 5, maxDepth: 3 });
    const crawlsBefore = await h.db.job.count({ where: { teamId: h.teamId } });
    const sent = llm.requests.length;
    const preview = await client.crawlParamsPreview(`${site.url}/`, 'only the blog, five pages');
    expect(preview).toEqual({ url: `${site.url}/`, includePaths: ['^/blog/'], limit: 5 });
    expect(llm.requests).toHaveLength(sent + 1);
    expect(JSON.stringify(llm.requests.at(-1))).toContain('only the blog, five pages');
    expect(await h.db.job.count({ where: { teamId: h.teamId } })).toBe(crawlsBefore);
  });

  it('Python firecrawl: crawl_params_preview and get_active_crawls', async () => {
    llm.script = () => JSON.stringify({ includePaths: ['^/blog/'], limit: 5 });
    const started = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/slower`, limit: 1 } })).json();
    try {
      const run = await runPythonSdk('test/sdk/python_crawl_extras.py', { API_URL: h.baseUrl, API_KEY: h.apiKey, SITE_URL: site.url });
      expect(run.code, run.stderr).toBe(0);
      const out = JSON.parse(run.stdout);
      expect(out.preview).toEqual([['^/blog/'], 5]);
      expect(out.active).toContain(started.id);
    } finally {
      releaseSlower();
    }
    expect((await waitForCrawl(h, started.id)).status).toBe('completed');
  });

  it('params-preview drops unknown keys, and answers 400 for a missing prompt or an unusable model answer', async () => {
    llm.script = () => JSON.stringify({ sitemap: 'skip' });
    const ok = await h.api('/v2/crawl/params-preview', { method: 'POST', json: { url: `${site.url}/`, prompt: 'skip the sitemap', limit: 3, origin: 'test' } });
    expect(await ok.json()).toEqual({ success: true, data: { url: `${site.url}/`, sitemap: 'skip' } });
    const missing = await h.api('/v2/crawl/params-preview', { method: 'POST', json: { url: `${site.url}/` } });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe('prompt: prompt is required');
    llm.script = () => 'not json';
    const bad = await h.api('/v2/crawl/params-preview', { method: 'POST', json: { url: `${site.url}/`, prompt: 'anything' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toContain('the LLM reply was not valid JSON');
  });
});

it('every answer is as the OpenAPI document (/v2/openapi.json) says', async () => {
  expect(recorded.length).toBeGreaterThan(0);
  expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
});
