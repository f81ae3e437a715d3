// The conversion pool with real threads: the same document as the inline
// conversion, errors passed back, and a page that takes too long fails alone
// while its thread is replaced.
import { afterEach, describe, expect, it } from 'vitest';
import { createConversionPool, type ConversionPool } from '../../../src/page/conversion/conversion-pool.ts';
import { convertHtml, type HtmlConversionInput } from '../../../src/page/conversion/html-conversion.ts';
import { scrapeOptionsSchema } from '../../../src/page/scrape-options.ts';
import { converted } from '../../support/conversions.ts';

const PAGE = `<!doctype html><html lang="en"><head><title>Pool page</title><meta name="description" content="About pools"></head>
<body><nav><a href="/">Home</a></nav><main><h1>Threads</h1><p>Conversion runs <b>beside</b> the event loop.</p><img src="/logo.png" alt="Logo">
<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table><a href="/next">next</a></main></body></html>`;

const input = (rawHtml: string, formats: string[] = ['markdown', 'html', 'links'], extra: Record<string, unknown> = {}): HtmlConversionInput => ({
  load: { finalUrl: 'https://pool.test/page', statusCode: 200, contentType: 'text/html', rawHtml, imageSizes: { 'https://pool.test/logo.png': [64, 32] } },
  so: scrapeOptionsSchema.parse({ formats, ...extra }),
  sourceURL: 'https://pool.test/page',
  indexAs: 'pool.test/page',
});

/** Nested `n` deep: seconds of CPU for a few thousand levels. */
const deep = (n: number) => `<html><body>${'<div><p>word word word <a href="/x">x</a></p>'.repeat(n)}${'</div>'.repeat(n)}</body></html>`;

let pool: ConversionPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

// Each case starts worker threads through the TypeScript loader: seconds on a loaded machine, past the unit default of 5 s.
describe('the conversion pool', { timeout: 60_000 }, () => {
  it('gives what the inline conversion gives: document, links and index entry', async () => {
    pool = createConversionPool({ threads: 2, timeoutMs: 30_000 });
    const results = await Promise.all([1, 2, 3].map(() => pool!.convert(input(PAGE))));
    const inline = converted(convertHtml(input(PAGE)));
    for (const r of results) expect(r).toEqual(inline);
    expect(inline.built.document.markdown).toContain('# Threads');
    expect(inline.entry?.images).toEqual([expect.objectContaining({ src: 'https://pool.test/logo.png', width: 64, height: 32 })]);
  });

  it('parses a page fetched over HTTP once: a script-rendered one comes back unconverted, a static one lists its unsized images', async () => {
    pool = createConversionPool({ threads: 1, timeoutMs: 30_000 });
    const shell = '<!doctype html><html><body><div id="root"></div><script>document.getElementById("root").innerHTML = "x"</script></body></html>';
    const overHttp = (rawHtml: string) => ({ ...input(rawHtml), load: { ...input(rawHtml).load, imageSizes: undefined }, checkScripted: true, listImages: 20 });
    expect(await pool.convert(overHttp(shell))).toEqual({ needsBrowser: 'little text besides scripts' });
    const page = converted(await pool.convert(overHttp(PAGE)));
    expect(page.built.document.markdown).toContain('# Threads');
    expect(page.unsized).toEqual(['https://pool.test/logo.png']);
    // Not indexed: nothing to size. Not asked to check: converted as it is.
    expect(converted(await pool.convert({ ...overHttp(PAGE), indexAs: undefined })).unsized).toBeUndefined();
    expect(converted(await pool.convert({ ...overHttp(shell), checkScripted: false })).built.document.metadata.statusCode).toBe(200);
  });

  it("passes a conversion's error back, and keeps converting", async () => {
    pool = createConversionPool({ threads: 1, timeoutMs: 30_000 });
    await expect(pool.convert(input(PAGE, ['markdown'], { includeTags: ['div[[oops'] }))).rejects.toThrow(/Invalid CSS selector/);
    expect(converted(await pool.convert(input(PAGE))).built.document.markdown).toContain('# Threads');
  });

  it('fails a page that takes longer than the timeout, replaces its thread, and converts the next', async () => {
    // The timeout counts from when a ready thread takes the page: start-up is not the page's.
    pool = createConversionPool({ threads: 1, timeoutMs: 1_000 });
    expect(converted(await pool.convert(input(PAGE))).built.document.markdown).toContain('# Threads');
    await expect(pool.convert(input(deep(6_000)))).rejects.toThrow('converting the page took longer than 1000 ms (CRAWL_CONVERSION_TIMEOUT_MS)');
    expect(converted(await pool.convert(input(PAGE))).built.document.markdown).toContain('# Threads');
  }, 60_000);

  it('rejects what is pending when closed', async () => {
    pool = createConversionPool({ threads: 1, timeoutMs: 30_000 });
    const pending = pool.convert(input(deep(2_000))).catch((err: Error) => err);
    await pool.close();
    expect(await pending).toEqual(new Error('the conversion pool is closed'));
    await expect(pool.convert(input(PAGE))).rejects.toThrow('the conversion pool is closed');
  });
});
