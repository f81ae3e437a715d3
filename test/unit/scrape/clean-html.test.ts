import { describe, expect, it } from 'vitest';
import { assertValidSelectors, cleanPage, InvalidSelectorError, type CleanHtmlOptions } from '../../../src/page/clean-html.ts';
import { parseHtmlDocument } from '../../../src/page/parse-html.ts';

const cleanHtml = (page: string | Document, opts: CleanHtmlOptions) => cleanPage(page, opts).outerHTML;

const BASE_URL = 'https://example.com/blog/post';

function clean(html: string, opts: Partial<CleanHtmlOptions> = {}): Document {
  const cleaned = cleanHtml(html, { baseUrl: BASE_URL, onlyMainContent: false, removeBase64Images: false, ...opts });
  return parseHtmlDocument(cleaned);
}

const PAGE = `<!DOCTYPE html><html lang="en"><head><title>T</title><style>p{}</style><link rel="stylesheet" href="s.css"></head>
<body>
  <header><h1 id="site">Site</h1></header>
  <nav class="menu"><a href="/">Home</a></nav>
  <div class="layout">
    <main><article><h2 id="headline">Headline</h2><p id="body">Body text</p><div class="share">Share me</div></article></main>
    <aside id="aside">Related</aside>
  </div>
  <div class="ad">Buy</div>
  <footer>Copyright</footer>
  <script>track()</script><noscript>enable js</noscript><template><p>t</p></template><iframe src="/frame"></iframe>
</body></html>`;

