// The official Python SDK (`firecrawl` on PyPI, installed into .tools/python by
// npm test), unchanged, against our gateway: scrape(), map(), batch_scrape(), parse().
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import { runPythonSdk } from '../support/python-sdk.ts';

let h: Harness;
// Every JSON answer the gateway gives the SDK, checked against the OpenAPI document at the end.
const recorded: RecordedResponse[] = [];
let site: FixtureSite;

beforeAll(async () => {
  h = await startHarness({ recordResponses: recorded });
  await h.startWorker();
  site = await startFixtureSite(treeSite(7));
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

it('scrape(), map() and batch_scrape() work unchanged', async () => {
  const out = await runPythonSdk('test/sdk/python_scrape.py', { API_URL: h.baseUrl, API_KEY: h.apiKey, SITE_URL: site.url });
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  const result = JSON.parse(out.stdout);
  expect(result.scrape_markdown).toContain('Content of page 0');
  expect(result.scrape_links).toContain(`${site.url}/p/1`);
  expect(result.scrape_title).toBe('Page 0');
  expect(result.map_urls).toEqual([`${site.url}/`, `${site.url}/p/1`, `${site.url}/p/2`]);
  expect(result).toMatchObject({ batch_status: 'completed', batch_completed: 3, batch_credits: 3 });
  expect(result.batch_urls).toEqual([1, 2, 3].map((i) => `${site.url}/p/${i}`));
});

it('parse() uploads a file by path and by bytes; get_parse_formats() lists the types', async () => {
  const out = await runPythonSdk('test/sdk/python_parse.py', { API_URL: h.baseUrl, API_KEY: h.apiKey, PDF_PATH: 'test/fixtures/pdf/report.pdf' });
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  const result = JSON.parse(out.stdout);
  expect(result.pdf_markdown).toContain('# Quarterly Report');
  expect(result.pdf_html).toContain('<h1>Quarterly Report</h1>');
  expect(result.pdf_pages).toBe(2);
  expect(result.pdf_source).toBe('file:///report.pdf');
  expect(result.text_markdown).toBe('# Notes\n\nFrom bytes.');
  expect(result.text_type).toBe('text/markdown');
  expect(result.refused.message).toContain('PDF (.pdf), HTML');
  expect(result.formats).toEqual(['avif', 'bmp', 'docx', 'gif', 'html', 'jpeg', 'jpeg2000', 'markdown', 'pdf', 'png', 'text', 'tiff', 'webp']);
  expect(result.pdf_format).toEqual({
    format: 'pdf',
    kind: 'document',
    extensions: ['.pdf'],
    mimeTypes: ['application/pdf', 'application/x-pdf'],
    available: true,
  });
});

it('every answer the SDK got is as the OpenAPI document (/v2/openapi.json) says', async () => {
  // How many depends on polling; only that the recorder saw answers is certain.
  expect(recorded.length).toBeGreaterThan(0);
  expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
});
