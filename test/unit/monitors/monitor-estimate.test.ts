// estimatedCreditsPerMonth: the pages of a check times their cost, times the checks of a month.
import { describe, expect, it } from 'vitest';
import { creditsPerCheck, estimatedCreditsPerMonth } from '../../../src/features/monitors/monitor-estimate.ts';
import { trackedScrapeOptions } from '../../../src/features/monitors/target-jobs.ts';
import { scrapeOptionsSchema } from '../../../src/page/scrape-options.ts';

const ID = '00000000-0000-4000-8000-0000000000aa';

describe('creditsPerCheck', () => {
  it('counts a scrape target by its URLs, a crawl target by its limit, a search target by its queries and results', () => {
    const targets = [
      { id: 'a', type: 'scrape', urls: ['http://example.com/1', 'http://example.com/2'] },
      { id: 'b', type: 'crawl', url: 'http://example.com/', crawlOptions: { limit: 10 } },
      // 2 credits per 10 results asked: 10 by default, 25 -> 6.
      { id: 'c', type: 'search', queries: ['x'] },
      { id: 'd', type: 'search', queries: ['y', 'z'], maxResults: 25 },
    ];
    expect(creditsPerCheck(targets, ID)).toBe(12 + 2 + 2 * 6);
  });

  it('adds the model formats and the json mode of change tracking per page', () => {
    const targets = [
      {
        id: 'a',
        type: 'scrape',
        urls: ['http://example.com/1'],
        scrapeOptions: { formats: ['markdown', { type: 'json', prompt: 'price' }, { type: 'changeTracking', modes: ['json'], prompt: 'price' }] },
      },
    ];
    expect(creditsPerCheck(targets, ID)).toBe(1 + 4 + 4);
  });
});

describe('estimatedCreditsPerMonth', () => {
  it('is the runs of an average month times a check, rounded up', () => {
    expect(estimatedCreditsPerMonth(365 * 96, 2)).toBe(5840);
    expect(estimatedCreditsPerMonth(261, 1)).toBe(22);
  });
});

describe('trackedScrapeOptions', () => {
  it("adds markdown and the monitor-tagged changeTracking format, keeping the target's modes", () => {
    const so = trackedScrapeOptions(
      scrapeOptionsSchema.parse({ formats: ['html', { type: 'changeTracking', modes: ['json'], prompt: 'p', tag: 'mine' }, 'markdown'] }),
      ID,
    );
    expect(so.formats).toEqual([{ type: 'html' }, { type: 'markdown' }, { type: 'changeTracking', modes: ['json'], prompt: 'p', tag: `monitor-${ID}` }]);
    expect(trackedScrapeOptions(undefined, ID).formats).toEqual([{ type: 'markdown' }, { type: 'changeTracking', modes: ['git-diff'], tag: `monitor-${ID}` }]);
    expect(scrapeOptionsSchema.parse(so).formats).toEqual(so.formats);
  });
});
