import { describe, expect, it } from 'vitest';
import { documentBaseUrl, extractLinks, resolveHref } from '../../../src/page/links.ts';
import { parseHtmlDocument } from '../../../src/page/parse-html.ts';

const linksOf = (html: string, pageUrl = 'https://example.com/dir/page.html') => extractLinks(parseHtmlDocument(html), pageUrl);

describe('resolveHref', () => {
  it('resolves relative references and rejects unparseable ones', () => {
    expect(resolveHref('../up?q=1', 'https://example.com/a/b/c')).toBe('https://example.com/a/up?q=1');
    expect(resolveHref('//cdn.example.org/x', 'https://example.com/')).toBe('https://cdn.example.org/x');
    expect(resolveHref('http://[invalid', 'https://example.com/')).toBeUndefined();
    expect(resolveHref('relative', 'not a url')).toBeUndefined();
  });
});

describe('extractLinks', () => {
  it('makes links absolute against the page URL', () => {
    expect(linksOf('<a href="other.html">o</a><a href="/root">r</a><a href="https://x.org/y">x</a>')).toEqual([
      'https://example.com/dir/other.html',
      'https://example.com/root',
      'https://x.org/y',
    ]);
  });

  it('resolves against <base href>, itself relative to the page', () => {
    const html = '<head><base href="/static/v2/"></head><body><a href="doc">d</a></body>';
    expect(linksOf(html)).toEqual(['https://example.com/static/v2/doc']);
    expect(documentBaseUrl(parseHtmlDocument(html), 'https://example.com/dir/page.html')).toBe('https://example.com/static/v2/');
  });

  it('drops fragments and dedupes in first-seen order', () => {
    expect(linksOf('<a href="b#one">1</a><a href="a">2</a><a href="b#two">3</a><a href="#top">4</a><a href="b">5</a>')).toEqual([
      'https://example.com/dir/b',
      'https://example.com/dir/a',
      'https://example.com/dir/page.html',
    ]);
  });

  it('keeps only http and https links', () => {
    const html = `<a href="mailto:a@example.com">m</a><a href="javascript:void(0)">j</a><a href="tel:+123">t</a>
      <a href="ftp://example.com/f">f</a><a href="data:text/html,hi">d</a><a href="http://plain.example.com/">h</a><a>no href</a>`;
    expect(linksOf(html)).toEqual(['http://plain.example.com/']);
  });
});
