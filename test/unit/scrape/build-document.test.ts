import { describe, expect, it } from 'vitest';
import { buildDocument, type BuildDocumentInput } from '../../../src/page/build-document.ts';
import { InvalidSelectorError } from '../../../src/page/clean-html.ts';
import type { ScrapeFormat } from '../../../src/page/formats/registry.ts';

const RAW_HTML = `<!DOCTYPE html><html lang="en"><head>
  <title>Guide</title>
  <base href="https://docs.example.com/v1/">
  <meta name="description" content="How to">
  <meta property="og:image" content="https://docs.example.com/og.png">
  <meta name="error" content="not a crawl error">
  <meta name="url" content="https://elsewhere.example.com/">
</head><body>
  <nav><a href="/">Home</a></nav>
  <main><h1>Guide</h1><p>Read <a href="intro#start">the intro</a> or <a href="mailto:help@example.com">ask</a>.</p></main>
  <footer><a href="/legal">Legal</a></footer>
</body></html>`;

/** Formats by name, as `{type}` objects (attributes with the given selectors). */
function input(
  overrides: Partial<Omit<BuildDocumentInput, 'formats'>> & { formats?: string[]; attributes?: { selector: string; attribute: string }[] },
): BuildDocumentInput {
  const { formats = ['markdown'], attributes = [], ...rest } = overrides;
  return {
    rawHtml: RAW_HTML,
    sourceURL: 'https://example.com/guide',
    url: 'https://example.com/guide/',
    statusCode: 200,
    onlyMainContent: true,
    removeBase64Images: true,
    ...rest,
    formats: formats.map((type) => (type === 'attributes' ? { type, selectors: attributes } : { type })) as ScrapeFormat[],
  };
}

const ALL_LINKS = ['https://docs.example.com/', 'https://docs.example.com/v1/intro', 'https://docs.example.com/legal'];

describe('buildDocument', () => {
  it('produces markdown of the main content and the metadata of the raw page', () => {
    const { document, discoveredLinks } = buildDocument(input({ contentType: 'text/html; charset=utf-8' }));
    expect(Object.keys(document).sort()).toEqual(['markdown', 'metadata']);
    expect(document.markdown).toBe('# Guide\n\nRead [the intro](https://docs.example.com/v1/intro#start) or [ask](mailto:help@example.com).');
    expect(document.metadata).toEqual({
      title: 'Guide',
      description: 'How to',
      language: 'en',
      ogLocaleAlternate: [],
      'og:image': 'https://docs.example.com/og.png',
      sourceURL: 'https://example.com/guide',
      url: 'https://example.com/guide/',
      statusCode: 200,
      contentType: 'text/html; charset=utf-8',
    });
    expect(discoveredLinks).toEqual(ALL_LINKS);
  });

  it('includes exactly the requested formats', () => {
    const { document } = buildDocument(input({ formats: ['html', 'rawHtml', 'links', 'screenshot'], onlyMainContent: false }));
    // The screenshot is the load's (formats/screenshot), added after the conversion.
    expect(Object.keys(document).sort()).toEqual(['html', 'links', 'metadata', 'rawHtml']);
    expect(document.rawHtml).toBe(RAW_HTML);
    expect(document.html).toContain('<footer><a href="https://docs.example.com/legal">Legal</a></footer>');
    expect(document.html).not.toContain('<title>');
    expect(document.links).toEqual(ALL_LINKS);
  });

  it('discovers links even when no format needs them', () => {
    const { document, discoveredLinks } = buildDocument(input({ formats: [] }));
    expect(document).toEqual({ metadata: expect.objectContaining({ statusCode: 200 }) });
    expect(discoveredLinks).toEqual(ALL_LINKS);
  });

  it('omits a requested screenshot (the load has it) and contentType that is unknown', () => {
    const { document } = buildDocument(input({ formats: ['screenshot'] }));
    expect(document).not.toHaveProperty('screenshot');
    expect(document.metadata).not.toHaveProperty('contentType');
  });

  it('applies includeTags and rejects invalid selectors whatever the formats', () => {
    const { document } = buildDocument(input({ formats: ['markdown'], includeTags: ['h1'] }));
    expect(document.markdown).toBe('# Guide');
    expect(() => buildDocument(input({ formats: ['links'], excludeTags: ['p:::bad'] }))).toThrow(InvalidSelectorError);
  });

  it('handles a page without any markup', () => {
    const { document, discoveredLinks } = buildDocument(input({ rawHtml: '', formats: ['markdown', 'html', 'links'] }));
    expect(document.markdown).toBe('');
    expect(document.html).toBe('<html><body></body></html>');
    expect(document.links).toEqual([]);
    expect(discoveredLinks).toEqual([]);
  });

  it('reads images and attributes from the whole page, before the cleaning that drops its chrome', () => {
    const { document } = buildDocument(
      input({
        formats: ['markdown', 'images', 'attributes'],
        attributes: [
          { selector: 'a', attribute: 'href' },
          { selector: 'meta[property]', attribute: 'content' },
        ],
      }),
    );
    expect(document.images).toEqual(['https://docs.example.com/og.png']);
    expect(document.attributes).toEqual([
      { selector: 'a', attribute: 'href', values: ['/', 'intro#start', 'mailto:help@example.com', '/legal'] },
      { selector: 'meta[property]', attribute: 'content', values: ['https://docs.example.com/og.png'] },
    ]);
    expect(document.markdown).not.toContain('Legal');
  });
});
