import { describe, expect, it } from 'vitest';
import { followsLinksAt, keepsCacheCopy, storedPageCredits, type PageCostTerms } from '../../../src/jobs/batch/page-rules.ts';
import { changeTrackingOf } from '../../../src/page/formats/change-tracking/change-tracking-format.ts';
import { scrapeOptionsSchema } from '../../../src/page/scrape-options.ts';

const plain: PageCostTerms = { zeroDataRetention: false, redacted: false, pdfMaxPages: undefined, tracking: undefined };
const noModel = { usage: { promptTokens: 0, completionTokens: 0 }, answered: [] };
const pdf = (numPages: number) => ({ markdown: '', html: '', numPages, title: 'Report', metadata: {} });

describe('followsLinksAt', () => {
  it('follows links only for a crawl, not under sitemap only, and below maxDiscoveryDepth', () => {
    expect(followsLinksAt('crawl', { sitemap: 'include', maxDiscoveryDepth: undefined }, 40)).toBe(true);
    expect(followsLinksAt('crawl', { sitemap: 'include', maxDiscoveryDepth: 2 }, 1)).toBe(true);
    expect(followsLinksAt('crawl', { sitemap: 'include', maxDiscoveryDepth: 2 }, 2)).toBe(false);
    expect(followsLinksAt('crawl', { sitemap: 'only', maxDiscoveryDepth: undefined }, 0)).toBe(false);
    expect(followsLinksAt('batch_scrape', { sitemap: 'include', maxDiscoveryDepth: undefined }, 0)).toBe(false);
    expect(followsLinksAt('scrape', { sitemap: 'include', maxDiscoveryDepth: undefined }, 0)).toBe(false);
  });
});

describe('storedPageCredits', () => {
  it('charges a page 1 credit, one more under zero data retention', () => {
    expect(storedPageCredits(plain, undefined, noModel, false)).toBe(1);
    expect(storedPageCredits({ ...plain, zeroDataRetention: true }, undefined, noModel, false)).toBe(2);
  });

  it('charges a PDF per page up to the parser maxPages', () => {
    expect(storedPageCredits(plain, pdf(7), noModel, false)).toBe(7);
    expect(storedPageCredits({ ...plain, pdfMaxPages: 3 }, pdf(7), noModel, false)).toBe(3);
  });

  it('charges the formats a model answered, change tracking only once its fields were extracted', () => {
    const so = scrapeOptionsSchema.parse({ formats: ['markdown', { type: 'changeTracking', modes: ['json'], schema: { type: 'object' } }] });
    const tracking = { ...plain, tracking: changeTrackingOf(so) };
    const answered = storedPageCredits(plain, undefined, { ...noModel, answered: ['json'] }, false);
    expect(answered).toBeGreaterThan(1);
    expect(storedPageCredits(tracking, undefined, noModel, false)).toBe(1);
    expect(storedPageCredits(tracking, undefined, noModel, true)).toBe(answered);
    expect(storedPageCredits(plain, undefined, noModel, true)).toBe(1);
  });
});

describe('keepsCacheCopy', () => {
  const so = scrapeOptionsSchema.parse({});
  it('keeps a loaded page that did not fail, when the request and retention allow it', () => {
    expect(keepsCacheCopy('http', 200, so, false)).toBe(true);
    expect(keepsCacheCopy('browser', 399, so, false)).toBe(true);
  });

  it('keeps no copy of a cached copy, an error page, a zero-data-retention page or one the request keeps out', () => {
    expect(keepsCacheCopy('cache', 200, so, false)).toBe(false);
    expect(keepsCacheCopy('http', 404, so, false)).toBe(false);
    expect(keepsCacheCopy('http', 200, so, true)).toBe(false);
    expect(keepsCacheCopy('http', 200, { ...so, storeInCache: false }, false)).toBe(false);
  });
});
