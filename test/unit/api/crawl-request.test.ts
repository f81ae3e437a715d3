import { describe, expect, it } from 'vitest';
import { crawlRequestSchema, type CrawlRequest, type CrawlRequestInput } from '../../../src/jobs/crawl-request.ts';
import { MAX_PATH_PATTERNS_SIZE } from '../../../src/jobs/frontier/path-patterns.ts';
import { UNAVAILABLE_FORMATS } from '../../../src/page/formats/formats-schema.ts';
import { UNRECOGNIZED_KEY_MESSAGE } from '../../../src/platform/http/validation-error.ts';
import { rejectMessage } from './helpers.ts';

function reject(body: Record<string, unknown>): string {
  return rejectMessage(crawlRequestSchema, body).error;
}

describe('crawlRequestSchema defaults', () => {
  it('fills every default for a body with only url', () => {
    const expected: CrawlRequest = {
      url: 'https://example.com',
      excludePaths: [],
      includePaths: [],
      sitemap: 'include',
      ignoreQueryParameters: false,
      deduplicateSimilarURLs: true,
      regexOnFullURL: false,
      limit: 10000,
      crawlEntireDomain: false,
      allowExternalLinks: false,
      allowSubdomains: false,
      ignoreRobotsTxt: false,
      zeroDataRetention: false,
      scrapeOptions: {
        formats: [{ type: 'markdown' }],
        onlyMainContent: true,
        onlyCleanContent: false,
        maxAge: 172800000,
        waitFor: 0,
        mobile: false,
        timeout: 60000,
        parsers: [{ type: 'pdf' }, { type: 'image' }],
        removeBase64Images: true,
        blockAds: true,
        proxy: 'auto',
        storeInCache: true,
        lockdown: false,
      },
    };
    const parsed = crawlRequestSchema.parse({ url: 'https://example.com' });
    expect(parsed).toStrictEqual(expected);
    // Optional fields stay absent rather than undefined-valued defaults.
    for (const key of ['prompt', 'maxDiscoveryDepth', 'robotsUserAgent', 'delay', 'maxConcurrency', 'webhook', 'origin', 'integration']) {
      expect(parsed).not.toHaveProperty(key);
    }
    expect(parsed.scrapeOptions).not.toHaveProperty('skipTlsVerification');
  });

  it('returns fresh default objects on every parse', () => {
    const a = crawlRequestSchema.parse({ url: 'example.com' });
    a.scrapeOptions.formats.push({ type: 'html' });
    a.includePaths.push('x');
    const b = crawlRequestSchema.parse({ url: 'example.com' });
    expect(b.scrapeOptions.formats).toEqual([{ type: 'markdown' }]);
    expect(b.includePaths).toEqual([]);
  });

  it('keeps explicitly given values', () => {
    const input: CrawlRequestInput = {
      url: 'https://docs.example.com/guide',
      prompt: 'only the blog',
      excludePaths: ['^/private/.*$'],
      includePaths: ['^/guide/.*'],
      maxDiscoveryDepth: 0,
      sitemap: 'skip',
      ignoreQueryParameters: true,
      deduplicateSimilarURLs: false,
      regexOnFullURL: true,
      limit: 5,
      crawlEntireDomain: true,
      allowExternalLinks: true,
      allowSubdomains: true,
      ignoreRobotsTxt: true,
      robotsUserAgent: 'MyBot/1.0',
      delay: 0.5,
      maxConcurrency: 3,
      zeroDataRetention: true,
      origin: 'js-sdk@4.42.0',
      integration: null,
      scrapeOptions: { formats: ['html'], onlyMainContent: false },
    };
    const parsed = crawlRequestSchema.parse(input);
    expect(parsed).toMatchObject({ ...input, scrapeOptions: { formats: [{ type: 'html' }], onlyMainContent: false } });
    expect(parsed.scrapeOptions.blockAds).toBe(true);
  });

  it('accepts the origin the SDKs inject', () => {
    expect(crawlRequestSchema.parse({ url: 'example.com', origin: 'python-sdk@4.38.0' }).origin).toBe('python-sdk@4.38.0');
  });
});

