// The API contract as clients reach it: GET /v2/openapi.json and the /docs page
// need no API key, and /docs renders the document in a real headless Chromium
// from the gateway alone (every request it makes stays on the gateway; nothing
// is fetched from the internet, nothing breaks its Content-Security-Policy).
// WRITE_DOCS_SCREENSHOT=1 writes the picture in docs/api/openapi.md
// (docs/images/openapi-docs.png).
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunch } from '../../src/platform/browser/chromium-launch.ts';
import type { OpenApiDocument } from '../../src/platform/http/openapi-document.ts';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
let browser: Browser;

beforeAll(async () => {
  h = await startHarness();
  browser = await chromium.launch(chromiumLaunch(h.config.chromium).launchOptions(undefined));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.stop();
});

async function fetchDocument(): Promise<OpenApiDocument> {
  const res = await h.api('/v2/openapi.json', { key: null });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return (await res.json()) as OpenApiDocument;
}

describe('the API contract over HTTP', () => {
  it('GET /v2/openapi.json answers without an API key, and with an unknown one', async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe('3.1.0');
    expect(document.paths['/v2/crawl'].post).toMatchObject({ operationId: 'startCrawl' });
    const withBadKey = await h.api('/v2/openapi.json', { key: 'fc-not-a-key' });
    expect(withBadKey.status).toBe(200);
    // The key check still guards the API itself.
    expect((await h.api('/v2/crawl/active', { key: null })).status).toBe(401);
  });

  it('serves the page’s assets from node_modules, and nothing else under /docs', async () => {
    const bundle = await h.api('/docs/assets/swagger-ui-bundle.js', { key: null });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    const missing = await h.api('/docs/assets/nothing.js', { key: null });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('/docs renders every operation of the document, from the gateway alone', async () => {
    const document = await fetchDocument();
    const summaries = Object.values(document.paths).flatMap((operations) => Object.values(operations).map((op) => op.summary as string));
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const elsewhere: string[] = [];
    const problems: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(h.baseUrl) && !req.url().startsWith('data:')) elsewhere.push(req.url());
    });
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(err.message));
    try {
      const res = await page.goto(`${h.baseUrl}/docs`);
      expect(res?.status()).toBe(200);
      expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
      await page.locator('.opblock-summary-description').first().waitFor({ timeout: 60_000 });
      const rendered = await page.locator('.opblock-summary-description').allTextContents();
      expect(rendered.sort()).toEqual([...summaries].sort());
      expect(await page.locator('.info .title').textContent()).toContain(document.info.title);
      if (process.env.WRITE_DOCS_SCREENSHOT) {
        await page.locator('.opblock-summary', { hasText: 'Start a crawl of a site' }).click();
        await page.locator('.opblock-summary', { hasText: 'Start a crawl of a site' }).scrollIntoViewIfNeeded();
        await page.screenshot({ path: 'docs/images/openapi-docs.png' });
      }
      expect(elsewhere).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
