// Firecrawl's v1 clients, unchanged, against the /v1 routes: the JS SDK's
// FirecrawlAppV1 (new Firecrawl(...).v1) here in-process, and the Python SDK's
// V1FirecrawlApp in a script (test/sdk/python_v1.py) that runs beside it under a team
// of its own. Every method of both on a fixture site, the model formats and extract
// through the fake LLM, search over the pages the crawls indexed; every JSON answer
// is checked against the OpenAPI document at the end.
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { page, startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';
import { runPythonSdk } from '../support/python-sdk.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

let h: Harness;
let llm: FakeLlm;
let site: FixtureSite;
let slow: FixtureSite;
let receiver: WebhookReceiver;
let v1: InstanceType<typeof Firecrawl>['v1'];
let python: ReturnType<typeof runPythonSdk>;
const recorded: RecordedResponse[] = [];

// A JSON schema, which the SDK sends as it is (its v1 types name zod 3's schema type, which it would convert).
const NAME = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as never;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** / links /p/1, /p/2 and /widget; /p/i link their children (treeSite); /p/i are 2 path segments deep, /widget 1. */
function sitePages(): Record<string, string> {
  return {
    ...treeSite(6),
    '/': page(
      'Page 0',
      '<main><h1>Page 0</h1><p>Content of page 0.</p><a href="/p/1">page 1</a> <a href="/p/2">page 2</a> <a href="/widget">a gadget</a></main>',
    ),
    '/widget': page('Widget', '<main><h1>Blue Widget</h1><p>The blue widget costs four dollars.</p></main>'),
  };
}

beforeAll(async () => {
  llm = await startFakeLlm();
  h = await startHarness({ llm: { baseUrl: llm.url, model: 'fake-big', timeoutMs: 3000 }, recordResponses: recorded });
  await h.startWorker();
  receiver = await startWebhookReceiver();
  site = await startFixtureSite(sitePages());
  slow = await startFixtureSite(
    Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`/slow/${i}`, page(`Slow ${i}`, `<a href="/slow/${i + 1}">next</a>`)])),
    { delayMs: () => 1500 },
  );
  const pythonTeam = await h.newTeam();
  python = runPythonSdk('test/sdk/python_v1.py', { API_URL: h.baseUrl, API_KEY: pythonTeam.apiKey, SITE_URL: site.url, SLOW_URL: `${slow.url}/slow/0` });
  v1 = new Firecrawl({ apiKey: h.apiKey, apiUrl: h.baseUrl }).v1;
});

afterAll(async () => {
  await python?.catch(() => undefined);
  await site?.close();
  await slow?.close();
  await receiver?.close();
  await h?.stop();
  await llm?.close();
});

