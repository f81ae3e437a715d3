import { describe, expect, it } from 'vitest';
import { batchScrapeOptions, batchScrapeRequestSchema } from '../../../src/jobs/batch-request.ts';
import { scrapeRequestOptions, scrapeRequestSchema } from '../../../src/page/scrape-request.ts';
import { defaultScrapeOptions } from '../../../src/page/scrape-options.ts';

describe('batch scrape request', () => {
  it('takes scrape options at the top level and splits them from the batch fields', () => {
    const req = batchScrapeRequestSchema.parse({ urls: ['https://a.example/'], formats: ['html'], maxConcurrency: 2, origin: 'js-sdk@4' });
    expect(batchScrapeOptions(req)).toEqual({ ...defaultScrapeOptions(), formats: [{ type: 'html' }] });
    expect(req).toMatchObject({ maxConcurrency: 2, zeroDataRetention: false });
  });

  it('refuses a malformed URL unless ignoreInvalidURLs is true, naming its index', () => {
    const bad = batchScrapeRequestSchema.safeParse({ urls: ['https://a.example/', 'not a url'] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].path).toEqual(['urls', 1]);
    expect(batchScrapeRequestSchema.safeParse({ urls: ['not a url'], ignoreInvalidURLs: true }).success).toBe(true);
    expect(batchScrapeRequestSchema.safeParse({ urls: [] }).success).toBe(false);
    expect(batchScrapeRequestSchema.safeParse({ urls: ['https://a.example/'], limit: 1 }).success).toBe(false);
    expect(batchScrapeRequestSchema.safeParse({ urls: ['https://a.example/'], appendToId: 'x' }).success).toBe(false);
  });

  it('keeps the scrape options rule that waitFor is at most half the timeout', () => {
    expect(batchScrapeRequestSchema.safeParse({ urls: ['https://a.example/'], timeout: 2000, waitFor: 1500 }).success).toBe(false);
  });
});

describe('scrape request', () => {
  it('takes url and scrape options, and accepts fastMode as the Python SDK sends it', () => {
    const req = scrapeRequestSchema.parse({ url: 'a.example', fastMode: false, onlyMainContent: false });
    expect(req.url).toBe('http://a.example');
    expect(scrapeRequestOptions(req)).toEqual({ ...defaultScrapeOptions(), onlyMainContent: false, fastMode: false });
    expect(scrapeRequestSchema.safeParse({ url: 'https://a.example/', urls: [] }).success).toBe(false);
  });
});
