import { describe, expect, it } from 'vitest';
import { documentFromLoad } from '../../../src/page/page-document.ts';
import { extractiveSummary } from '../../../src/page/summary/extractive-summary.ts';
import { scrapeOptionsSchema } from '../../../src/page/scrape-options.ts';
import { converted } from '../../support/conversions.ts';

const PROSE = 'Durable crawls survive the crash of every worker that runs them. Each page is stored exactly once, whatever restarts.';

describe('documentFromLoad and the summary format', () => {
  it('summarizes an HTML page from its markdown, present or not', async () => {
    const load = { finalUrl: 'https://a.test/', statusCode: 200, rawHtml: `<html><body><main><h1>Crawls</h1><p>${PROSE}</p></main></body></html>` };
    const only = converted(await documentFromLoad(load, scrapeOptionsSchema.parse({ formats: ['summary'] }), { sourceURL: load.finalUrl }));
    expect(only.built.document.summary).toBe(PROSE);
    expect(only.built.document).not.toHaveProperty('markdown');
    const both = converted(await documentFromLoad(load, scrapeOptionsSchema.parse({ formats: ['markdown', 'summary'] }), { sourceURL: load.finalUrl }));
    expect(both.built.document.markdown).toContain('# Crawls');
    expect(both.built.document.summary).toBe(PROSE);
  });

  it('summarizes a PDF from its text', async () => {
    const pdf = { markdown: `# Report\n\n${PROSE}`, html: '', numPages: 1, metadata: {} };
    const load = { finalUrl: 'https://a.test/r.pdf', statusCode: 200, contentType: 'application/pdf', pdf };
    const built = converted(await documentFromLoad(load, scrapeOptionsSchema.parse({ formats: ['summary'] }), { sourceURL: load.finalUrl }));
    expect(built.built.document.summary).toBe(extractiveSummary(pdf.markdown));
    expect(built.built.document.summary).toContain('stored exactly once');
  });

  it('adds no summary unless asked', async () => {
    const load = { finalUrl: 'https://a.test/', statusCode: 200, rawHtml: `<p>${PROSE}</p>` };
    const built = converted(await documentFromLoad(load, scrapeOptionsSchema.parse({ formats: ['markdown'] }), { sourceURL: load.finalUrl }));
    expect(built.built.document).not.toHaveProperty('summary');
    expect(built.built.markdown).toBeUndefined();
  });
});