describe('the JS SDK’s v1 client (FirecrawlAppV1)', () => {
  it('scrapeUrl: markdown, html, links and json with jsonOptions; the extract format answers under extract', async () => {
    const doc = await v1.scrapeUrl(`${site.url}/widget`, {
      formats: ['markdown', 'html', 'links', 'json'],
      jsonOptions: { prompt: 'the product name', schema: NAME },
    });
    if (!doc.success) throw new Error(doc.error);
    expect(doc.markdown).toContain('Blue Widget');
    expect(doc.html).toContain('<h1>Blue Widget</h1>');
    expect(doc.links).toEqual([]);
    expect(doc.json).toEqual({ name: 'Blue Widget' });
    expect(doc.metadata).toMatchObject({ sourceURL: `${site.url}/widget`, statusCode: 200, scrapeId: expect.stringMatching(uuid) });

    const legacy = await v1.scrapeUrl(`${site.url}/widget`, { formats: ['extract'], extract: { prompt: 'the product name', schema: NAME } });
    if (!legacy.success) throw new Error(legacy.error);
    expect(legacy.extract).toEqual({ name: 'Blue Widget' });
    expect(legacy).not.toHaveProperty('json');
    expect(legacy).not.toHaveProperty('markdown');

    // v1's rule: a model format and its options come together.
    await expect(v1.scrapeUrl(`${site.url}/widget`, { formats: ['json'] })).rejects.toThrow(
      "Status code: 400. Error: formats: When 'extract' or 'json' format is specified, corresponding options must be provided, and vice versa",
    );
  });

  it('crawlUrl waits for the crawl (maxDepth 0: the start page only); asyncCrawlUrl, checkCrawlStatus with next, checkCrawlErrors', async () => {
    const shallow = await v1.crawlUrl(`${site.url}/`, { maxDepth: 0, ignoreSitemap: true }, 1);
    expect(shallow).toMatchObject({ success: true, status: 'completed', completed: 1, total: 1, creditsUsed: 1 });
    if (!shallow.success) throw new Error('crawl failed');
    expect(shallow.data.map((d) => d.metadata?.sourceURL)).toEqual([`${site.url}/`]);

    const started = await v1.asyncCrawlUrl(`${site.url}/`, { limit: 20, ignoreSitemap: true, scrapeOptions: { formats: ['markdown', 'links'] } });
    if (!started.success || !started.id) throw new Error('crawl not started');
    expect(started.url).toBe(`${h.baseUrl}/v1/crawl/${started.id}`);
    await waitFor('crawl end', async () => (await h.api(`/v1/crawl/${started.id}`).then((r) => r.json())).status === 'completed', 60_000, 300);
    const all = await v1.checkCrawlStatus(started.id, true);
    if (!all.success) throw new Error('status failed');
    expect(all.completed).toBe(7);
    expect(all.data).toHaveLength(7);
    expect(all.expiresAt).toBeInstanceOf(Date);
    expect(all.data.every((d) => typeof d.markdown === 'string' && Array.isArray(d.links))).toBe(true);

    // Pages of 3: next is absolute, keeps the /v1 path, and is absent from the last page (the JS SDK follows it while present).
    const first = await (await h.api(`/v1/crawl/${started.id}?limit=3`)).json();
    expect(first).not.toHaveProperty('createdAt');
    expect(first).not.toHaveProperty('error');
    expect(first.next).toMatch(new RegExp(`^${h.baseUrl}/v1/crawl/${started.id}\\?skip=3&after=\\d+&limit=3$`));
    const last = await (await h.api(`/v1/crawl/${started.id}?skip=6&limit=3`)).json();
    expect(last.data).toHaveLength(1);
    expect(last).not.toHaveProperty('next');
    const paged = await v1.checkCrawlStatus(started.id, false, undefined, 0, 3);
    expect(paged.success && paged.next).toBe(first.next);

    // The JS SDK asks for errors with DELETE: they are read, the crawl is not cancelled.
    const errors = await v1.checkCrawlErrors(started.id);
    expect(errors).toEqual({ errors: [], robotsBlocked: [] });
    expect((await v1.checkCrawlStatus(started.id)).success && all.status).toBe('completed');
  });

  it('cancelCrawl cancels a running crawl; it is listed as active before, its options under v1 names', async () => {
    const started = await v1.asyncCrawlUrl(`${slow.url}/slow/0`, { limit: 30, maxDepth: 3, allowBackwardLinks: true });
    if (!started.success || !started.id) throw new Error('crawl not started');
    const active = await (await h.api('/v1/crawl/active')).json();
    expect(active.crawls.find((c: { id: string }) => c.id === started.id)?.options).toMatchObject({
      maxDepth: 3,
      allowBackwardLinks: true,
      crawlEntireDomain: true,
      ignoreSitemap: false,
      limit: 30,
    });
    expect(await v1.cancelCrawl(started.id)).toEqual({ status: 'cancelled' });
    const status = await v1.checkCrawlStatus(started.id);
    expect(status.success && status.status).toBe('cancelled');
  });

  it('batchScrapeUrls polls /v1/crawl/{id}; the extract format answers under extract, in the status and in the webhook’s page events', async () => {
    const batch = await v1.batchScrapeUrls(
      [`${site.url}/widget`, `${site.url}/p/1`],
      { formats: ['extract'], extract: { prompt: 'the name', schema: NAME } },
      1,
      undefined,
      { url: receiver.url, events: ['page', 'completed'] },
    );
    if (!batch.success) throw new Error('batch failed');
    expect(batch.status).toBe('completed');
    const names = batch.data.map((d) => (d as { extract?: { name: string } }).extract?.name).sort();
    expect(names).toEqual(['Blue Widget', 'Page 1']);
    expect(batch.data.every((d) => !('json' in d))).toBe(true);
    const pages = await waitFor(
      'page events',
      () => {
        const events = receiver.deliveries.filter((d) => d.payload.type === 'batch_scrape.page');
        return events.length === 2 ? events : undefined;
      },
      30_000,
    );
    expect(pages.map((p) => (p.payload.data[0] as { extract: { name: string } }).extract.name).sort()).toEqual(['Blue Widget', 'Page 1']);
    expect(pages.every((p) => !('json' in (p.payload.data[0] as object)))).toBe(true);
  });

  it('asyncBatchScrapeUrls with ignoreInvalidURLs lists the URL left out; checkBatchScrapeStatus and checkBatchScrapeErrors', async () => {
    const started = await v1.asyncBatchScrapeUrls([`${site.url}/p/3`, 'not a url'], { formats: ['html'] }, undefined, undefined, true);
    if (!started.success || !started.id) throw new Error('batch not started');
    expect(started.invalidURLs).toEqual(['not a url']);
    expect(started.url).toBe(`${h.baseUrl}/v1/batch/scrape/${started.id}`);
    const done = await waitFor(
      'batch end',
      async () => {
        const s = await v1.checkBatchScrapeStatus(started.id);
        return s.success && s.status === 'completed' ? s : undefined;
      },
      60_000,
      300,
    );
    expect(done.data.map((d) => d.html?.includes('Page 3'))).toEqual([true]);
    expect(await v1.checkBatchScrapeErrors(started.id)).toEqual({ errors: [], robotsBlocked: [] });
    // Without ignoreInvalidURLs (v1's default false) one malformed URL refuses the batch.
    await expect(v1.asyncBatchScrapeUrls([`${site.url}/p/3`, 'not a url'], {})).rejects.toThrow(
      'Request failed with status code 400. Error: urls.1: Invalid URL',
    );
  });

  it('crawlUrlAndWatch: the watcher gets every document, then done', async () => {
    const watcher = await v1.crawlUrlAndWatch(`${site.url}/`, { limit: 3, ignoreSitemap: true });
    const documents: unknown[] = [];
    watcher.addEventListener('document', (e) => void documents.push(e.detail));
    const done = await new Promise<{ status: string; data: unknown[] }>((resolve, reject) => {
      watcher.addEventListener('done', (e) => resolve((e as CustomEvent).detail));
      watcher.addEventListener('error', (e) => reject(new Error(JSON.stringify((e as CustomEvent).detail))));
    });
    expect(done.status).toBe('completed');
    expect(documents).toHaveLength(3);
  });

  it('mapUrl answers plain URL strings; search a flat list of web results from the local index, scraped on request', async () => {
    const mapped = await v1.mapUrl(`${site.url}/`, { ignoreSitemap: true });
    if (!mapped.success) throw new Error(mapped.error);
    expect(mapped.links).toContain(`${site.url}/widget`);
    expect(mapped.links?.every((l: unknown) => typeof l === 'string')).toBe(true);

    const found = await v1.search('widget', { limit: 3 });
    expect(found.success).toBe(true);
    expect(found.data.length).toBeGreaterThan(0);
    const widget = found.data.find((d) => d.url === `${site.url}/widget`);
    expect(widget).toEqual({ url: `${site.url}/widget`, title: 'Widget', description: expect.any(String) });

    const scraped = await v1.search('widget', { limit: 3, scrapeOptions: { formats: ['markdown'] } });
    expect(scraped.data.find((d) => d.url === `${site.url}/widget`)?.markdown).toContain('Blue Widget');
  });

  it('extract (deprecated) polls GET /v1/extract/{id} to the data; team usage in v1’s snake_case', async () => {
    const extracted = await v1.extract([`${site.url}/widget`], { prompt: 'the product name', schema: NAME });
    expect(extracted).toMatchObject({ success: true, data: { name: 'Blue Widget' } });
    const start = await h.api('/v1/extract', { method: 'POST', json: { urls: [`${site.url}/widget`], prompt: 'the product name' } });
    expect(start.headers.get('deprecation')).toBe('true');
    expect(start.headers.get('link')).toBe('</v2/extract>; rel="successor-version"');
    expect(await start.json()).toMatchObject({ success: true, urlTrace: [], replacement: '/v2/extract', warnings: [expect.stringContaining('deprecated')] });

    const credits = await v1.getCreditUsage();
    const tokens = await v1.getTokenUsage();
    if (!credits.success || !tokens.success) throw new Error('usage failed');
    expect(credits).toMatchObject({ success: true, data: { remaining_credits: expect.any(Number), plan_credits: 0 } });
    expect(tokens.data.remaining_tokens).toBe(credits.data.remaining_credits * 15);
    const history = await v1.getCreditUsageHistorical(true);
    const tokenHistory = await v1.getTokenUsageHistorical();
    if (!history.success || !tokenHistory.success) throw new Error('history failed');
    expect(Object.keys(history.periods[0]).sort()).toEqual(['apiKey', 'creditsUsed', 'endDate', 'startDate']);
    expect(tokenHistory.periods[0]).toEqual({
      startDate: expect.any(String),
      endDate: expect.any(String),
      tokensUsed: expect.any(Number),
    });
    expect(await v1.getQueueStatus()).toMatchObject({ success: true, jobsInQueue: expect.any(Number), maxConcurrency: 4 });
    expect(await (await h.api('/v1/concurrency-check')).json()).toEqual({ success: true, concurrency: expect.any(Number), maxConcurrency: 4 });
  });
});

