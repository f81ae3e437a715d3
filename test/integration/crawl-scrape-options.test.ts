// scrapeOptions through a whole crawl: formats, content selection, headers,
// mobile, location, actions and PDFs end up in the stored documents.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitForCrawl, type Harness } from '../support/harness.ts';

let h: Harness;
let site: FixtureSite;
const pdf = readFileSync('test/fixtures/pdf/report.pdf');

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  site = await startFixtureSite({
    '/': page(
      'Home',
      `<header>Site header</header><main><h1>Main title</h1><p class="keep">Kept</p><p class="drop">Dropped</p>
       <a href="/report.pdf">report</a> <a href="/download">download</a> <button id="more" onclick="document.getElementById('extra').textContent='Revealed'">more</button><div id="extra"></div></main>
       <footer>Site footer</footer>`,
    ),
    '/report.pdf': { headers: { 'content-type': 'application/pdf' }, body: pdf },
    // A PDF without the extension: Chromium turns it into a download.
    '/download': { headers: { 'content-type': 'application/pdf' }, body: pdf },
  });
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

async function crawl(scrapeOptions: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const res = await h.api('/v2/crawl', {
    method: 'POST',
    json: { url: `${site.url}/`, sitemap: 'skip', scrapeOptions: { maxAge: 0, ...scrapeOptions }, ...extra },
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  const status = await waitForCrawl(h, body.id);
  lastCrawl = { id: body.id, creditsUsed: status.creditsUsed as number };
  return Object.fromEntries(status.data.map((d) => [new URL(d.metadata.sourceURL).pathname, d]));
}
let lastCrawl: { id: string; creditsUsed: number };

it('formats, onlyMainContent, includeTags/excludeTags, screenshot@fullPage, headers, mobile, location, actions', async () => {
  const docs = await crawl(
    {
      formats: ['markdown', 'html', 'rawHtml', 'links', 'screenshot@fullPage'],
      excludeTags: ['.drop'],
      headers: { 'X-Test': 'yes' },
      mobile: true,
      location: { country: 'DE', languages: ['de-DE'] },
      actions: [
        { type: 'click', selector: '#more' },
        { type: 'executeJavascript', script: 'return document.title' },
      ],
    },
    { includePaths: ['^/$'] },
  );
  const home = docs['/'];
  expect(home.markdown).toContain('# Main title');
  expect(home.markdown).toContain('Kept');
  expect(home.markdown).not.toContain('Dropped');
  expect(home.markdown).not.toContain('Site footer');
  expect(home.markdown).toContain('Revealed');
  expect(home.html).toContain('Main title');
  expect(home.rawHtml).toContain('Site footer');
  expect(home.links).toContain(`${site.url}/report.pdf`);
  expect(home.screenshot).toMatch(/^data:image\/png;base64,/);
  expect(home.actions.javascriptReturns).toEqual([{ type: 'string', value: 'Home' }]);
  const headers = site.headers.get('/')!;
  expect(headers['x-test']).toBe('yes');
  expect(headers['user-agent']).toMatch(/Mobile/);
  expect(headers['accept-language']).toMatch(/^de-DE/);
});

it('onlyMainContent false keeps header and footer; includeTags keeps only the selected elements', async () => {
  const full = await crawl({ onlyMainContent: false }, { includePaths: ['^/$'] });
  expect(full['/'].markdown).toContain('Site footer');
  const only = await crawl({ includeTags: ['.keep'] }, { includePaths: ['^/$'] });
  expect(only['/'].markdown.trim()).toBe('Kept');
});

it('turns linked PDFs into markdown, with or without a .pdf name, and bills their pages', async () => {
  const docs = await crawl({ formats: ['markdown'] });
  for (const path of ['/report.pdf', '/download']) {
    expect(docs[path].markdown).toMatch(/^# /m);
    expect(docs[path].metadata.numPages).toBe(2);
    expect(docs[path].metadata.statusCode).toBe(200);
  }
  // A 2-page PDF costs 2 credits: one for the page, one for its second page.
  expect(lastCrawl.creditsUsed).toBe(1 + 2 + 2);
  const noParse = await crawl({ parsers: [] }, { includePaths: ['^/$', '^/report'] });
  expect(Object.keys(noParse)).toEqual(['/']);
  const errors = await (await h.api(`/v2/crawl/${lastCrawl.id}/errors`)).json();
  expect(errors.errors[0]).toMatchObject({ url: `${site.url}/report.pdf`, error: expect.stringMatching(/parsers/) });
});