describe('crawlRequestSchema url', () => {
  it('prepends http:// when the scheme is missing', () => {
    expect(crawlRequestSchema.parse({ url: 'example.com/docs' }).url).toBe('http://example.com/docs');
  });

  it('trims whitespace', () => {
    expect(crawlRequestSchema.parse({ url: '  https://example.com  ' }).url).toBe('https://example.com');
  });

  it('rejects an unsupported protocol', () => {
    expect(reject({ url: 'ftp://x.com' })).toBe('url: URL uses unsupported protocol');
  });

  it('rejects a host without a TLD', () => {
    expect(reject({ url: 'http://intranet/' })).toBe('url: URL must have a valid top-level domain or be an IP address');
  });

  it('rejects a missing or non-string url', () => {
    expect(reject({})).toBe('url: url is required');
    expect(reject({ url: 12 })).toBe('url: url must be a string');
  });
});

describe('crawlRequestSchema field rules', () => {
  it.each([
    [{ limit: 0 }, 'limit: limit must be a positive integer'],
    [{ limit: -1 }, 'limit: limit must be a positive integer'],
    [{ limit: 1.5 }, 'limit: limit must be a positive integer'],
    [{ limit: '10' }, 'limit: limit must be a positive integer'],
    [{ limit: 10_000_001 }, 'limit: limit must not exceed 10000000'],
    [{ delay: 61 }, 'delay: The delay parameter is measured in seconds and cannot exceed 60 seconds.'],
    [{ delay: 0 }, 'delay: The delay parameter is measured in seconds and must be greater than 0.'],
    [{ delay: -2 }, 'delay: The delay parameter is measured in seconds and must be greater than 0.'],
    [{ maxConcurrency: 0 }, 'maxConcurrency: maxConcurrency must be a positive integer'],
    [{ maxConcurrency: 2.5 }, 'maxConcurrency: maxConcurrency must be a positive integer'],
    [{ sitemap: 'bogus' }, 'sitemap: Invalid option: expected one of "skip"|"include"|"only"'],
    [{ maxDiscoveryDepth: -1 }, 'maxDiscoveryDepth: maxDiscoveryDepth must be a non-negative integer'],
    [{ maxDiscoveryDepth: 1.5 }, 'maxDiscoveryDepth: maxDiscoveryDepth must be a non-negative integer'],
    [{ prompt: 'x'.repeat(10001) }, 'prompt: prompt must be at most 10000 characters'],
    [{ robotsUserAgent: '' }, 'robotsUserAgent: robotsUserAgent must be 1 to 512 characters'],
    [{ robotsUserAgent: 'a'.repeat(513) }, 'robotsUserAgent: robotsUserAgent must be 1 to 512 characters'],
    [{ allowSubdomains: 'yes' }, 'allowSubdomains: Invalid input: expected boolean, received string'],
    [{ includePaths: 'blog' }, 'includePaths: includePaths must be an array of regular expression strings'],
  ])('rejects %j', (fields, message) => {
    expect(reject({ url: 'https://example.com', ...fields })).toBe(message);
  });

  it('accepts boundary values', () => {
    const parsed = crawlRequestSchema.parse({
      url: 'https://example.com',
      limit: 1,
      delay: 60,
      maxConcurrency: 1,
      maxDiscoveryDepth: 0,
      prompt: 'x'.repeat(10000),
      robotsUserAgent: 'a'.repeat(512),
    });
    expect(parsed).toMatchObject({ limit: 1, delay: 60, maxConcurrency: 1, maxDiscoveryDepth: 0 });
  });

  it('names the invalid includePaths pattern and its index', () => {
    const { error, details } = rejectMessage(crawlRequestSchema, {
      url: 'https://example.com',
      includePaths: ['^/blog/.*', '(unclosed'],
    });
    expect(error).toMatch(/^includePaths\.1: Invalid includePaths pattern "\(unclosed": .+/);
    expect(details[0]).toMatchObject({ code: 'custom', path: ['includePaths', 1] });
  });

  it('names the invalid excludePaths pattern and its index', () => {
    const { error, details } = rejectMessage(crawlRequestSchema, {
      url: 'https://example.com',
      excludePaths: ['[z-a]'],
    });
    expect(error).toMatch(/^excludePaths\.0: Invalid excludePaths pattern "\[z-a\]": .+/);
    expect(details[0]).toMatchObject({ path: ['excludePaths', 0] });
  });

  it('accepts RE2 syntax in path patterns', () => {
    const parsed = crawlRequestSchema.parse({
      url: 'https://example.com',
      includePaths: ['^/(a+)+$', '^/blog/(?P<slug>[\\w-]+)$', '(?i)^/docs/', '\\.pdf$'],
    });
    expect(parsed.includePaths).toHaveLength(4);
  });
});

