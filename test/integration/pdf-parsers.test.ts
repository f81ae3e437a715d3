// The pdf and image parsers through the real gateway and worker, read by both
// official SDKs: per-page markdown, page markers and layout blocks of a PDF,
// OCR (Debian's tesseract, which npm test installs) of a scanned page in mode
// auto and ocr and of image URLs and uploads, what each costs, and the limit an
// oversized image meets. The Python SDK builds its pydantic Document from every
// answer (test/sdk/python_pdf_parsers.py), so a field of the wrong shape fails it.
import { readFileSync } from 'node:fs';
import Firecrawl, { type Document } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import { runPythonSdk } from '../support/python-sdk.ts';

const REPORT = readFileSync('test/fixtures/pdf/report.pdf');
const SCANNED = readFileSync('test/fixtures/pdf/scanned.pdf');
const SCAN_PNG = readFileSync('test/fixtures/pdf/scan.png');
// A PNG header that claims 10,000 x 10,000 pixels: refused from its header, never decoded.
const HUGE_PNG = Buffer.concat([SCAN_PNG.subarray(0, 16), Buffer.from([0, 0, 0x27, 0x10, 0, 0, 0x27, 0x10]), SCAN_PNG.subarray(24)]);

const SCANNED_TEXT = [
  '# Inspection Notes',
  'The pump station was inspected on Monday morning. Every gauge read within its normal range.',
  '1. Valves replaced\n2. Filters cleaned',
].join('\n\n');

let h: Harness;
let site: FixtureSite;
let client: Firecrawl;
const recorded: RecordedResponse[] = [];

const file = (body: Buffer, type: string) => ({ body, headers: { 'content-type': type } });

