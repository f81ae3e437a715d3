import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';

afterEach(() => vi.unstubAllEnvs());

describe('page and URL limit settings', () => {
  it('have the documented defaults', () => {
    const { crawl } = loadConfig();
    expect(crawl).toMatchObject({
      maxUrlLength: 2048,
      maxPageBytes: 10 * 1024 * 1024,
      maxFileBytes: 50 * 1024 * 1024,
      maxDocumentBytes: 50 * 1024 * 1024,
      queuedUrlsPerCredit: 2,
      sitemapTotalMaxUrls: 100_000,
    });
  });

  it('refuse a URL length the unique index on URL keys could not hold', () => {
    vi.stubEnv('CRAWL_MAX_URL_LENGTH', '3000');
    expect(() => loadConfig()).toThrow(/CRAWL_MAX_URL_LENGTH must be between 256 and 2500/);
    vi.stubEnv('CRAWL_MAX_URL_LENGTH', '2500');
    expect(loadConfig().crawl.maxUrlLength).toBe(2500);
  });

  it('refuse a document limit PostgreSQL jsonb could not store', () => {
    vi.stubEnv('CRAWL_MAX_DOCUMENT_BYTES', String(300 * 1024 * 1024));
    expect(() => loadConfig()).toThrow(/CRAWL_MAX_DOCUMENT_BYTES must be between/);
  });

  it('refuse zero where a positive amount is needed', () => {
    vi.stubEnv('CRAWL_MAX_PAGE_BYTES', '0');
    expect(() => loadConfig()).toThrow(/CRAWL_MAX_PAGE_BYTES must be at least 1/);
  });

  it("bound the worker's heap growth to what V8 can do", () => {
    expect(loadConfig().worker.heapGrowthPercent).toBe(50);
    vi.stubEnv('WORKER_HEAP_GROWTH_PERCENT', '400');
    expect(() => loadConfig()).toThrow(/WORKER_HEAP_GROWTH_PERCENT must be between 0 and 300/);
    vi.stubEnv('WORKER_HEAP_GROWTH_PERCENT', '0');
    expect(loadConfig().worker.heapGrowthPercent).toBe(0);
  });

  it('keep a dead worker verdict well above the worker heartbeat (2 s)', () => {
    expect(loadConfig().worker.deadAfterMs).toBe(10_000);
    vi.stubEnv('WORKER_DEAD_AFTER_MS', '4000');
    expect(() => loadConfig()).toThrow(/WORKER_DEAD_AFTER_MS must be between 6000 and 3600000 \(a worker heartbeats every 2 s; three beats must fit in it\)/);
    vi.stubEnv('WORKER_DEAD_AFTER_MS', '6000');
    expect(loadConfig().worker.deadAfterMs).toBe(6000);
  });
});

describe('parse settings', () => {
  it('have the documented defaults and read their variables', () => {
    expect(loadConfig().parse).toEqual({
      maxFileBytes: 50 * 1024 * 1024,
      maxInflightBytes: 200 * 1024 * 1024,
      maxUnpackedBytes: 200 * 1024 * 1024,
      conversionThreads: 1,
      conversionTimeoutMs: 60_000,
    });
    vi.stubEnv('PARSE_MAX_FILE_BYTES', '1024');
    vi.stubEnv('PARSE_MAX_UNPACKED_BYTES', '2048');
    vi.stubEnv('PARSE_MAX_INFLIGHT_BYTES', '4096');
    expect(loadConfig().parse).toMatchObject({ maxFileBytes: 1024, maxUnpackedBytes: 2048, maxInflightBytes: 4096 });
  });

  it('refuse a file cap of zero', () => {
    vi.stubEnv('PARSE_MAX_FILE_BYTES', '0');
    expect(() => loadConfig()).toThrow(/PARSE_MAX_FILE_BYTES/);
  });
});

describe('scrape resume settings', () => {
  it('have the documented defaults and read their variables', () => {
    expect(loadConfig().scrape).toMatchObject({ pageBudgetMs: 120_000, resumeRetryAfterSeconds: 5, resumeWindowSeconds: 600 });
    vi.stubEnv('SCRAPE_PAGE_BUDGET_MS', '30000');
    vi.stubEnv('SCRAPE_RESUME_RETRY_AFTER_SECONDS', '30');
    vi.stubEnv('SCRAPE_RESUME_WINDOW_SECONDS', '60');
    expect(loadConfig().scrape).toMatchObject({ pageBudgetMs: 30_000, resumeRetryAfterSeconds: 30, resumeWindowSeconds: 60 });
  });

  it('refuse a page budget past the longest timeout, and a window a resume sent when told could miss', () => {
    vi.stubEnv('SCRAPE_PAGE_BUDGET_MS', '300001');
    expect(() => loadConfig()).toThrow(/SCRAPE_PAGE_BUDGET_MS must be between 1000 and 300000/);
    vi.unstubAllEnvs();
    vi.stubEnv('SCRAPE_RESUME_RETRY_AFTER_SECONDS', '60');
    vi.stubEnv('SCRAPE_RESUME_WINDOW_SECONDS', '100');
    expect(() => loadConfig()).toThrow(/SCRAPE_RESUME_WINDOW_SECONDS must be at least twice SCRAPE_RESUME_RETRY_AFTER_SECONDS/);
  });
});