describe('crawlRequestSchema path patterns RE2 cannot run', () => {
  const note = 'is not supported; patterns run on a linear-time engine (RE2 syntax)';
  it.each([
    ['^/(?=a)', 'lookahead (?=...)'],
    ['^/(?!private)', 'negative lookahead (?!...)'],
    ['(?<=/blog)/x', 'lookbehind (?<=...)'],
    ['(?<!/blog)/x', 'negative lookbehind (?<!...)'],
    ['/docs/(\\w+)/\\1', 'backreference \\1'],
    ['/(?<part>\\w+)/\\k<part>', 'named backreference \\k<name>'],
    ['^/a*+b', 'possessive quantifier *+'],
    ['^/(?>a|ab)c', 'atomic group (?>...)'],
  ])('answers 400 naming the pattern %s and its construct', (pattern, construct) => {
    const { error, details } = rejectMessage(crawlRequestSchema, { url: 'https://example.com', includePaths: ['^/ok', pattern] });
    expect(error).toBe(`includePaths.1: Invalid includePaths pattern "${pattern}": ${construct} ${note}`);
    expect(details[0]).toMatchObject({ code: 'custom', path: ['includePaths', 1] });
    expect(reject({ url: 'https://example.com', excludePaths: [pattern] })).toBe(
      `excludePaths.0: Invalid excludePaths pattern "${pattern}": ${construct} ${note}`,
    );
  });

  it('refuses patterns whose counted repetitions expand too far, before parsing them', () => {
    const huge = '.{1000}'.repeat(285);
    expect(reject({ url: 'https://example.com', includePaths: [huge] })).toBe(
      `includePaths: includePaths patterns have a size of 285000 in all, more than ${MAX_PATH_PATTERNS_SIZE} (each character, class or escape counts 1; a counted repetition such as {1,100} multiplies what it repeats)`,
    );
    const many = Array.from({ length: 21 }, () => '[a-z]{1000}');
    expect(reject({ url: 'https://example.com', excludePaths: many })).toMatch(/^excludePaths: excludePaths patterns have a size of 21000 in all/);
    expect(crawlRequestSchema.parse({ url: 'https://example.com', excludePaths: many.slice(1) }).excludePaths).toHaveLength(20);
  });
});

