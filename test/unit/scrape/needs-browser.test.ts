import { describe, expect, it } from 'vitest';
import { decodeHtml, loadOverHttp, type FetchPage } from '../../../src/page/http-load.ts';
import { parseHtmlDocument } from '../../../src/page/parse-html.ts';
import { answerNeedsBrowser, MIN_STATIC_TEXT, pageNeedsBrowser, requestNeedsBrowser } from '../../../src/page/rendering/needs-browser.ts';
import { scrapeOptionsSchema } from '../../../src/page/scrape-options.ts';

const TEXT = 'A static article with enough words to read. '.repeat(8);
const page = (body: string, head = '') =>
  pageNeedsBrowser(parseHtmlDocument(`<!doctype html><html><head><title>T</title>${head}</head><body>${body}</body></html>`));

describe('pageNeedsBrowser', () => {
  it('lets a static page through, with or without scripts that only load', () => {
    expect(page(`<main><p>${TEXT}</p></main>`)).toBeUndefined();
    expect(
      page(`<main><p>${TEXT}</p></main><script src="/analytics.js"></script><script type="application/ld+json">{"a": "innerHTML = 1"}</script>`),
    ).toBeUndefined();
    expect(page(`<main><p>${TEXT}</p></main><script>window.dataLayer = window.dataLayer || [];</script>`)).toBeUndefined();
  });

  it('sends an app shell to the browser', () => {
    expect(page('<div id="root"></div><script src="/bundle.js"></script>')).toBe('little text besides scripts');
    expect(page(`<div id="app">Loading…</div><script type="module" src="/main.js"></script>`)).toBe('little text besides scripts');
    // Short pages without scripts are just short.
    expect(page('<p>Short.</p>')).toBeUndefined();
    expect(TEXT.length).toBeGreaterThan(MIN_STATIC_TEXT);
  });

  it('sends a page whose inline script writes into it to the browser', () => {
    expect(page(`<main><p>${TEXT}</p></main><script>document.querySelector('main').append(document.createElement('p'))</script>`)).toBe(
      'a script that writes into the page',
    );
    expect(page(`<main><p>${TEXT}</p><div id="c"></div></main><script>document.getElementById('c').innerHTML = '<b>x</b>'</script>`)).toBe(
      'a script that writes into the page',
    );
    expect(page(`<main><p>${TEXT}</p></main><script>document.write('<p>late</p>')</script>`)).toBe('a script that writes into the page');
  });

  it('sends client-side redirects and JavaScript walls to the browser', () => {
    expect(page(`<p>${TEXT}</p>`, '<meta http-equiv="Refresh" content="0; url=/next">')).toBe('a meta refresh');
    expect(page(`<p>${TEXT}</p><script>window.location.href = '/next'</script>`)).toBe('a script that navigates');
    expect(page(`<p>${TEXT}</p><script>location.replace('/next')</script>`)).toBe('a script that navigates');
    expect(page(`<p>${TEXT}</p><script>if (location.href == 'x') {}</script>`)).toBeUndefined();
    expect(page(`<p>${TEXT}</p><noscript>Please enable JavaScript to view this site.</noscript>`)).toBe('a <noscript> asking for JavaScript');
    expect(page(`<p>${TEXT}</p><noscript><img src="/pixel.gif"></noscript>`)).toBeUndefined();
  });

  it('reads a bounded amount of inline script on a hostile page', () => {
    const huge = `<script>${'var a = 1;'.repeat(100_000)}</script>`.repeat(5);
    const started = performance.now();
    expect(page(`<p>${TEXT}</p>${huge}<script>document.write('x')</script>`)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('requestNeedsBrowser and answerNeedsBrowser', () => {
  const so = (extra: object) => scrapeOptionsSchema.parse(extra);

  it('names what only a browser does', () => {
    expect(requestNeedsBrowser(so({}))).toBeUndefined();
    expect(requestNeedsBrowser(so({ formats: ['markdown', 'links', 'html', 'rawHtml', 'summary'], headers: { 'x-a': '1' } }))).toBeUndefined();
    expect(requestNeedsBrowser(so({ actions: [{ type: 'click', selector: 'a' }] }))).toBe('actions');
    expect(requestNeedsBrowser(so({ formats: ['screenshot'] }))).toBe('a screenshot');
    expect(requestNeedsBrowser(so({ formats: ['markdown', 'branding'] }))).toBe('the branding format');
    expect(requestNeedsBrowser(so({ formats: ['images', { type: 'attributes', selectors: [{ selector: 'a', attribute: 'href' }] }] }))).toBeUndefined();
    expect(requestNeedsBrowser(so({ waitFor: 100 }))).toBe('waitFor');
    expect(requestNeedsBrowser(so({ mobile: true }))).toBe('mobile emulation');
    expect(requestNeedsBrowser(so({ location: { country: 'DE' } }))).toBe('a location');
  });

  it('sends non-HTML answers and bot-filter statuses to the browser, keeps other errors', () => {
    expect(answerNeedsBrowser(200, 'text/html; charset=utf-8')).toBeUndefined();
    expect(answerNeedsBrowser(200, undefined)).toBeUndefined();
    expect(answerNeedsBrowser(404, 'text/html')).toBeUndefined();
    expect(answerNeedsBrowser(500, 'text/html')).toBeUndefined();
    expect(answerNeedsBrowser(403, 'text/html')).toBe('HTTP 403');
    expect(answerNeedsBrowser(503, 'text/html')).toBe('HTTP 503');
    expect(answerNeedsBrowser(200, 'application/json')).toBe('content type application/json');
    expect(answerNeedsBrowser(200, 'application/pdf')).toBe('content type application/pdf');
    expect(answerNeedsBrowser(200, '')).toBeUndefined();
    expect(answerNeedsBrowser(200, 'Application/XHTML+XML')).toBeUndefined();
  });
});

describe('loadOverHttp', () => {
  const answer =
    (status: number, contentType: string | undefined, body: string): FetchPage =>
    async () => ({
      status,
      finalUrl: 'https://example.com/p',
      redirects: [],
      headers: contentType === undefined ? {} : ({ 'content-type': contentType } as Record<string, string>),
      body: Buffer.from(body),
    });
  const shell = '<!doctype html><html><body><div id="root"></div><script>document.getElementById("root").innerHTML = "x"</script></body></html>';

  it('auto: sends a refused fetch and a bot-filter status to the browser; the HTML itself is judged where it is converted', async () => {
    expect(await loadOverHttp('https://example.com/p', answer(429, 'text/html', '<p>slow down</p>'), { timeoutMs: 1000 })).toEqual({ browser: 'HTTP 429' });
    const refused = async () => Promise.reject(new Error('refused'));
    expect(await loadOverHttp('https://example.com/p', refused, { timeoutMs: 1000 })).toEqual({ browser: 'the HTTP fetch failed (refused)' });
    expect(await loadOverHttp('https://example.com/p', answer(200, 'text/html', shell), { timeoutMs: 1000 })).toMatchObject({
      load: { statusCode: 200, rawHtml: shell },
    });
  });

  it('http: takes every HTML answer as it is, loads other types as files and lets a failed fetch fail', async () => {
    const shellLoad = await loadOverHttp('https://example.com/p', answer(200, 'text/html', shell), { timeoutMs: 1000 }, 'http');
    expect(shellLoad).toMatchObject({ load: { statusCode: 200, rawHtml: shell, finalUrl: 'https://example.com/p' } });
    expect(await loadOverHttp('https://example.com/p', answer(429, undefined, '<p>slow down</p>'), { timeoutMs: 1000 }, 'http')).toMatchObject({
      load: { statusCode: 429 },
    });
    expect(await loadOverHttp('https://example.com/p', answer(200, 'application/pdf', '%PDF-1.4'), { timeoutMs: 1000 }, 'http')).toEqual({
      file: 'content type application/pdf',
    });
    await expect(loadOverHttp('https://example.com/p', async () => Promise.reject(new Error('refused')), { timeoutMs: 1000 }, 'http')).rejects.toThrow(
      'refused',
    );
  });
});

describe('decodeHtml', () => {
  it('decodes by the header, then the <meta>, then UTF-8', () => {
    const latin1 = Buffer.from('<p>caf\xe9</p>', 'latin1');
    expect(decodeHtml(latin1, 'text/html; charset=ISO-8859-1')).toBe('<p>café</p>');
    expect(decodeHtml(Buffer.concat([Buffer.from('<meta charset="windows-1252">'), latin1]), 'text/html')).toContain('café');
    expect(decodeHtml(Buffer.from('<p>café €</p>'), 'text/html')).toBe('<p>café €</p>');
    expect(decodeHtml(Buffer.from('<p>café</p>'), 'text/html; charset=no-such-charset')).toBe('<p>café</p>');
  });
});