describe('the /v1 routes for callers without an SDK', () => {
  it('refuse an unknown key (v2’s own too) naming it, as /v2 does; record requests as api_version v1; honour x-idempotency-key', async () => {
    const res = await h.api('/v1/crawl', { method: 'POST', json: { url: `${site.url}/`, sitemap: 'skip' } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      error: 'Unrecognized key in body -- please review the v2 API documentation for request body changes',
    });
    expect(body.details[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['sitemap'] });

    const key = { 'x-idempotency-key': `v1-${Date.now()}` };
    const first = await (await h.api('/v1/crawl', { method: 'POST', headers: key, json: { url: `${site.url}/`, limit: 1 } })).json();
    const again = await h.api('/v1/crawl', { method: 'POST', headers: key, json: { url: `${site.url}/`, limit: 1 } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).id).toBe(first.id);
    // The SDKs send the key again with every poll: a GET ignores it.
    expect((await h.api(`/v1/crawl/${first.id}`, { headers: key })).status).toBe(200);

    const activity = await (await h.api('/v2/team/activity?endpoint=crawl&limit=100')).json();
    const entry = activity.data.find((a: { id: string }) => a.id === first.id);
    expect(entry).toMatchObject({ endpoint: 'crawl', api_version: 'v1', target: `${site.url}/` });
  });

  it('a batch is read at /v1/crawl/{id} too, its next keeping that path; deep research and llms.txt are not offered', async () => {
    const started = await (await h.api('/v1/batch/scrape', { method: 'POST', json: { urls: [`${site.url}/p/4`, `${site.url}/p/5`] } })).json();
    expect(started).not.toHaveProperty('invalidURLs');
    await waitFor('batch end', async () => (await (await h.api(`/v1/batch/scrape/${started.id}`)).json()).status === 'completed', 60_000, 300);
    const viaCrawl = await (await h.api(`/v1/crawl/${started.id}?limit=1`)).json();
    expect(viaCrawl).toMatchObject({
      success: true,
      status: 'completed',
      completed: 2,
      next: expect.stringMatching(new RegExp(`^${h.baseUrl}/v1/crawl/${started.id}\\?skip=1&after=\\d+&limit=1$`)),
    });
    expect((await h.api(`/v2/crawl/${started.id}`)).status).toBe(404);

    // The watcher of a batch, at /v1/crawl/{id}: the end also in the close frame's reason, where the JS v1 watcher reads it.
    const ws = new WebSocket(`${h.baseUrl.replace(/^http/, 'ws')}/v1/crawl/${started.id}`, h.apiKey);
    const types: string[] = [];
    ws.onmessage = (m) => void types.push(JSON.parse(String(m.data)).type);
    const closed = await new Promise<CloseEvent>((resolve) => (ws.onclose = resolve));
    expect(types).toEqual(['catchup', 'done']);
    expect(ws.protocol).toBe(h.apiKey);
    expect([closed.code, closed.reason]).toEqual([1000, '{"type":"done"}']);

    const research = await h.api('/v1/deep-research', { method: 'POST', json: { query: 'q' } });
    expect(research.status).toBe(410);
    expect(await research.json()).toMatchObject({ code: 'ENDPOINT_RETIRED', details: { replacement: '/v2/search' } });
    expect((await h.api('/v1/llmstxt', { method: 'POST', json: { url: site.url } })).status).toBe(410);
    expect(await (await h.api('/v1/llmstxt/0190a2b4-0000-7000-8000-000000000001')).json()).toMatchObject({ error: 'llmsTxt generation job not found' });
  });
});