describe('crawlRequestSchema strictness', () => {
  it.each(['maxDepth', 'ignoreSitemap', 'allowBackwardLinks', 'crawlerOptions', 'bogus'])('rejects the unknown top-level key %s', (key) => {
    const { error, details } = rejectMessage(crawlRequestSchema, { url: 'https://example.com', [key]: 1 });
    expect(error).toBe(UNRECOGNIZED_KEY_MESSAGE);
    expect(details[0]).toMatchObject({ code: 'unrecognized_keys', keys: [key], path: [] });
  });

  it('rejects an unknown key inside scrapeOptions', () => {
    const { error, details } = rejectMessage(crawlRequestSchema, {
      url: 'https://example.com',
      scrapeOptions: { formats: ['markdown'], parsePDF: true },
    });
    expect(error).toBe(UNRECOGNIZED_KEY_MESSAGE);
    expect(details[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['parsePDF'], path: ['scrapeOptions'] });
  });

  it('accepts the scrapeOptions the Python SDK serializes for ScrapeOptions(formats=["markdown"]), fastMode: false among them', () => {
    const python = {
      onlyMainContent: true,
      skipTlsVerification: true,
      removeBase64Images: true,
      fastMode: false,
      blockAds: true,
      storeInCache: true,
      maxAge: 14400000,
      formats: ['markdown'],
      mobile: false,
    };
    expect(crawlRequestSchema.parse({ url: 'https://example.com/', limit: 10, scrapeOptions: python }).scrapeOptions).toMatchObject({
      fastMode: false,
      maxAge: 14400000,
    });
  });

  it('rejects an unknown key inside the webhook object', () => {
    expect(reject({ url: 'https://example.com', webhook: { url: 'https://hooks.example.com', secret: 'x' } })).toBe(UNRECOGNIZED_KEY_MESSAGE);
  });

  it('rejects a body that is not an object', () => {
    expect(rejectMessage(crawlRequestSchema, ['https://example.com']).error).toBe('Invalid input: expected object, received array');
  });
});

describe('crawlRequestSchema nested rules', () => {
  it.each([
    [{ waitFor: 40000 }, 'scrapeOptions.waitFor: waitFor must not exceed half of timeout'],
    [{ waitFor: 3000, timeout: 5000 }, 'scrapeOptions.waitFor: waitFor must not exceed half of timeout'],
    [{ formats: ['audio'] }, `scrapeOptions.formats.0: Format "audio" is not available from this service: ${UNAVAILABLE_FORMATS.audio}`],
    [{ formats: ['markdown', 'screenshot', 'screenshot@fullPage'] }, 'scrapeOptions.formats: Only one screenshot format is allowed'],
    [{ actions: [{ type: 'hover', selector: 'a' }] }, 'scrapeOptions.actions.0.type: Action type "hover" is not supported'],
  ])('rejects scrapeOptions %j', (scrapeOptions, message) => {
    expect(reject({ url: 'https://example.com', scrapeOptions })).toBe(message);
  });

  it.each([
    [{ url: 'ftp://hooks.example.com' }, 'webhook.url: URL uses unsupported protocol'],
    [
      { url: 'https://hooks.example.com', events: ['page', 'deleted'] },
      'webhook.events.1: Invalid option: expected one of "started"|"page"|"completed"|"failed"',
    ],
    [
      { url: 'https://hooks.example.com', headers: { 'X-Service-Signature': 'forged' } },
      'webhook.headers: The following headers are not allowed: x-service-signature',
    ],
  ])('rejects webhook %j', (webhook, message) => {
    expect(reject({ url: 'https://example.com', webhook })).toBe(message);
  });

  it('normalises a webhook string to an object with all events', () => {
    const parsed = crawlRequestSchema.parse({ url: 'https://example.com', webhook: 'https://hooks.example.com/crawl' });
    expect(parsed.webhook).toStrictEqual({
      url: 'https://hooks.example.com/crawl',
      headers: {},
      metadata: {},
      events: ['started', 'page', 'completed', 'failed'],
    });
  });

  it('normalises screenshot@fullPage inside scrapeOptions', () => {
    const parsed = crawlRequestSchema.parse({
      url: 'https://example.com',
      scrapeOptions: { formats: ['markdown', 'screenshot@fullPage'] },
    });
    expect(parsed.scrapeOptions.formats).toStrictEqual([{ type: 'markdown' }, { type: 'screenshot', fullPage: true }]);
  });
});
