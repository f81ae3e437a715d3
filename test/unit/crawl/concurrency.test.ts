import { describe, expect, it } from 'vitest';
import { crawlConcurrency } from '../../../src/jobs/concurrency.ts';

describe('crawlConcurrency', () => {
  it("uses the team's limit, split into browsers of pagesPerBrowser pages", () => {
    expect(crawlConcurrency({ teamLimit: 8, pagesPerBrowser: 4 })).toEqual({ parallelBatches: 2, pagesPerBatch: 4 });
    expect(crawlConcurrency({ teamLimit: 2, pagesPerBrowser: 4 })).toEqual({ parallelBatches: 1, pagesPerBatch: 2 });
  });

  it('caps maxConcurrency at the team limit', () => {
    expect(crawlConcurrency({ teamLimit: 4, maxConcurrency: 100, pagesPerBrowser: 4 })).toEqual({ parallelBatches: 1, pagesPerBatch: 4 });
    expect(crawlConcurrency({ teamLimit: 10, maxConcurrency: 3, pagesPerBrowser: 4 })).toEqual({ parallelBatches: 1, pagesPerBatch: 3 });
    // Never more pages in flight than the cap, however it divides.
    for (let cap = 1; cap <= 40; cap++) {
      const { parallelBatches, pagesPerBatch } = crawlConcurrency({ teamLimit: 50, maxConcurrency: cap, pagesPerBrowser: 4 });
      expect(parallelBatches * pagesPerBatch).toBeLessThanOrEqual(cap);
      expect(parallelBatches * pagesPerBatch).toBeGreaterThan(cap * 0.7);
    }
  });

  it('forces one page at a time when delay is set', () => {
    expect(crawlConcurrency({ teamLimit: 10, maxConcurrency: 10, delay: 2, pagesPerBrowser: 4 })).toEqual({ parallelBatches: 1, pagesPerBatch: 1 });
  });
});
