import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fakeFetch, type Served } from '../../support/fake-fetch.ts';
import { collectSitemapUrls, DEFAULT_SITEMAP_LIMITS, parseSitemap } from '../../../src/jobs/frontier/sitemap.ts';

const urlset = (...locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;
const index = (...locs: string[]) =>
  `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('')}</sitemapindex>`;
const ok = (body: string | Buffer) => ({ status: 200, body });
const parse = (body: string | Buffer, url = 'https://a.test/sitemap.xml') => parseSitemap(Buffer.from(body), url);

describe('parseSitemap', () => {
  it('reads page URLs of a urlset, ignoring extension locs and comments', () => {
    const xml = `<?xml version="1.0"?>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
        <!-- <url><loc>https://a.test/commented</loc></url> -->
        <url>
          <image:image><image:loc>https://a.test/pic.png</image:loc></image:image>
          <loc>
            https://a.test/one
          </loc>
          <lastmod>2024-01-01</lastmod>
        </url>
        <url><loc>https://a.test/two</loc></url>
      </urlset>`;
    expect(parse(xml)).toEqual({ urls: ['https://a.test/one', 'https://a.test/two'], sitemaps: [] });
  });

  it('decodes entities and CDATA', () => {
    const xml = urlset('https://a.test/p?a=1&amp;b=2', '<![CDATA[https://a.test/q?a=1&b=&amp;]]>', 'https://a.test/caf&#233;&#x2F;x');
    expect(parse(xml).urls).toEqual(['https://a.test/p?a=1&b=2', 'https://a.test/q?a=1&b=&amp;', 'https://a.test/caf%C3%A9/x']);
  });

  it('accepts namespace prefixes', () => {
    const xml = `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://a.test/p</sm:loc></sm:url></sm:urlset>`;
    expect(parse(xml).urls).toEqual(['https://a.test/p']);
  });

  it('reads nested sitemaps of a sitemapindex', () => {
    expect(parse(index('https://a.test/s1.xml', 'https://a.test/s2.xml.gz'))).toEqual({
      urls: [],
      sitemaps: ['https://a.test/s1.xml', 'https://a.test/s2.xml.gz'],
    });
  });

  it('resolves relative locs and keeps only http(s)', () => {
    const xml = urlset('/rel', 'ftp://a.test/file', 'javascript:alert(1)', 'http://[broken', 'http://b.test/x');
    expect(parse(xml, 'https://a.test/dir/sitemap.xml').urls).toEqual(['https://a.test/rel', 'http://b.test/x']);
  });

  it('inflates gzip by magic bytes whatever the name', () => {
    const gz = gzipSync(urlset('https://a.test/z'));
    expect(parseSitemap(gz, 'https://a.test/sitemap.xml').urls).toEqual(['https://a.test/z']);
    expect(parseSitemap(gz, 'https://a.test/sitemap.xml.gz').urls).toEqual(['https://a.test/z']);
    expect(parse(urlset('https://a.test/plain'), 'https://a.test/sitemap.xml.gz').urls).toEqual(['https://a.test/plain']);
    expect(() => parseSitemap(Buffer.from([0x1f, 0x8b, 1, 2, 3]), 'https://a.test/s.xml.gz')).toThrow();
  });

  it('reads text sitemaps, one absolute URL per line', () => {
    const text = '\uFEFFhttps://a.test/one\r\n\r\n  https://a.test/two  \nnot a url\n/relative\nmailto:x@a.test\n';
    expect(parse(text, 'https://a.test/sitemap.txt')).toEqual({ urls: ['https://a.test/one', 'https://a.test/two'], sitemaps: [] });
  });

  it('reads text sitemaps with CR line ends', () => {
    expect(parse('https://a.test/one\rhttps://a.test/two\r', 'https://a.test/sitemap.txt').urls).toEqual(['https://a.test/one', 'https://a.test/two']);
  });

  it('counts an entry only once it is closed, and ignores entries nested in an open one', () => {
    const xml = '<urlset><url><loc>https://a.test/a</loc><url><loc>https://a.test/b</loc></url><url><loc>https://a.test/c</loc></urlset>';
    expect(parse(xml).urls).toEqual(['https://a.test/a']);
  });

  it('stops at a comment, CDATA or tag left open', () => {
    const entry = (p: string) => `<url><loc>https://a.test/${p}</loc></url>`;
    expect(parse(`<urlset>${entry('a')}<!-- ${entry('b')}`).urls).toEqual(['https://a.test/a']);
    expect(parse(`<urlset>${entry('a')}<url><loc><![CDATA[https://a.test/b</loc></url>`).urls).toEqual(['https://a.test/a']);
    expect(parse(`<urlset>${entry('a')}<url <loc>https://a.test/b</loc></url`).urls).toEqual(['https://a.test/a']);
  });

  it('reads at most maxUrls entries and says so', () => {
    const limits = { ...DEFAULT_SITEMAP_LIMITS, maxUrls: 2 };
    const xml = urlset('https://a.test/1', 'https://a.test/2', 'https://a.test/3');
    expect(parseSitemap(Buffer.from(xml), 'https://a.test/s.xml', limits)).toEqual({
      urls: ['https://a.test/1', 'https://a.test/2'],
      sitemaps: [],
      capped: true,
    });
    expect(parseSitemap(Buffer.from(urlset('https://a.test/1', 'https://a.test/2')), 'https://a.test/s.xml', limits).capped).toBeUndefined();
    const text = 'https://a.test/1\nhttps://a.test/2\nhttps://a.test/3\n';
    expect(parseSitemap(Buffer.from(text), 'https://a.test/s.txt', limits)).toEqual({
      urls: ['https://a.test/1', 'https://a.test/2'],
      sitemaps: [],
      capped: true,
    });
  });

  it('refuses a body over maxBytes, and stops inflating a gzip bomb at maxBytes', () => {
    const limits = { maxBytes: 1024, maxUrls: 10 };
    const xml = urlset(...Array.from({ length: 40 }, (_, i) => `https://a.test/${i}`));
    expect(() => parseSitemap(Buffer.from(xml), 'https://a.test/s.xml', limits)).toThrow(
      'The sitemap is larger than 1024 bytes as received (CRAWL_SITEMAP_MAX_BYTES), so it was skipped',
    );
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20), { level: 1 });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(() => parseSitemap(bomb, 'https://a.test/s.xml.gz', { maxBytes: 1024 * 1024, maxUrls: 10 })).toThrow(
      'The sitemap is larger than 1048576 bytes once inflated (CRAWL_SITEMAP_MAX_BYTES), so it was skipped',
    );
  });

  it('finds nothing in an HTML page served as a sitemap', () => {
    expect(parse('<!DOCTYPE html><html><body><a href="https://a.test/x">x</a></body></html>')).toEqual({ urls: [], sitemaps: [] });
  });
});

