import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pdfToMarkdown } from '../../../src/page/pdf-to-markdown.ts';

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
