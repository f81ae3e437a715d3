import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OcrPage } from '../../../src/page/ocr/hocr.ts';
import { OcrUnavailableError, type OcrEngine } from '../../../src/page/ocr/ocr-engine.ts';
import type { OcrRun } from '../../../src/page/ocr/ocr-pages.ts';
import { pdfToMarkdown } from '../../../src/page/pdf-to-markdown.ts';
import { loadConfig } from '../../../src/config.ts';

// Built by test/fixtures/pdf/make-pdfs.ts, which documents each file's text runs.
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/pdf/${name}.pdf`, import.meta.url)));

const REPORT_PAGE_ONE = [
  '# Quarterly Report',
  'This report covers the third quarter. Revenue grew faster than expected.',
  'Costs stayed flat across all regions.',
  '## Highlights',
  '- New customers in three markets\n- Churn fell to 2%\n- Support costs (per ticket) dropped',
].join('\n\n');

const REPORT_PAGE_TWO = [
  '## Outlook',
  'Next quarter we expect steady growth.',
  '### Risks',
  '1. Currency swings\n2. Supplier delays',
  'Prepared by the finance team.',
].join('\n\n');

describe('pdfToMarkdown', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('rebuilds headings by size, paragraphs by spacing and lists by marker, page after page', async () => {
    const result = await pdfToMarkdown(fixture('report'));

    expect(result.markdown).toBe(`${REPORT_PAGE_ONE}\n\n${REPORT_PAGE_TWO}`);
    expect(result.numPages).toBe(2);
  });

  it('renders the same structure as HTML', async () => {
    const { html } = await pdfToMarkdown(fixture('report'));

    expect(html).toBe(
      [
        '<h1>Quarterly Report</h1>',
        '<p>This report covers the third quarter. Revenue grew faster than expected.</p>',
        '<p>Costs stayed flat across all regions.</p>',
        '<h2>Highlights</h2>',
        '<ul><li>New customers in three markets</li><li>Churn fell to 2%</li><li>Support costs (per ticket) dropped</li></ul>',
        '<h2>Outlook</h2>',
        '<p>Next quarter we expect steady growth.</p>',
        '<h3>Risks</h3>',
        '<ol><li>Currency swings</li><li>Supplier delays</li></ol>',
        '<p>Prepared by the finance team.</p>',
      ].join('\n'),
    );
  });

  it('stops after maxPages but still reports the whole page count', async () => {
    const result = await pdfToMarkdown(fixture('report'), { maxPages: 1 });

    expect(result.markdown).toBe(REPORT_PAGE_ONE);
    expect(result.html).not.toContain('Outlook');
    expect(result.numPages).toBe(2);
  });

  it('takes the title and metadata from the info dictionary', async () => {
    const { title, metadata } = await pdfToMarkdown(fixture('report'));

    expect(title).toBe('Quarterly Report');
    expect(metadata).toMatchObject({
      title: 'Quarterly Report',
      author: 'Ada Lovelace',
      subject: 'Results for Q3',
      keywords: 'finance, quarterly',
      creator: 'make-pdfs.ts',
      producer: 'Hand-written fixture',
      creationDate: '2024-01-02T03:04:05.000Z',
    });
  });

  it('falls back to the first heading for the title and leaves out empty info fields', async () => {
    const result = await pdfToMarkdown(fixture('untitled'));

    expect(result.title).toBe('Field Notes');
    expect(result.metadata.author).toBe('Grace Hopper');
    expect(result.metadata).not.toHaveProperty('keywords');
    expect(result.metadata).not.toHaveProperty('title');
    expect(result.markdown).toBe('# Field Notes\n\nObserved on site.\n\n- first item\n- second item');
  });

  it('leaves the caller’s buffer usable', async () => {
    const data = fixture('untitled');

    await pdfToMarkdown(data);

    expect(data.byteLength).toBeGreaterThan(0);
    expect(new TextDecoder().decode(data.subarray(0, 5))).toBe('%PDF-');
  });

  it('refuses bytes that are not a PDF', async () => {
    await expect(pdfToMarkdown(new TextEncoder().encode('<html>not a pdf</html>'))).rejects.toThrow(/^The PDF could not be read: /);
    await expect(pdfToMarkdown(new Uint8Array(0))).rejects.toThrow(/^The PDF could not be read: .*empty/);
  });

  it('refuses a truncated PDF without logging pdf.js warnings', async () => {
    const whole = fixture('report');
    const log = vi.spyOn(console, 'log');
    const warn = vi.spyOn(console, 'warn');

    await expect(pdfToMarkdown(whole.subarray(0, Math.floor(whole.length / 2)))).rejects.toThrow(/^The PDF could not be read: /);
    expect(log).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });

  it('refuses a password-protected PDF with that reason', async () => {
    await expect(pdfToMarkdown(fixture('locked'))).rejects.toThrow('The PDF could not be read: it is password-protected');
  });
});

describe('pdfToMarkdown pages, page markers and blocks', () => {
  it('gives every page its own markdown, and the document markdown is the pages joined', async () => {
    const result = await pdfToMarkdown(fixture('report'), { pages: true });

    expect(result.pages).toEqual([
      { pageNumber: 1, markdown: REPORT_PAGE_ONE },
      { pageNumber: 2, markdown: REPORT_PAGE_TWO },
    ]);
    expect(result.markdown).toBe(`${REPORT_PAGE_ONE}\n\n${REPORT_PAGE_TWO}`);
    expect(result.blocks).toBeUndefined();
  });

  it('puts a marker naming the next page between pages, none before the first', async () => {
    const result = await pdfToMarkdown(fixture('report'), { pageMarkers: true });

    expect(result.markdown).toBe(`${REPORT_PAGE_ONE}\n\n---\n\n<!-- page 2 -->\n\n${REPORT_PAGE_TWO}`);
    expect(result.pages).toBeUndefined();
    // One page: nothing to mark.
    expect((await pdfToMarkdown(fixture('report'), { pageMarkers: true, maxPages: 1 })).markdown).toBe(REPORT_PAGE_ONE);
  });

  it('lays out blocks per page: type, label, bbox in points from the top, reading order, text-layer source', async () => {
    const { blocks } = await pdfToMarkdown(fixture('report'), { blocks: true });

    expect(blocks?.map((p) => [p.pageNumber, p.width, p.height, p.status, p.items.length])).toEqual([
      [1, 612, 792, 'ok', 7],
      [2, 612, 792, 'ok', 6],
    ]);
    const [heading, paragraph] = blocks![0].items;
    // Quarterly Report: 24pt at baseline y=720 of 792, so 72 below the top; its em box 0.8 above, 0.2 below.
    expect(heading).toEqual({
      id: 'p1-b0',
      type: 'heading',
      label: 'h1',
      content: 'Quarterly Report',
      bbox: [72, 52.8, expect.closeTo(262.7, 1), 76.8],
      markdownSpan: [0, 18],
      readingOrder: 0,
      source: 'text-layer',
      confidence: { layout: null, ocr: null },
    });
    // Two lines 14pt apart make one paragraph; its box spans both.
    expect(paragraph).toMatchObject({
      type: 'paragraph',
      label: null,
      readingOrder: 1,
      bbox: [72, expect.closeTo(99.2, 1), expect.any(Number), expect.closeTo(124.2, 1)],
    });
    expect(blocks![0].items.slice(4).map((i) => [i.type, i.label, i.content])).toEqual([
      ['list_item', 'bullet', 'New customers in three markets'],
      ['list_item', 'bullet', 'Churn fell to 2%'],
      ['list_item', 'bullet', 'Support costs (per ticket) dropped'],
    ]);
    expect(blocks![1].items.map((i) => [i.id, i.type, i.label])).toEqual([
      ['p2-b0', 'heading', 'h2'],
      ['p2-b1', 'paragraph', null],
      ['p2-b2', 'heading', 'h3'],
      ['p2-b3', 'list_item', 'ordered'],
      ['p2-b4', 'list_item', 'ordered'],
      ['p2-b5', 'paragraph', null],
    ]);
  });

  it.each([false, true])('locates every block in the document markdown (page markers %s)', async (pageMarkers) => {
    const { markdown, blocks } = await pdfToMarkdown(fixture('report'), { blocks: true, pageMarkers });

    const items = blocks!.flatMap((p) => p.items);
    expect(items.map((i) => markdown.slice(...i.markdownSpan!))).toEqual([
      '# Quarterly Report',
      'This report covers the third quarter. Revenue grew faster than expected.',
      'Costs stayed flat across all regions.',
      '## Highlights',
      '- New customers in three markets',
      '- Churn fell to 2%',
      '- Support costs (per ticket) dropped',
      '## Outlook',
      'Next quarter we expect steady growth.',
      '### Risks',
      '1. Currency swings',
      '2. Supplier delays',
      'Prepared by the finance team.',
    ]);
  });
});

/** An engine that reads every image as `page` and records what it was asked. */
function fakeOcr(page: OcrPage | Error, overrides: Partial<OcrEngine['settings']> = {}) {
  const calls: { rendered: number[]; recognized: number } = { rendered: [], recognized: 0 };
  const engine: OcrEngine = {
    settings: { ...loadConfig().ocr, ...overrides },
    async renderPdfPage(_path, n) {
      calls.rendered.push(n);
      return new Uint8Array([1]);
    },
    async recognize() {
      calls.recognized++;
      if (page instanceof Error) throw page;
      return page;
    },
    async decodeAvif() {
      throw new Error('not an AVIF test');
    },
  };
  return { calls, run: (budgetMs = 60_000): OcrRun => ({ engine, budgetMs }) };
}

// Tesseract's lines for a page rendered at 300 dpi: a 26pt heading and a line of 11pt text.
const SCANNED_PAGE: OcrPage = {
  width: 2550,
  height: 3300,
  lines: [
    { text: 'Inspection Notes', box: [300, 300, 1160, 400], baseline: 390, size: 108, confidence: 0.96 },
    { text: 'The pump station was inspected.', box: [300, 520, 1700, 575], baseline: 570, size: 46, confidence: 0.9 },
  ],
};

describe('pdfToMarkdown with OCR (the engine faked; the real one runs in test/integration/pdf-parsers.test.ts)', () => {
  it('auto: reads the page without a text layer by OCR, in points, and the other from its text layer', async () => {
    const ocr = fakeOcr(SCANNED_PAGE);
    const result = await pdfToMarkdown(fixture('scanned'), { ocr: ocr.run(), blocks: true, pageMarkers: true });

    expect(ocr.calls.rendered).toEqual([2]);
    expect(result.markdown).toBe(
      '# Site Visit\n\nA scan of the notes follows.\n\n---\n\n<!-- page 2 -->\n\n# Inspection Notes\n\nThe pump station was inspected.',
    );
    expect(result.blocks![0].items.map((i) => i.source)).toEqual(['text-layer', 'text-layer']);
    expect(result.blocks![1].items[0]).toMatchObject({ source: 'ocr', bbox: [72, 72, 278.4, 96], confidence: { layout: null, ocr: 0.96 } });
    expect(result.warnings).toBeUndefined();
  });

  it('ocr: reads every page by OCR; fast: none', async () => {
    const ocr = fakeOcr(SCANNED_PAGE);
    expect((await pdfToMarkdown(fixture('scanned'), { mode: 'ocr', ocr: ocr.run() })).markdown).toContain(
      'Inspection Notes\n\nThe pump station was inspected.\n\n# Inspection Notes',
    );
    expect(ocr.calls.rendered).toEqual([1, 2]);
    const fast = fakeOcr(SCANNED_PAGE);
    expect((await pdfToMarkdown(fixture('scanned'), { mode: 'fast', ocr: fast.run(), blocks: true })).blocks![1]).toMatchObject({ status: 'empty', items: [] });
    expect(fast.calls.rendered).toEqual([]);
  });

  it('leaves out pages beyond OCR_MAX_PAGES and past the document budget, keeping their text layer, and says so', async () => {
    const limited = fakeOcr(SCANNED_PAGE, { maxPages: 1 });
    const result = await pdfToMarkdown(fixture('scanned'), { mode: 'ocr', ocr: limited.run(), blocks: true });
    expect(limited.calls.rendered).toEqual([1]);
    expect(result.blocks!.map((p) => p.status)).toEqual(['ok', 'ocr-skipped']);
    expect(result.warnings).toEqual(['OCR reads at most 1 pages of a document (OCR_MAX_PAGES); not read by OCR: page 2.']);

    const late = fakeOcr(SCANNED_PAGE);
    const outOfTime = await pdfToMarkdown(fixture('scanned'), { mode: 'ocr', ocr: late.run(0), blocks: true, pages: true });
    expect(late.calls.rendered).toEqual([]);
    expect(outOfTime.pages).toEqual([
      { pageNumber: 1, markdown: '# Site Visit\n\nA scan of the notes follows.' },
      { pageNumber: 2, markdown: '' },
    ]);
    expect(outOfTime.warnings).toEqual(['OCR ran out of time (0 ms for the document); not read by OCR: pages 1-2.']);
  });

  it('a page whose OCR fails keeps its text layer; the warning says why', async () => {
    const result = await pdfToMarkdown(fixture('scanned'), { mode: 'ocr', ocr: fakeOcr(new Error('tesseract exited with status 1')).run(), blocks: true });
    expect(result.markdown).toBe('# Site Visit\n\nA scan of the notes follows.');
    expect(result.blocks!.map((p) => p.status)).toEqual(['ocr-failed', 'ocr-failed']);
    expect(result.warnings).toEqual(['OCR failed (tesseract exited with status 1): pages 1-2.']);
  });

  it('without an OCR engine: auto keeps the text layer with a warning, ocr fails the document', async () => {
    const missing = new OcrUnavailableError('OCR is not available on this server: tesseract was not found');
    const auto = await pdfToMarkdown(fixture('scanned'), { ocr: fakeOcr(missing).run(), blocks: true });
    expect(auto.markdown).toBe('# Site Visit\n\nA scan of the notes follows.');
    expect(auto.blocks![1].status).toBe('ocr-skipped');
    expect(auto.warnings).toEqual(['No text layer, and not read (OCR is not available on this server: tesseract was not found): page 2.']);
    await expect(pdfToMarkdown(fixture('scanned'), { mode: 'ocr', ocr: fakeOcr(missing).run() })).rejects.toThrow(missing.message);
  });
});
