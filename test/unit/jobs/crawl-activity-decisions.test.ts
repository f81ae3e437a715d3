import { describe, expect, it } from 'vitest';
import { runSettings, type RunSettingsJob } from '../../../src/jobs/run-settings.ts';
import { CREDITS_WARNING, ROBOTS_WARNING, finishWarning } from '../../../src/jobs/finish-crawl.ts';
import { sitemapUrlBudget } from '../../../src/jobs/plan-crawl.ts';

const config = {
  crawl: { pagesPerBrowser: 8, batchSize: 500, heartbeatTimeoutMs: 60_000, historyEventBudget: 3000, progressIntervalMs: 10_000, pauseMaxHours: 72 },
  temporal: { browserTaskQueue: 'browser' },
} as Parameters<typeof runSettings>[0];

const job = (kind: string, over: Partial<RunSettingsJob['options']> = {}, concurrencyLimit = 20): RunSettingsJob => ({
  crawl: { kind, url: 'https://example.com/docs', teamId: 'team-1', team: { concurrencyLimit } },
  options: over,
});

describe('runSettings', () => {
  it('spreads a crawl over browsers by its team limit and names its site', () => {
    expect(runSettings(config, job('crawl'))).toEqual({
      parallelBatches: 3,
      pagesPerBatch: 6,
      batchSize: 500,
      heartbeatTimeoutMs: 60_000,
      historyEventBudget: 3000,
      browserTaskQueue: 'browser',
      hasWebhook: false,
      teamId: 'team-1',
      site: 'example.com',
      discoversLinks: true,
      progressIntervalMs: 10_000,
      singleScrape: false,
      pauseMaxMs: 72 * 3_600_000,
    });
  });

  it('runs a single scrape in one batch of one page, whatever its maxConcurrency', () => {
    const settings = runSettings(config, job('scrape', { maxConcurrency: 50 }));
    expect(settings).toMatchObject({ parallelBatches: 1, pagesPerBatch: 1, singleScrape: true, discoversLinks: false, site: 'example.com' });
  });

  it('makes every page of a delayed crawl its own batch, the delay a timer in milliseconds', () => {
    expect(runSettings(config, job('crawl', { delay: 1.5 }))).toMatchObject({ parallelBatches: 1, pagesPerBatch: 1, batchSize: 1, delayMs: 1500 });
  });

  it('names no site for a batch scrape and says when a webhook waits for events', () => {
    const settings = runSettings(config, job('batch_scrape', { webhook: { url: 'https://hooks.example/x' } as never }));
    expect(settings.site).toBeUndefined();
    expect(settings).toMatchObject({ hasWebhook: true, discoversLinks: false, singleScrape: false });
  });
});

describe('finishWarning', () => {
  it('prefers running out of credits to pages robots.txt kept out, and says nothing otherwise', () => {
    expect(finishWarning(true, 3)).toBe(CREDITS_WARNING);
    expect(finishWarning(false, 3)).toBe(ROBOTS_WARNING);
    expect(finishWarning(false, 0)).toBeNull();
  });
});

describe('sitemapUrlBudget', () => {
  const crawl = { queuedUrlsPerCredit: 2, sitemapTotalMaxUrls: 100_000 };
  const read = (limit: number, creditBalance: number) => ({ crawl: { team: { creditBalance } }, options: { limit } });

  it('reads four candidates per URL the frontier can still admit', () => {
    expect(sitemapUrlBudget(crawl, read(100, 1_000))).toBe(400);
    // The team's balance admits 2 URLs per credit.
    expect(sitemapUrlBudget(crawl, read(10_000, 50))).toBe(400);
  });

  it('reads none for a team without credits and never more than the deployment cap', () => {
    expect(sitemapUrlBudget(crawl, read(100, -5))).toBe(0);
    expect(sitemapUrlBudget(crawl, read(1_000_000, 10_000_000))).toBe(100_000);
  });
});
