// The official JS SDK (@mendable/firecrawl-js 4.x), unchanged, against our
// gateway: scrape, map, the batch scrape methods, the WebSocket watcher and parse.
import { readFileSync } from 'node:fs';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';

let h: Harness;
// Every JSON answer the gateway gives the SDK, checked against the OpenAPI document at the end.
const recorded: RecordedResponse[] = [];
let site: FixtureSite;
let client: Firecrawl;

beforeAll(async () => {
  h = await startHarness({ recordResponses: recorded });
  await h.startWorker();
  site = await startFixtureSite(
    {
      ...treeSite(6),
      '/gone': { hangUp: true },
      ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`/slow/${i}`, page(`Slow ${i}`, `<p>slow ${i}</p>`)])),
    },
    { delayMs: (path) => (path.startsWith('/slow') ? 800 : 0) },
  );
  client = new Firecrawl({ apiKey: h.apiKey, apiUrl: h.baseUrl });
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

describe('@mendable/firecrawl-js scrape, map and batch', () => {
  it('scrape() returns the document with its scrape id', async () => {
    const doc = await client.scrape(`${site.url}/`, { formats: ['markdown', 'links'] });
    expect(doc.markdown).toContain('Content of page 0');
    expect(doc.links).toContain(`${site.url}/p/1`);
    expect(doc.metadata).toMatchObject({ title: 'Page 0', statusCode: 200 });
    expect(doc.metadata?.scrapeId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('scrape() of a page that fails throws the SDK error with our message', async () => {
    await expect(client.scrape(`${site.url}/gone`, { maxAge: 0 })).rejects.toMatchObject({ name: 'FirecrawlSdkError', status: 500, code: 'SCRAPE_FAILED' });
  });

  it('map() returns the links', async () => {
    const mapped = await client.map(`${site.url}/`, { sitemap: 'skip' });
    expect(mapped.links.map((l) => l.url).sort()).toEqual([`${site.url}/`, `${site.url}/p/1`, `${site.url}/p/2`]);
    expect(mapped.links.find((l) => l.url === `${site.url}/`)?.title).toBe('Page 0');
  });

  it('batchScrape() starts and waits; getBatchScrapeErrors lists the failure', async () => {
    const job = await client.batchScrape([`${site.url}/p/1`, `${site.url}/p/2`, `${site.url}/gone`], { options: { formats: ['markdown'] }, pollInterval: 1 });
    expect(job.status).toBe('completed');
    expect(job.completed).toBe(2);
    expect(job.creditsUsed).toBe(2);
    expect(job.data.map((d) => d.metadata?.sourceURL).sort()).toEqual([`${site.url}/p/1`, `${site.url}/p/2`]);
    const started = await client.startBatchScrape([`${site.url}/gone`, `${site.url}/p/3`]);
    await waitFor('batch', async () => (await client.getBatchScrapeStatus(started.id)).status === 'completed', 60_000, 300);
    const errors = await client.getBatchScrapeErrors(started.id);
    expect(errors.errors.map((e) => e.url)).toEqual([`${site.url}/gone`]);
    expect(errors.robotsBlocked).toEqual([]);
  });

  it('startBatchScrape() honours idempotencyKey and appendToId; cancelBatchScrape() cancels', async () => {
    const urls = [0, 1, 2, 3].map((i) => `${site.url}/slow/${i}`);
    const started = await client.startBatchScrape(urls, { maxConcurrency: 1, idempotencyKey: `sdk-${Date.now()}` });
    expect(started.url).toBe(`${h.baseUrl}/v2/batch/scrape/${started.id}`);
    const appended = await client.startBatchScrape([`${site.url}/slow/4`], { appendToId: started.id });
    expect(appended.id).toBe(started.id);
    const running = await client.getBatchScrapeStatus(started.id, { autoPaginate: false });
    expect(running.status).toBe('scraping');
    expect(running.total).toBe(5);
    expect(await client.cancelBatchScrape(started.id)).toBe(true);
    await waitFor('cancel', async () => (await client.getBatchScrapeStatus(started.id)).status === 'cancelled', 60_000, 300);
  });

  it('watcher() receives documents over the WebSocket and ends with done', async () => {
    const urls = [5, 6, 7].map((i) => `${site.url}/slow/${i}`);
    const started = await client.startBatchScrape(urls, { maxConcurrency: 1 });
    const watcher = client.watcher(started.id, { kind: 'batch', pollInterval: 60, timeout: 120 });
    const documents: string[] = [];
    watcher.on('document', (d: { metadata?: { sourceURL?: string } }) => documents.push(d.metadata?.sourceURL ?? ''));
    const done = new Promise<{ status: string }>((resolve) => watcher.on('done', resolve));
    await watcher.start();
    expect((await done).status).toBe('completed');
    expect(documents.sort()).toEqual(urls);
  });
});

describe('@mendable/firecrawl-js parse', () => {
  it('parse() uploads a PDF and an HTML string and returns their documents', async () => {
    const pdf = await client.parse(
      { data: readFileSync('test/fixtures/pdf/report.pdf'), filename: 'report.pdf', contentType: 'application/pdf' },
      { formats: ['markdown', 'html'] },
    );
    expect(pdf.markdown).toContain('# Quarterly Report');
    expect(pdf.html).toContain('<h1>Quarterly Report</h1>');
    expect(pdf.metadata).toMatchObject({ numPages: 2, statusCode: 200, contentType: 'application/pdf', sourceURL: 'file:///report.pdf' });
    const html = await client.parse({
      data: page('Notes', '<main><h1>Notes</h1><p>From a string.</p></main>'),
      filename: 'notes.html',
      contentType: 'text/html',
    });
    expect(html.markdown).toContain('From a string.');
    expect(html.metadata?.title).toBe('Notes');
  });

  it('parse() of an unsupported file throws the 415 with its code', async () => {
    const err = await client
      .parse({ data: '<svg xmlns="http://www.w3.org/2000/svg"/>', filename: 'chart.svg', contentType: 'image/svg+xml' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
  });
});

it('every answer the SDK got is as the OpenAPI document (/v2/openapi.json) says', async () => {
  // How many depends on polling; only that the recorder saw answers is certain.
  expect(recorded.length).toBeGreaterThan(0);
  expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
});