describe('cleanHtml', () => {
  it('always removes scripts, styles, head and other non-content elements', () => {
    const cleaned = cleanHtml(PAGE, { baseUrl: BASE_URL, onlyMainContent: false, removeBase64Images: false });
    for (const tag of ['script', 'style', 'noscript', 'head', 'link', 'template', 'iframe', 'title']) {
      expect(cleaned).not.toMatch(new RegExp(`<${tag}[\\s>]`));
    }
    expect(cleaned).not.toContain('track()');
    expect(cleaned).toContain('Headline');
    expect(cleaned).toMatch(/^<html lang="en">/);
  });

  it('keeps page chrome when onlyMainContent is false', () => {
    const document = clean(PAGE);
    expect(document.querySelector('nav')).not.toBeNull();
    expect(document.querySelector('footer')?.textContent).toBe('Copyright');
  });

  it('strips chrome but keeps main content when onlyMainContent is true', () => {
    const document = clean(PAGE, { onlyMainContent: true });
    for (const selector of ['header', 'nav', 'footer', 'aside', '.ad', '.share']) {
      expect(document.querySelector(selector), selector).toBeNull();
    }
    expect(document.getElementById('headline')?.textContent).toBe('Headline');
    expect(document.getElementById('body')?.textContent).toBe('Body text');
  });

  it('keeps a chrome element that contains or is the main content', () => {
    const html = `<body><div class="side"><div role="main"><p id="kept">Kept</p></div></div>
      <div class="sidebar" id="main"><p id="also">Also kept</p></div><div class="side"><p id="gone">Gone</p></div></body>`;
    const document = clean(html, { onlyMainContent: true });
    expect(document.getElementById('kept')).not.toBeNull();
    expect(document.getElementById('also')).not.toBeNull();
    expect(document.getElementById('gone')).toBeNull();
  });

  it('never removes <body> even when it carries a chrome class', () => {
    const document = clean('<body class="top"><p id="content">Content</p></body>', { onlyMainContent: true });
    expect(document.getElementById('content')?.textContent).toBe('Content');
  });

  it('keeps only the elements matching includeTags, in document order, without nesting duplicates', () => {
    const html = `<body><p id="intro">Intro</p><div class="keep"><p class="x">inner</p></div>
      <section><span class="x" id="late">late</span></section><p id="other">Other</p></body>`;
    const cleaned = cleanHtml(html, { baseUrl: BASE_URL, onlyMainContent: false, removeBase64Images: false, includeTags: ['.x', '.keep'] });
    expect(cleaned).toBe('<html><body><div class="keep"><p class="x">inner</p></div><span class="x" id="late">late</span></body></html>');
  });

  it('applies onlyMainContent and the always-removed list to included elements', () => {
    const html = '<body><article><nav>Nav</nav><p>Story</p><script>x()</script></article><p>Outside</p></body>';
    const document = clean(html, { includeTags: ['article'], onlyMainContent: true });
    expect(document.body.textContent).toBe('Story');
  });

  it('removes elements matching excludeTags', () => {
    const document = clean('<body><p class="promo">Promo</p><p id="stay">Stay</p><div id="x"><b>bold</b></div></body>', {
      excludeTags: ['.promo', '#x b'],
    });
    expect(document.querySelector('.promo')).toBeNull();
    expect(document.querySelector('b')).toBeNull();
    expect(document.getElementById('stay')?.textContent).toBe('Stay');
  });

  it('rejects an invalid selector with an error naming it', () => {
    const options = { baseUrl: BASE_URL, onlyMainContent: false, removeBase64Images: false };
    expect(() => cleanHtml('<p>x</p>', { ...options, includeTags: ['p', 'div[[oops'] })).toThrow(InvalidSelectorError);
    expect(() => cleanHtml('<p>x</p>', { ...options, excludeTags: ['a:unknown-pseudo'] })).toThrow(/a:unknown-pseudo/);
    expect(() => assertValidSelectors(['  '])).toThrow(InvalidSelectorError);
    expect(() => assertValidSelectors(['main > p.lead', '#id', '[role=main]', 'div:not(.x)'])).not.toThrow();
    try {
      assertValidSelectors(['ok', 'p:not(']);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidSelectorError);
      expect((error as InvalidSelectorError).selector).toBe('p:not(');
    }
  });

  it('makes link and image URLs absolute, leaving unparseable ones as they are', () => {
    const document = clean(`<body><a id="rel" href="../about">a</a><a id="bad" href="http://[bad">b</a>
      <a id="mail" href="mailto:x@example.com">m</a><img id="img" src="/img/a.png"></body>`);
    expect(document.getElementById('rel')?.getAttribute('href')).toBe('https://example.com/about');
    expect(document.getElementById('bad')?.getAttribute('href')).toBe('http://[bad');
    expect(document.getElementById('mail')?.getAttribute('href')).toBe('mailto:x@example.com');
    expect(document.getElementById('img')?.getAttribute('src')).toBe('https://example.com/img/a.png');
  });

  it('uses the largest srcset candidate as src', () => {
    const document = clean(`<body>
      <img id="w" src="fallback.png" srcset="small.png 320w, large.png 1280w, medium.png 640w">
      <img id="x" src="one.png" srcset="two.png 2x, half.png 0.5x">
      <img id="low" src="one.png" srcset="half.png 0.5x">
    </body>`);
    expect(document.getElementById('w')?.getAttribute('src')).toBe('https://example.com/blog/large.png');
    expect(document.getElementById('x')?.getAttribute('src')).toBe('https://example.com/blog/two.png');
    expect(document.getElementById('low')?.getAttribute('src')).toBe('https://example.com/blog/one.png');
  });

  it('replaces base64 images only when asked', () => {
    const html = '<body><img id="b64" src="data:image/png;base64,iVBORw0KGgo=" srcset="data:image/png;base64,AAA= 2x"><img id="url" src="/a.png"></body>';
    const removed = clean(html, { removeBase64Images: true });
    expect(removed.getElementById('b64')?.getAttribute('src')).toBe('<Base64-Image-Removed>');
    expect(removed.getElementById('b64')?.hasAttribute('srcset')).toBe(false);
    expect(removed.getElementById('url')?.getAttribute('src')).toBe('https://example.com/a.png');

    const kept = clean('<body><img id="b64" src="data:image/png;base64,iVBORw0KGgo="></body>');
    expect(kept.getElementById('b64')?.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
  });

  it('copes with fragments and empty input', () => {
    expect(cleanHtml('', { baseUrl: BASE_URL, onlyMainContent: true, removeBase64Images: false })).toBe('<html><body></body></html>');
    expect(cleanHtml('plain <b>text</b>', { baseUrl: BASE_URL, onlyMainContent: true, removeBase64Images: false })).toBe(
      '<html><body>plain <b>text</b></body></html>',
    );
  });
});