describe('the Python SDK’s v1 client (V1FirecrawlApp)', () => {
  it('every method works end to end', async () => {
    const out = await python;
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const r = JSON.parse(out.stdout);
    expect(r.scrape).toEqual({ markdown: expect.stringContaining('Blue Widget'), has_html: true, links: [], json: { name: 'Blue Widget' }, status_code: 200 });
    expect(r.scrape_extract).toEqual({ extract: { name: 'Blue Widget' }, json: null, markdown: null });
    const tree = ['/', '/p/1', '/p/2', '/p/3', '/p/4', '/p/5', '/widget'].map((p) => `${site.url}${p}`).sort();
    expect(r.crawl).toMatchObject({ status: 'completed', completed: 7, total: 7, credits_used: 7, urls: tree });
    // maxDepth 1: the start page and /widget; the /p/i pages are 2 segments deep.
    expect(r.async_crawl).toMatchObject({ status: 'completed', success: true, errors: [], robots_blocked: [] });
    expect(r.async_crawl.urls.sort()).toEqual([`${site.url}/`, `${site.url}/widget`]);
    expect(r.async_crawl.url).toBe(`${h.baseUrl}/v1/crawl/${r.async_crawl.id}`);
    // The end comes as a done message: the Python watcher reads no close reason.
    expect(r.watch).toEqual(['document', 'document', 'done']);
    expect(r.cancel).toEqual({ status: 'cancelled' });
    expect(r.cancelled_status).toBe('cancelled');
    expect(r.batch).toEqual({ status: 'completed', completed: 2, urls: [`${site.url}/p/1`, `${site.url}/p/2`] });
    expect(r.async_batch).toMatchObject({ invalid: null, status: 'completed', urls: [`${site.url}/missing`, `${site.url}/p/3`], errors: 0 });
    expect(r.invalid_batch).toContain('urls.1: Invalid URL: not a url');
    expect(r.map).toContain(`${site.url}/widget`);
    expect(r.search.find((d: { url: string }) => d.url === `${site.url}/widget`)).toEqual({
      url: `${site.url}/widget`,
      title: 'Widget',
      description: expect.any(String),
    });
    expect(r.search_scraped.find((d: { url: string }) => d.url === `${site.url}/widget`).markdown).toContain('Blue Widget');
    expect(r.extract).toEqual({ success: true, status: 'completed', data: { name: 'Blue Widget' } });
    expect(r.usage.remaining_tokens).toBe(r.usage.remaining_credits * 15);
    expect(r.usage.periods.length).toBeGreaterThan(0);
    expect(r.usage.token_periods.length).toBeGreaterThan(0);
  }, 180_000);

  it('every answer either SDK got is as the OpenAPI document says', async () => {
    expect(recorded.filter((r) => r.url.startsWith('/v1/')).length).toBeGreaterThan(20);
    expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
  });
});
