// v1 request bodies into /v2's (src/features/v1): the differences of
// docs/api/v1.md that live in requests, each proven on
// the body a v1 client sends, and the result accepted by /v2's own schema.
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { crawlRequestSchema } from '../../../src/jobs/crawl-request.ts';
import { scrapeOptionsSchema } from '../../../src/page/scrape-options.ts';
import { scrapeRequestSchema } from '../../../src/page/scrape-request.ts';
import { formatZodError, UNRECOGNIZED_KEY_MESSAGE } from '../../../src/platform/http/validation-error.ts';
import { toV2BatchScrape, v1BatchScrapeRequestSchema } from '../../../src/features/v1/batch-request.ts';
import { toV2Crawl, URL_TOO_DEEP_MESSAGE, v1CrawlRequestSchema } from '../../../src/features/v1/crawl-request.ts';
import { toV2Extract, v1ExtractRequestSchema } from '../../../src/features/v1/extract-request.ts';
import { toV2Map, v1MapRequestSchema } from '../../../src/features/v1/map-request.ts';
import { JSON_OPTIONS_PAIRING_MESSAGE, toV2ScrapeOptions, v1ScrapeOptionsSchema } from '../../../src/features/v1/scrape-options.ts';
import { toV2Scrape, v1ScrapeRequestSchema } from '../../../src/features/v1/scrape-request.ts';
import { toV2Search, v1SearchRequestSchema } from '../../../src/features/v1/search-request.ts';

const schema = { type: 'object', properties: { name: { type: 'string' } } };
const url = 'https://a.example/';

/** v1 scrape options as /v2 validates them. */
const v2Options = (v1: unknown, defaultTimeout?: number) =>
  scrapeOptionsSchema.parse(toV2ScrapeOptions(v1ScrapeOptionsSchema.parse(v1), defaultTimeout).scrapeOptions);

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof ZodError) return formatZodError(err).error;
    throw err;
  }
  throw new Error('no error');
}

describe('formats: strings with side objects (section 6.1)', () => {
  it('json with jsonOptions becomes one json format object; its result stays under json', () => {
    const t = toV2ScrapeOptions(
      v1ScrapeOptionsSchema.parse({ formats: ['markdown', 'json'], jsonOptions: { prompt: 'the name', schema, systemPrompt: 'ignored', mode: 'llm' } }),
    );
    expect(t.scrapeOptions.formats).toEqual(['markdown', { type: 'json', prompt: 'the name', schema }]);
    expect(t.jsonFields).toBeUndefined();
  });

  it('extract with its extract object becomes the json format, answered under extract', () => {
    const t = toV2ScrapeOptions(v1ScrapeOptionsSchema.parse({ formats: ['extract'], extract: { schema } }));
    expect(t.scrapeOptions.formats).toEqual([{ type: 'json', schema }]);
    expect(t.jsonFields).toEqual(['extract']);
  });

  it('json and extract together make one model call, answered under both names', () => {
    const t = toV2ScrapeOptions(
      v1ScrapeOptionsSchema.parse({ formats: ['json', 'extract'], jsonOptions: { prompt: 'a' }, extract: { prompt: 'b', checkPromptInjection: true } }),
    );
    expect(t.scrapeOptions.formats).toEqual([{ type: 'json', prompt: 'a' }]);
    expect(t.jsonFields).toEqual(['json', 'extract']);
  });

  it('a model format and its options come together, in both directions', () => {
    for (const body of [
      { formats: ['json'] },
      { formats: ['markdown'], jsonOptions: { prompt: 'a' } },
      { formats: ['extract'] },
      { extract: { prompt: 'a' } },
    ]) {
      expect(errorOf(() => v1ScrapeOptionsSchema.parse(body))).toBe(`formats: ${JSON_OPTIONS_PAIRING_MESSAGE}`);
    }
  });

  it('screenshot@fullPage, changeTracking with its options, and content (markdown) reach v2 as its own formats', () => {
    const so = v2Options({
      formats: ['content', 'markdown', 'screenshot@fullPage', 'changeTracking'],
      changeTrackingOptions: { modes: ['git-diff'], tag: null },
    });
    expect(so.formats).toEqual([{ type: 'markdown' }, { type: 'screenshot', fullPage: true }, { type: 'changeTracking', modes: ['git-diff'] }]);
  });

  it('formats v1 lists but this service does not produce are refused by /v2’s schema, naming them', () => {
    expect(errorOf(() => v2Options({ formats: ['rawBase64'] }))).toBe('formats.0: Format "rawBase64" is not supported by this service');
    expect(errorOf(() => v1ScrapeOptionsSchema.parse({ formats: ['images'] }))).toMatch(/^formats\.0: formats must be among markdown, html/);
  });
});