describe('parseSitemap on hostile input', () => {
  const FIFTY_MB = DEFAULT_SITEMAP_LIMITS.maxBytes;
  const fill = (unit: string) => Buffer.from(unit.repeat(Math.floor(FIFTY_MB / unit.length)));

  it.each([
    ['unclosed <url> tags', '<url>'],
    ['<url><loc> fragments', '<url><loc>'],
    ['prefixed fragments', '<sm:url><sm:loc>x'],
    ['locs in entries never closed', '<url><loc>https://a.test/p</loc>'],
  ])('parses 50 MB of %s in under a second', (_name, unit) => {
    const body = fill(unit);
    expect(body.length).toBeGreaterThan(FIFTY_MB - unit.length);
    const started = performance.now();
    const parsed = parseSitemap(body, 'https://a.test/sitemap.xml');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(parsed).toEqual({ urls: [], sitemaps: [] });
  });

  it('reads the entries before 50 MB of unclosed tags', () => {
    const head = urlset('https://a.test/real').replace('</urlset>', '');
    const body = Buffer.concat([Buffer.from(head), fill('<url>').subarray(head.length)]);
    const started = performance.now();
    expect(parseSitemap(body, 'https://a.test/sitemap.xml').urls).toEqual(['https://a.test/real']);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('collectSitemapUrls', () => {
  it('tries robots sitemaps, the scope folder and the root, silently skipping 404s', async () => {
    const requested: string[] = [];
    const fetch = fakeFetch({ 'https://a.test/docs/sitemap.xml': ok(urlset('https://a.test/docs/a')) }, requested);
    const result = await collectSitemapUrls({ startUrl: 'https://a.test/docs#top', robotsSitemaps: ['https://a.test/robots-map.xml'], fetch });
    expect(result).toEqual({
      urls: ['https://a.test/docs/a'],
      fetched: ['https://a.test/robots-map.xml', 'https://a.test/docs/sitemap.xml', 'https://a.test/sitemap.xml'],
      errors: [],
    });
    expect(requested).toEqual(result.fetched);
  });

  it('uses a start URL that is itself a sitemap', async () => {
    const fetch = fakeFetch({ 'https://a.test/maps/pages.xml.gz': ok(gzipSync(urlset('https://a.test/p'))) });
    const result = await collectSitemapUrls({ startUrl: 'https://a.test/maps/pages.xml.gz', robotsSitemaps: [], fetch });
    expect(result.fetched).toEqual(['https://a.test/maps/pages.xml.gz', 'https://a.test/sitemap.xml']);
    expect(result.urls).toEqual(['https://a.test/p']);
  });

  it('follows robots-named sitemaps on other hosts', async () => {
    const fetch = fakeFetch({ 'https://cdn.test/a-sitemap.xml': ok(urlset('https://a.test/from-cdn')) });
    const result = await collectSitemapUrls({ startUrl: 'https://a.test/', robotsSitemaps: ['https://cdn.test/a-sitemap.xml'], fetch });
    expect(result.urls).toEqual(['https://a.test/from-cdn']);
    expect(result.fetched).toEqual(['https://cdn.test/a-sitemap.xml', 'https://a.test/sitemap.xml']);
  });

  it('walks indexes breadth-first into plain and gzip sitemaps', async () => {
    const fetch = fakeFetch({
      'https://a.test/sitemap.xml': ok(index('https://a.test/sub-index.xml', 'https://a.test/posts.xml.gz', 'https://a.test/pages.xml.gz')),
      'https://a.test/sub-index.xml': ok(gzipSync(index('https://a.test/deep.xml'))),
      'https://a.test/posts.xml.gz': ok(gzipSync(urlset('https://a.test/post-1', 'https://a.test/post-2'))),
      // Served already inflated, as when the server set Content-Encoding: gzip.
      'https://a.test/pages.xml.gz': ok(urlset('https://a.test/about')),
      'https://a.test/deep.xml': ok(urlset('https://a.test/deep-page')),
    });
    const result = await collectSitemapUrls({ startUrl: 'https://a.test/', robotsSitemaps: [], fetch });
    expect(result.fetched).toEqual([
      'https://a.test/sitemap.xml',
      'https://a.test/sub-index.xml',
      'https://a.test/posts.xml.gz',
      'https://a.test/pages.xml.gz',
      'https://a.test/deep.xml',
    ]);
    expect(result.urls).toEqual(['https://a.test/post-1', 'https://a.test/post-2', 'https://a.test/about', 'https://a.test/deep-page']);
    expect(result.errors).toEqual([]);
  });

  it('stops after 20 sitemap fetches unless told otherwise', async () => {
    const children = Array.from({ length: 30 }, (_, i) => `https://a.test/s${i}.xml`);
    const site: Record<string, Served> = { 'https://a.test/sitemap.xml': ok(index(...children)) };
    children.forEach((c, i) => (site[c] = ok(urlset(`https://a.test/page-${i}`))));
    const requested: string[] = [];
    const result = await collectSitemapUrls({ startUrl: 'https://a.test/', robotsSitemaps: [], fetch: fakeFetch(site, requested) });
    expect(requested).toHaveLength(20);
    expect(result.fetched).toEqual(requested);
    expect(result.urls).toEqual(Array.from({ length: 19 }, (_, i) => `https://a.test/page-${i}`));

    const small = await collectSitemapUrls({ startUrl: 'https://a.test/', robotsSitemaps: [], fetch: fakeFetch(site), maxSitemaps: 3 });
    expect(small.fetched).toHaveLength(3);
  });

  it('fetches each sitemap once even when indexes list each other or themselves', async () => {
    const requested: string[] = [];
    const fetch = fakeFetch(
      {
        'https://a.test/sitemap.xml': ok(index('https://a.test/sitemap.xml', 'https://a.test/other-index.xml')),
        'https://a.test/other-index.xml': ok(index('https://a.test/sitemap.xml', 'https://a.test/other-index.xml', 'https://a.test/pages.xml')),
        'https://a.test/pages.xml': ok(urlset('https://a.test/p')),
      },
      requested,
    );
    const result = await collectSitemapUrls({ startUrl: 'https://a.test/', robotsSitemaps: ['https://a.test/sitemap.xml'], fetch });
    expect(requested).toEqual(['https://a.test/sitemap.xml', 'https://a.test/other-index.xml', 'https://a.test/pages.xml']);
    expect(result.urls).toEqual(['https://a.test/p']);
  });

  it('skips a redirect target it already fetched', async () => {
    const requested: string[] = [];
    const fetch = fakeFetch(
      {
        'https://a.test/sitemap.xml': ok(index('https://a.test/old.xml')),
        'https://a.test/old.xml': { status: 200, body: index('https://a.test/new.xml'), finalUrl: 'https://a.test/new.xml' },
      },
      requested,
    );
    await collectSitemapUrls({ startUrl: 'https://a.test/', robotsSitemaps: [], fetch });
    expect(requested).toEqual(['https://a.test/sitemap.xml', 'https://a.test/old.xml']);
  });

  it('deduplicates URLs in discovery order and stops at maxUrls', async () => {
    const site: Record<string, Served> = {
      'https://a.test/sitemap.xml': ok(index('https://a.test/s1.xml', 'https://a.test/s2.xml', 'https://a.test/s3.xml')),
      'https://a.test/s1.xml': ok(urlset('https://a.test/a', 'https://a.test/b', 'https://a.test/a')),
      'https://a.test/s2.xml': ok(urlset('https://a.test/b', 'https://a.test/c')),
      'https://a.test/s3.xml': ok(index('https://a.test/s4.xml')),
      'https://a.test/s4.xml': ok(urlset('https://a.test/d')),
    };
    const all = await collectSitemapUrls({ startUrl: 'https://a.test/', robotsSitemaps: [], fetch: fakeFetch(site) });
    expect(all.urls).toEqual(['https://a.test/a', 'https://a.test/b', 'https://a.test/c', 'https://a.test/d']);

    const requested: string[] = [];
    const capped = await collectSitemapUrls({ startUrl: 'https://a.test/', robotsSitemaps: [], fetch: fakeFetch(site, requested), maxUrls: 2 });
    expect(capped.urls).toEqual(['https://a.test/a', 'https://a.test/b']);
    expect(requested).not.toContain('https://a.test/s4.xml');
  });

  it('records failures other than 404 and carries on', async () => {
    const fetch = fakeFetch({
      'https://a.test/sitemap.xml': ok(
        index('https://a.test/down.xml', 'https://a.test/blocked.xml', 'https://a.test/bad.xml.gz', 'https://a.test/gone.xml', 'https://a.test/good.xml'),
      ),
      'https://a.test/down.xml': { status: 503 },
      'https://a.test/blocked.xml': new Error('address is private'),
      'https://a.test/bad.xml.gz': ok(Buffer.from([0x1f, 0x8b, 0, 0, 0])),
      'https://a.test/good.xml': ok(urlset('https://a.test/g')),
    });
    const result = await collectSitemapUrls({ startUrl: 'https://a.test/', robotsSitemaps: [], fetch });
    expect(result.urls).toEqual(['https://a.test/g']);
    expect(result.errors.map((e) => e.url)).toEqual(['https://a.test/down.xml', 'https://a.test/blocked.xml', 'https://a.test/bad.xml.gz']);
    expect(result.errors[0].error).toBe('HTTP 503');
    expect(result.errors[1].error).toBe('address is private');
  });

  it('uses the first entries of a sitemap with too many and reports the rest as ignored', async () => {
    const fetch = fakeFetch({ 'https://a.test/sitemap.xml': ok(urlset('https://a.test/1', 'https://a.test/2', 'https://a.test/3')) });
    const result = await collectSitemapUrls({ startUrl: 'https://a.test/', robotsSitemaps: [], fetch, limits: { maxBytes: 1_000_000, maxUrls: 2 } });
    expect(result.urls).toEqual(['https://a.test/1', 'https://a.test/2']);
    expect(result.errors).toEqual([{ url: 'https://a.test/sitemap.xml', error: 'Only the first 2 entries of the sitemap were read (CRAWL_SITEMAP_MAX_URLS)' }]);
  });
});
