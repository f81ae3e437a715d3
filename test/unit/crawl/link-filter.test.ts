import { describe, expect, it } from 'vitest';
import { crawlScope, createLinkFilter, pathDepth, type LinkFilterOptions } from '../../../src/jobs/frontier/link-filter.ts';

const defaults: LinkFilterOptions = {
  includePaths: [],
  excludePaths: [],
  regexOnFullURL: false,
  crawlEntireDomain: false,
  allowExternalLinks: false,
  allowSubdomains: false,
};
const allowed = (start: string, link: string, opts: Partial<LinkFilterOptions> = {}) => createLinkFilter(start, { ...defaults, ...opts }).check(link).allowed;

describe('crawlScope', () => {
  it('follows the public API: folder, document parent, or path plus children', () => {
    expect(crawlScope('/docs/')).toEqual({ prefix: '/docs/' });
    expect(crawlScope('/docs/index.html')).toEqual({ prefix: '/docs/' });
    expect(crawlScope('/blog')).toEqual({ exact: '/blog', prefix: '/blog/' });
    expect(crawlScope('/')).toEqual({ prefix: '/' });
  });
});

describe('createLinkFilter', () => {
  it('with maxPathDepth (v1 maxDepth), refuses URLs more path segments below the start URL’s than it allows, index pages not counted', () => {
    expect(pathDepth('http://a.test/a/b/index.html')).toBe(2);
    expect(pathDepth('http://a.test/')).toBe(0);
    const opts = { maxPathDepth: 1, crawlEntireDomain: true, allowExternalLinks: true };
    expect(allowed('http://a.test/docs/', 'http://a.test/docs/intro', opts)).toBe(true);
    expect(allowed('http://a.test/docs/', 'http://a.test/docs/intro/', opts)).toBe(true);
    expect(allowed('http://a.test/docs/', 'http://a.test/docs/intro/more', opts)).toBe(false);
    expect(allowed('http://a.test/docs/', 'http://a.test/docs/intro/index.php', opts)).toBe(true);
    expect(allowed('http://a.test/docs/', 'http://other.test/x/y/z', opts)).toBe(false);
    expect(createLinkFilter('http://a.test/', { ...defaults, maxPathDepth: 0 }).check('http://a.test/p/1')).toEqual({
      allowed: false,
      reason: 'its path is 2 segments deep, more than maxDepth allows (0)',
    });
    expect(allowed('http://a.test/', 'http://a.test/p/1/2/3/4/5/6/7/8/9/10/11')).toBe(true);
  });

  it('stays below the start path unless crawlEntireDomain', () => {
    expect(allowed('http://a.test/blog', 'http://a.test/blog/post')).toBe(true);
    expect(allowed('http://a.test/blog', 'http://a.test/blog')).toBe(true);
    expect(allowed('http://a.test/blog', 'http://a.test/blogging')).toBe(false);
    expect(allowed('http://a.test/blog', 'http://a.test/about')).toBe(false);
    expect(allowed('http://a.test/blog', 'http://a.test/about', { crawlEntireDomain: true })).toBe(true);
  });

  it('treats www and scheme variants as the same site, other hosts as external', () => {
    expect(allowed('http://a.test/', 'https://www.a.test/x')).toBe(true);
    expect(allowed('http://a.test/', 'http://b.test/x')).toBe(false);
    expect(allowed('http://a.test/', 'http://b.test/x', { allowExternalLinks: true })).toBe(true);
    expect(allowed('http://a.test/', 'http://a.test:8080/x')).toBe(false);
  });

  it('follows subdomains only with allowSubdomains', () => {
    expect(allowed('http://a.test/', 'http://docs.a.test/x')).toBe(false);
    expect(allowed('http://a.test/', 'http://docs.a.test/x', { allowSubdomains: true })).toBe(true);
    expect(allowed('http://a.test/', 'http://nota.test/x', { allowSubdomains: true })).toBe(false);
  });

  it('applies excludePaths then includePaths to the pathname, or the full URL with regexOnFullURL', () => {
    expect(allowed('http://a.test/', 'http://a.test/private/x', { excludePaths: ['^/private'] })).toBe(false);
    expect(allowed('http://a.test/', 'http://a.test/blog/x', { includePaths: ['^/blog'] })).toBe(true);
    expect(allowed('http://a.test/', 'http://a.test/shop/x', { includePaths: ['^/blog'] })).toBe(false);
    expect(allowed('http://a.test/', 'http://a.test/x?lang=de', { excludePaths: ['lang=de'] })).toBe(true);
    expect(allowed('http://a.test/', 'http://a.test/x?lang=de', { excludePaths: ['lang=de'], regexOnFullURL: true })).toBe(false);
    expect(allowed('http://a.test/', 'http://a.test/x', { includePaths: ['', '  '] })).toBe(true);
  });

  it('skips non-web schemes and asset files, explaining why', () => {
    const filter = createLinkFilter('http://a.test/', defaults);
    expect(filter.check('mailto:x@a.test')).toEqual({ allowed: false, reason: 'unsupported scheme mailto:' });
    expect(filter.check('http://a.test/logo.PNG')).toEqual({ allowed: false, reason: 'file type .png is not crawled' });
    expect(filter.check('http://a.test/report.pdf').allowed).toBe(true);
    expect(filter.check('not a url')).toEqual({ allowed: false, reason: 'not a valid URL' });
  });

  it('checks the start URL against include/exclude but not against scope', () => {
    const filter = createLinkFilter('http://a.test/blog', { ...defaults, includePaths: ['^/docs'] });
    expect(filter.checkStart('http://a.test/blog').allowed).toBe(false);
    expect(createLinkFilter('http://a.test/blog', defaults).checkStart('http://a.test/blog').allowed).toBe(true);
  });

  it('decides on a catastrophic-backtracking includePaths pattern in linear time', () => {
    const filter = createLinkFilter('http://a.test/', { ...defaults, includePaths: ['^/(a+)+$'], excludePaths: ['^/(a|aa)+x$'] });
    const started = performance.now();
    expect(filter.check(`http://a.test/${'a'.repeat(40)}!`)).toEqual({ allowed: false, reason: 'matches no includePaths pattern' });
    expect(filter.check(`http://a.test/${'a'.repeat(40)}`).allowed).toBe(true);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('names the excludePaths pattern that matched', () => {
    const filter = createLinkFilter('http://a.test/', { ...defaults, excludePaths: ['^/tmp', '\\.bak$'] });
    expect(filter.check('http://a.test/x/file.bak')).toEqual({ allowed: false, reason: 'matches excludePaths pattern \\.bak$' });
  });
});
