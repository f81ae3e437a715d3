import { describe, expect, it } from 'vitest';
import { canonicalUrl, urlKey } from '../../../src/jobs/frontier/normalize-url.ts';

const keep = { ignoreQueryParameters: false };
const drop = { ignoreQueryParameters: true };

describe('canonicalUrl', () => {
  it('lower-cases scheme and host, drops default ports and fragments', () => {
    expect(canonicalUrl('HTTP://Example.COM:80/A/b?x=1#frag', keep)).toBe('http://example.com/A/b?x=1');
    expect(canonicalUrl('https://example.com:443/', keep)).toBe('https://example.com/');
    expect(canonicalUrl('https://example.com:8443/', keep)).toBe('https://example.com:8443/');
  });

  it('drops the query only with ignoreQueryParameters', () => {
    expect(canonicalUrl('http://a.test/p?q=1', drop)).toBe('http://a.test/p');
  });
});

describe('urlKey', () => {
  it('treats scheme, www, trailing slash and index files as the same page', () => {
    const variants = ['http://a.test/docs', 'https://a.test/docs/', 'https://www.a.test/docs/index.html', 'http://A.test/docs/index.php#x'];
    expect(new Set(variants.map((v) => urlKey(v, keep))).size).toBe(1);
    expect(urlKey('http://a.test', keep)).toBe('a.test/');
    expect(urlKey('http://a.test/index.html', keep)).toBe('a.test/');
  });

  it('keeps different paths, ports and queries apart', () => {
    expect(urlKey('http://a.test/x', keep)).not.toBe(urlKey('http://a.test/y', keep));
    expect(urlKey('http://a.test:8080/x', keep)).not.toBe(urlKey('http://a.test/x', keep));
    expect(urlKey('http://a.test/x?page=2', keep)).not.toBe(urlKey('http://a.test/x?page=3', keep));
  });

  it('orders query parameters, and ignores them on request', () => {
    expect(urlKey('http://a.test/x?b=2&a=1', keep)).toBe(urlKey('http://a.test/x?a=1&b=2', keep));
    expect(urlKey('http://a.test/x?page=2', drop)).toBe(urlKey('http://a.test/x', drop));
  });
});
