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

describe('documentFromLoad and the branding format', () => {
  const so = scrapeOptionsSchema.parse({ formats: ['branding', 'images'] });
  const rawHtml = '<html><head><meta property="og:image" content="/og.png"></head><body><p>Hi</p></body></html>';
  const sample = {
    root: { htmlBackground: 'rgba(0, 0, 0, 0)', bodyBackground: 'rgb(0, 0, 0)', color: 'rgb(250, 250, 250)', fontFamily: 'Inter', fontSize: '16px' },
    elements: [],
    logos: [],
    icons: [],
    ogImage: 'https://a.test/og.png',
  };

  it('derives the profile from the sample the browser took', async () => {
    const load = { finalUrl: 'https://a.test/', statusCode: 200, rawHtml, branding: sample };
    const { document } = converted(await documentFromLoad(load, so, { sourceURL: load.finalUrl })).built;
    expect(document.branding).toMatchObject({ colorScheme: 'dark', colors: { background: '#000000', textPrimary: '#FAFAFA' }, logo: 'https://a.test/og.png' });
    expect(document.images).toEqual(['https://a.test/og.png']);
    expect(document).not.toHaveProperty('warning');
  });

  it('says why there is no branding: no sample, a failed read, a PDF', async () => {
    const bare = { finalUrl: 'https://a.test/', statusCode: 200, rawHtml };
    const none = converted(await documentFromLoad(bare, so, { sourceURL: bare.finalUrl })).built.document;
    expect(none).not.toHaveProperty('branding');
    expect(none.warning).toBe('No branding: the page was not rendered in a browser.');
    const failed = converted(await documentFromLoad({ ...bare, branding: { error: 'it broke' } }, so, { sourceURL: bare.finalUrl })).built.document;
    expect(failed.warning).toBe('No branding: it broke.');
    const pdf = { finalUrl: 'https://a.test/r.pdf', statusCode: 200, pdf: { markdown: 'x', html: '', numPages: 1, metadata: {} } };
    const fromPdf = converted(await documentFromLoad(pdf, so, { sourceURL: pdf.finalUrl })).built.document;
    expect(fromPdf).toMatchObject({ images: [], warning: 'No branding: the URL is a PDF, not a web page.' });
    expect(fromPdf).not.toHaveProperty('branding');
  });
});