describe('defaults that differ (section 6.6)', () => {
  it('proxy basic, maxAge one day, parsePDF as parsers, geolocation as location', () => {
    const so = v2Options({ geolocation: { country: 'de' } });
    expect(so).toMatchObject({ proxy: 'basic', maxAge: 86_400_000, parsers: [{ type: 'pdf' }], location: { country: 'DE' }, formats: [{ type: 'markdown' }] });
    expect(v2Options({ parsePDF: false, location: { country: 'fr' }, geolocation: { country: 'de' } })).toMatchObject({
      parsers: [],
      location: { country: 'FR' },
    });
  });

  it('a scrape waits 30 s by default; exactly 30 s becomes 60 s with a model format, any other timeout stays', () => {
    const scrape = (body: object) => scrapeRequestSchema.parse(toV2Scrape(v1ScrapeRequestSchema.parse({ url, ...body })).body);
    expect(scrape({}).timeout).toBe(30_000);
    expect(scrape({ formats: ['json'], jsonOptions: { prompt: 'a' } }).timeout).toBe(60_000);
    expect(scrape({ formats: ['markdown', 'changeTracking'], timeout: 30_000 }).timeout).toBe(60_000);
    expect(scrape({ formats: ['json'], jsonOptions: { prompt: 'a' }, timeout: 45_000 }).timeout).toBe(45_000);
    expect(scrape({ proxy: 'stealth' }).timeout).toBe(30_000);
    // Elsewhere v1 has no timeout of its own: /v2's applies.
    expect(v2Options({}).timeout).toBe(60_000);
  });

  it('a batch refuses a malformed URL unless ignoreInvalidURLs is true (v2 skips it by default)', () => {
    expect(errorOf(() => toV2BatchScrape(v1BatchScrapeRequestSchema.parse({ urls: [url, 'not a url'] })))).toBe('urls.1: Invalid URL: not a url');
    const { request, extras } = toV2BatchScrape(
      v1BatchScrapeRequestSchema.parse({ urls: [url, 'not a url'], ignoreInvalidURLs: true, formats: ['extract'], extract: { prompt: 'p' } }),
    );
    expect(request).toMatchObject({ ignoreInvalidURLs: true, formats: [{ type: 'json', prompt: 'p' }], proxy: 'basic', maxAge: 86_400_000 });
    expect(extras).toEqual({ jsonFields: ['extract'] });
  });
});