beforeAll(async () => {
  h = await startHarness({ recordResponses: recorded });
  await h.startWorker();
  site = await startFixtureSite({
    '/report.pdf': file(REPORT, 'application/pdf'),
    '/scanned.pdf': file(SCANNED, 'application/pdf'),
    '/scan.png': file(SCAN_PNG, 'image/png'),
    // No extension: only its content type, seen by the browser, says it is an image.
    '/latest-scan': file(SCAN_PNG, 'image/png'),
    '/huge.png': file(HUGE_PNG, 'image/png'),
  });
  client = new Firecrawl({ apiKey: h.apiKey, apiUrl: h.baseUrl });
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

async function creditsOf(doc: Document): Promise<number> {
  const rows = await h.db.usageEntry.findMany({ where: { jobId: doc.metadata?.scrapeId }, select: { credits: true } });
  return rows.reduce((sum, r) => sum + r.credits, 0);
}

describe('the pdf parser, text layer', () => {
  it('pages, pageMarkers and blocks: per-page markdown, markers between pages, blocks located in the markdown; a credit a page', async () => {
    const doc = await client.scrape(`${site.url}/report.pdf`, {
      formats: ['markdown'],
      parsers: [{ type: 'pdf', mode: 'fast', pages: true, blocks: true, pageMarkers: true }],
    });
    const [one, two] = doc.pages!;
    expect(doc.pages!.map((p) => p.pageNumber)).toEqual([1, 2]);
    expect(one.markdown).toMatch(/^# Quarterly Report\n\n/);
    expect(two.markdown).toMatch(/^## Outlook\n\n/);
    expect(doc.markdown).toBe(`${one.markdown}\n\n---\n\n<!-- page 2 -->\n\n${two.markdown}`);
    expect(doc.blocks!.map((b) => [b.pageNumber, b.width, b.height, b.status])).toEqual([
      [1, 612, 792, 'ok'],
      [2, 612, 792, 'ok'],
    ]);
    for (const item of doc.blocks!.flatMap((b) => b.items)) {
      expect(doc.markdown!.slice(...item.markdownSpan!)).toContain(item.content);
      expect(item).toMatchObject({ source: 'text-layer', confidence: { layout: null, ocr: null } });
    }
    expect(doc.metadata).toMatchObject({ numPages: 2, contentType: 'application/pdf', title: 'Quarterly Report' });
    expect(await creditsOf(doc)).toBe(2);
  });

  it('pageMarkdown, the deprecated name, gives pages; without the options the document has neither field', async () => {
    const doc = await client.scrape(`${site.url}/report.pdf`, { parsers: [{ type: 'pdf', pageMarkdown: true }] });
    expect(doc.pages).toHaveLength(2);
    expect(doc.blocks).toBeUndefined();
    const plain = await client.scrape(`${site.url}/report.pdf`, { parsers: ['pdf'] });
    expect(plain).not.toHaveProperty('pages');
    expect(plain).not.toHaveProperty('blocks');
  });
});

describe('OCR', () => {
  it('auto (the default) reads the scanned page by OCR and the other from its text layer; fast leaves the scan out', async () => {
    const doc = await client.scrape(`${site.url}/scanned.pdf`, { parsers: [{ type: 'pdf', blocks: true, pageMarkers: true }] });
    expect(doc.markdown).toBe(`# Site Visit\n\nA scan of the notes follows.\n\n---\n\n<!-- page 2 -->\n\n${SCANNED_TEXT}`);
    expect(doc.blocks!.map((b) => [b.status, ...new Set(b.items.map((i) => i.source))])).toEqual([
      ['ok', 'text-layer'],
      ['ok', 'ocr'],
    ]);
    const heading = doc.blocks![1].items[0];
    expect(heading).toMatchObject({ type: 'heading', label: 'h1', content: 'Inspection Notes', confidence: { layout: null, ocr: expect.any(Number) } });
    expect(heading.confidence.ocr).toBeGreaterThan(0.8);
    // Rendered at 150 dpi from a 26pt heading at x=72, baseline 92pt from the top.
    const [left, top, , bottom] = heading.bbox!;
    expect(left).toBeCloseTo(72, -1);
    expect(top).toBeGreaterThan(60);
    expect(bottom).toBeLessThan(100);
    expect(await creditsOf(doc)).toBe(2);

    const fast = await client.scrape(`${site.url}/scanned.pdf`, { parsers: [{ type: 'pdf', mode: 'fast', pages: true }] });
    expect(fast.markdown).toBe('# Site Visit\n\nA scan of the notes follows.');
    expect(fast.pages![1]).toEqual({ pageNumber: 2, markdown: '' });
  });

  it('ocr reads every page by OCR, the text-layer page too', async () => {
    const doc = await client.scrape(`${site.url}/scanned.pdf`, { parsers: [{ type: 'pdf', mode: 'ocr', pages: true }] });
    expect(doc.pages![0].markdown).toContain('Site Visit');
    expect(doc.pages![1].markdown).toBe(SCANNED_TEXT);
    expect(doc.warning).toBeUndefined();
  });

  it('the image parser (a default) reads an image URL as a one-page document, by extension or by content type', async () => {
    const doc = await client.scrape(`${site.url}/scan.png`, { formats: ['markdown', 'html'] });
    expect(doc.markdown).toBe(SCANNED_TEXT);
    expect(doc.html).toContain('<h1>Inspection Notes</h1>');
    expect(doc.metadata).toMatchObject({ numPages: 1, contentType: 'image/png', title: 'Inspection Notes', statusCode: 200 });
    expect(await creditsOf(doc)).toBe(1);
    // The browser sees the type and hands the URL to the file path.
    const typed = await client.scrape(`${site.url}/latest-scan`, { parsers: ['image', { type: 'pdf', blocks: true }] });
    expect(typed.markdown).toBe(SCANNED_TEXT);
    expect(typed.blocks).toMatchObject([{ pageNumber: 1, width: 1275, height: 1650, status: 'ok' }]);
  });

  it('without the image parser an image URL is a page as before; an image past OCR_MAX_PIXELS fails saying so', async () => {
    const page = await client.scrape(`${site.url}/scan.png`, { parsers: ['pdf'] });
    expect(page.markdown ?? '').not.toContain('Inspection');
    await expect(client.scrape(`${site.url}/huge.png`)).rejects.toMatchObject({
      status: 500,
      message: expect.stringContaining('The image is 10000×10000 pixels, more than OCR reads (OCR_MAX_PIXELS=40000000)'),
    });
  });

  it('parse() reads an uploaded image (PNG, AVIF) by OCR, and refuses it without the image parser', async () => {
    const doc = await client.parse({ data: SCAN_PNG, filename: 'scan.png', contentType: 'image/png' }, { parsers: ['image', { type: 'pdf', pages: true }] });
    expect(doc.markdown).toBe(SCANNED_TEXT);
    expect(doc.pages).toEqual([{ pageNumber: 1, markdown: SCANNED_TEXT }]);
    expect(doc.metadata).toMatchObject({ numPages: 1, contentType: 'image/png', sourceURL: 'file:///scan.png' });
    // tesseract reads no AVIF: avifdec decodes it first.
    const avif = await client.parse({ data: readFileSync('test/fixtures/pdf/scan.avif'), filename: 'scan.avif' });
    expect(avif.markdown).toBe(SCANNED_TEXT);
    expect(avif.metadata?.contentType).toBe('image/avif');
    const refused = await client.parse({ data: SCAN_PNG, filename: 'scan.png' }, { parsers: ['pdf'] }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, message: 'The file is an image and image parsing is off (parsers does not include "image").' });
  });

  it('the Python SDK builds its Document (pages, blocks) from each answer, and lists the image formats', async () => {
    const out = await runPythonSdk('test/sdk/python_pdf_parsers.py', {
      API_URL: h.baseUrl,
      API_KEY: h.apiKey,
      SITE_URL: site.url,
      SCAN_PATH: 'test/fixtures/pdf/scan.png',
    });
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result.pdf_pages).toEqual([1, 2]);
    expect(result.pdf_markers).toBe(true);
    expect(result.pdf_block_types[1]).toEqual(['heading', 'paragraph', 'list_item', 'list_item']);
    expect(result.pdf_block_sources[1]).toEqual(['ocr']);
    expect(result.pdf_spans_match).toBe(true);
    expect(result.image_markdown).toBe(SCANNED_TEXT);
    expect(result.parsed_markdown).toBe(SCANNED_TEXT);
    expect(result.parsed_blocks).toBe(4);
    expect(result.image_formats).toEqual([
      { format: 'png', kind: 'image', available: true },
      { format: 'jpeg', kind: 'image', available: true },
      { format: 'jpeg2000', kind: 'image', available: true },
      { format: 'tiff', kind: 'image', available: true },
      { format: 'gif', kind: 'image', available: true },
      { format: 'bmp', kind: 'image', available: true },
      { format: 'webp', kind: 'image', available: true },
      { format: 'avif', kind: 'image', available: true },
    ]);
  });
});

it('every answer the SDKs got is as the OpenAPI document (/v2/openapi.json) says', async () => {
  expect(recorded.length).toBeGreaterThan(0);
  expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
});