describe('crawl fields of v1 only (section 6.4)', () => {
  const crawl = (body: object) => {
    const { body: v2, extras } = toV2Crawl(v1CrawlRequestSchema.parse({ url, ...body }));
    return { request: crawlRequestSchema.parse(v2), extras };
  };

  it('maxDepth (default 10) is kept as the job’s path-depth limit; a start URL deeper than it is refused', () => {
    expect(crawl({}).extras).toEqual({ maxPathDepth: 10 });
    expect(crawl({ maxDepth: 2 }).extras).toEqual({ maxPathDepth: 2 });
    expect(errorOf(() => v1CrawlRequestSchema.parse({ url: 'https://a.example/a/b/c', maxDepth: 2 }))).toBe(`maxDepth: ${URL_TOO_DEEP_MESSAGE}`);
    expect(v1CrawlRequestSchema.safeParse({ url: 'https://a.example/a/b/index.html', maxDepth: 2 }).success).toBe(true);
  });

  it('ignoreSitemap is the sitemap mode; allowBackwardLinks is crawlEntireDomain, which wins when both are sent', () => {
    expect(crawl({}).request).toMatchObject({ sitemap: 'include', crawlEntireDomain: false });
    expect(crawl({ ignoreSitemap: true, allowBackwardLinks: true }).request).toMatchObject({ sitemap: 'skip', crawlEntireDomain: true });
    expect(crawl({ allowBackwardLinks: true, crawlEntireDomain: false }).request.crawlEntireDomain).toBe(false);
  });

  it('v2’s own fields are unknown keys in v1, refused as /v2 refuses unknown keys', () => {
    for (const key of ['sitemap', 'prompt', 'robotsUserAgent']) {
      const result = v1CrawlRequestSchema.safeParse({ url, [key]: 'x' });
      expect(result.success).toBe(false);
      expect(formatZodError(result.error!).error).toBe(UNRECOGNIZED_KEY_MESSAGE);
      expect(result.error!.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: [key] });
    }
  });

  it('takes the body the Python SDK sends: scrapeOptions with its timeout, and v1 options as v2 ones', () => {
    const { request, extras } = crawl({
      limit: 5,
      maxDepth: 3,
      origin: 'python-sdk@4.54.0',
      scrapeOptions: { formats: ['markdown', 'extract'], extract: { prompt: 'p' }, timeout: 30_000 },
    });
    expect(request.scrapeOptions).toMatchObject({ timeout: 60_000, formats: [{ type: 'markdown' }, { type: 'json', prompt: 'p' }], proxy: 'basic' });
    expect(extras).toEqual({ maxPathDepth: 3, jsonFields: ['extract'] });
  });
});

describe('map, search and extract bodies', () => {
  it('map: sitemapOnly wins over ignoreSitemap; the crawler fields v1 inherits are accepted and left out', () => {
    expect(toV2Map(v1MapRequestSchema.parse({ url, ignoreSitemap: true }))).toMatchObject({
      sitemap: 'skip',
      includeSubdomains: true,
      ignoreQueryParameters: true,
    });
    const both = toV2Map(v1MapRequestSchema.parse({ url, ignoreSitemap: true, sitemapOnly: true, useIndex: true, includePaths: ['/a'], timeout: 30_000 }));
    expect(both).toMatchObject({ sitemap: 'only', timeout: 30_000 });
    expect(both).not.toHaveProperty('includePaths');
    expect(both).not.toHaveProperty('useIndex');
  });

  it('search: web only, 5 results by default; formats [] (the JS SDK’s default) means no scraping', () => {
    const plain = toV2Search(v1SearchRequestSchema.parse({ query: 'q', scrapeOptions: { formats: [] } }));
    expect(plain.body).toMatchObject({ query: 'q', limit: 5, sources: ['web'], lang: 'en' });
    expect(plain.body).not.toHaveProperty('scrapeOptions');
    expect(plain.formats).toEqual([]);
    // The Python SDK's scrapeOptions without formats: not scraped either.
    expect(toV2Search(v1SearchRequestSchema.parse({ query: 'q', scrapeOptions: { timeout: 30_000 } })).body).not.toHaveProperty('scrapeOptions');
    const scraped = toV2Search(v1SearchRequestSchema.parse({ query: 'q', limit: 3, scrapeOptions: { formats: ['content'] } }));
    expect(scraped.body).toMatchObject({ limit: 3, scrapeOptions: { formats: ['markdown'], proxy: 'basic' } });
    expect(scraped.formats).toEqual(['markdown']);
    expect(v1SearchRequestSchema.safeParse({ query: 'q', sources: ['news'] }).success).toBe(false);
  });

  it('extract: null urls and schema (the Python SDK’s) are absent; accepted-only fields are left out', () => {
    const body = toV2Extract(v1ExtractRequestSchema.parse({ urls: null, schema: null, prompt: 'p', urlTrace: true, limit: 3, origin: 'python-sdk@4.54.0' }));
    expect(body).toMatchObject({ prompt: 'p', allowExternalLinks: false, ignoreInvalidURLs: false, origin: 'python-sdk@4.54.0' });
    expect(body.urls).toBeUndefined();
    expect(body.schema).toBeUndefined();
    expect(body).not.toHaveProperty('urlTrace');
    expect(body).not.toHaveProperty('limit');
  });
});
