// The job engine's sections of the settings (src/config.ts composes them all): how crawls,
// batches and single scrapes run. The crawl section's network settings are the platform's
// (platform/net/config.ts); a map's settings join the scrape section there (features/map/config.ts).
import { availableParallelism } from 'node:os';
import { boundedInt, int, MB, nonNegativeInt, oneOf, positiveInt } from '../platform/config/env.ts';
import type { ChromiumSettings } from '../platform/browser/config.ts';
import type { DatabaseSettings } from '../platform/db/config.ts';
import type { LlmServiceSettings } from '../platform/llm/config.ts';
import { crawlNetworkConfig } from '../platform/net/config.ts';
import type { EndpointSettings } from '../platform/net/service-endpoints.ts';
import type { TemporalSettings, WorkerSettings } from '../platform/temporal/config.ts';
import type { OcrSettings } from '../page/ocr/config.ts';
import type { WebhookSettings } from './webhooks/config.ts';
import { hostBudgetConfig } from './politeness/config.ts';

/** How running jobs report their progress, and how long one may stay paused. */
function progressAndPauseConfig() {
  return {
    /**
     * How often a running batch reports the job's counts to its workflow (a signal, when its pages changed
     * them) and asks whether to stop (pause, adjust; a query); the workflow upserts PagesCrawled and
     * PagesQueued at most twice per interval (each is a history event). See docs/job-engine.md.
     */
    progressIntervalMs: int('CRAWL_PROGRESS_INTERVAL_MS', 10_000),
    /**
     * A paused crawl or batch scrape that is not resumed within this many hours is cancelled (and then
     * expires CRAWL_RETENTION_HOURS later, as any ended job): a forgotten pause does not keep a job forever.
     */
    pauseMaxHours: positiveInt('CRAWL_PAUSE_MAX_HOURS', 72),
  };
}

export function crawlConfig() {
  return {
    /** Most URLs one activity claims (as they are found); one browser serves the whole batch, so bigger batches spend less on browser start-up (bench/crawl.ts). */
    batchSize: int('CRAWL_BATCH_SIZE', 500),
    /** Pages in flight per browser (Crawlee's fixed concurrency). */
    pagesPerBrowser: int('CRAWL_PAGES_PER_BROWSER', 8),
    /** A crawl's workflow continues as new past this many history events (Temporal suggests it at 4,096). */
    historyEventBudget: int('CRAWL_HISTORY_EVENT_BUDGET', 3000),
    ...progressAndPauseConfig(),
    /**
     * A batch that has held its browser this long gives it up when a crawl whose share of browsers is
     * no bigger than its own has been waiting (a crawl with fewer browsers gets one at once).
     */
    browserTimeSliceMs: positiveInt('CRAWL_BROWSER_TIME_SLICE_MS', 10_000),
    /** A batch whose worker stops heartbeating this long is retried elsewhere. */
    heartbeatTimeoutMs: int('CRAWL_HEARTBEAT_TIMEOUT_MS', 60_000),
    /**
     * How long the gateway (and the worker's reconciler) waits for Temporal to confirm a crawl's
     * workflow start; a start not confirmed by then is left to the reconciler.
     */
    startTimeoutMs: positiveInt('CRAWL_START_TIMEOUT_MS', 5_000),
    /** Crawls one team may have running (status scraping) at once; POST /v2/crawl answers 429 beyond. */
    maxActivePerTeam: positiveInt('TEAM_MAX_ACTIVE_CRAWLS', 50),
    /** How long results stay readable after a crawl ends. */
    retentionHours: int('CRAWL_RETENTION_HOURS', 24),
    /** How often the scheduled purge deletes expired crawls and old cache entries. */
    purgeIntervalMinutes: int('CRAWL_PURGE_INTERVAL_MINUTES', 60),
    /** Cached page loads older than this are deleted (maxAge can never reach past it). */
    cacheRetentionHours: int('PAGE_CACHE_RETENTION_HOURS', 168),
    ...crawlNetworkConfig(),
    ...hostBudgetConfig(),
    /** Bytes of a robots.txt that are read, as Google does (500 KiB); the rest is ignored from the last line break before it. */
    robotsMaxBytes: positiveInt('CRAWL_ROBOTS_MAX_BYTES', 512_000),
    /** Sitemap fetches per crawl, sitemap indexes included. */
    maxSitemaps: positiveInt('CRAWL_MAX_SITEMAPS', 20),
    /** A sitemap bigger than this as received or once inflated is skipped (the sitemap protocol's 50 MB). */
    sitemapMaxBytes: positiveInt('CRAWL_SITEMAP_MAX_BYTES', 52_428_800),
    /** Entries read from one sitemap (the sitemap protocol's 50,000); the rest are ignored. */
    sitemapMaxUrls: positiveInt('CRAWL_SITEMAP_MAX_URLS', 50_000),
    /**
     * browser: every page in Chromium; auto: over HTTP first, Chromium when the page needs it
     * (page/rendering/needs-browser.ts); http: never Chromium (requests that need it are refused).
     */
    rendering: oneOf('CRAWL_RENDERING', ['browser', 'auto', 'http'] as const, 'auto'),
    /**
     * A single scrape that needs Chromium opens a fresh context in a browser the worker keeps running
     * (platform/browser/warm-browser.ts), closed after this long unused; 0: a browser per scrape, as a crawl batch.
     */
    warmBrowserIdleMs: nonNegativeInt('CRAWL_WARM_BROWSER_IDLE_MS', 300_000),
    /** Threads that turn pages into documents beside the worker's event loop (0: on the event loop itself). */
    conversionThreads: nonNegativeInt('CRAWL_CONVERSION_THREADS', Math.max(1, Math.min(4, availableParallelism() - 1))),
    /** Longest a page's conversion may take; the page then fails and its thread is replaced. */
    conversionTimeoutMs: positiveInt('CRAWL_CONVERSION_TIMEOUT_MS', 60_000),
    /** Images of a page taken over HTTP whose size is read from their first bytes, for the search index (0: none). */
    imageProbes: nonNegativeInt('CRAWL_IMAGE_PROBES', 20),
    /** Bytes of an image fetched to read its size; its header must lie within them. */
    imageProbeBytes: positiveInt('CRAWL_IMAGE_PROBE_BYTES', 65_536),
    /** Time all the image probes of one page share. */
    imageProbeTimeoutMs: positiveInt('CRAWL_IMAGE_PROBE_TIMEOUT_MS', 5_000),
    /**
     * Longest URL, and URL key, a crawl admits (characters; both are ASCII once parsed). The key
     * is unique-indexed, and a B-tree entry cannot pass 2,704 bytes, so the cap stays well below.
     */
    maxUrlLength: boundedInt('CRAWL_MAX_URL_LENGTH', 2048, 256, 2500, 'the URL key is unique-indexed and an index entry holds at most 2,704 bytes'),
    /** Largest page HTML (UTF-8 bytes) turned into a document; a larger page is a failed page. */
    maxPageBytes: positiveInt('CRAWL_MAX_PAGE_BYTES', 10 * MB),
    /** Largest file (PDF, download) fetched outside the browser; a larger one is a failed page. */
    maxFileBytes: positiveInt('CRAWL_MAX_FILE_BYTES', 50 * MB),
    /** Largest stored document (its JSON, every format together); PostgreSQL's jsonb stops at 255 MB. */
    maxDocumentBytes: boundedInt('CRAWL_MAX_DOCUMENT_BYTES', 50 * MB, 1, 200 * MB, 'a jsonb value holds at most 255 MB'),
    /** A crawl admits no new URL while more URLs wait in its queue than this many per credit of its team's balance. */
    queuedUrlsPerCredit: positiveInt('CRAWL_QUEUED_URLS_PER_CREDIT', 2),
    /** Most page URLs read from all of a crawl's sitemaps together (before filters), whatever its limit. */
    sitemapTotalMaxUrls: positiveInt('CRAWL_SITEMAP_TOTAL_MAX_URLS', 100_000),
  };
}

export type CrawlSettings = ReturnType<typeof crawlConfig>;

/** The resume of a POST /v2/scrape that answered 408 (scrape-resume.ts). */
function scrapeResume() {
  /** Retry-After of a scrape's 408 whose job goes on: when the SDKs send the request again (they wait at least 5 s). */
  const resumeRetryAfterSeconds = boundedInt('SCRAPE_RESUME_RETRY_AFTER_SECONDS', 5, 1, 600, 'seconds from 1 to 600, the longest wait the SDKs honour');
  /** How long after its latest 408 an ended scrape still answers the same request sent again (its resume). */
  const resumeWindowSeconds = boundedInt('SCRAPE_RESUME_WINDOW_SECONDS', 600, 10, 86_400, 'seconds from 10 to 86400');
  if (resumeWindowSeconds < 2 * resumeRetryAfterSeconds) {
    throw new Error(
      `SCRAPE_RESUME_WINDOW_SECONDS must be at least twice SCRAPE_RESUME_RETRY_AFTER_SECONDS (a resume sent when told must find its scrape), got ${resumeWindowSeconds} and ${resumeRetryAfterSeconds}`,
    );
  }
  return { resumeRetryAfterSeconds, resumeWindowSeconds };
}

/** Single and batch scrapes. */
export function scrapeConfig() {
  return {
    /** URLs one POST /v2/batch/scrape may name (appendToId adds more to a running batch). */
    batchMaxUrls: positiveInt('BATCH_SCRAPE_MAX_URLS', 10_000),
    /**
     * How long the page of a POST /v2/scrape may take to load (or `timeout`, when longer): past the
     * request's `timeout` the answer is a 408 and the page's work goes on this long. At most 5
     * minutes, the longest `timeout`, which the scrape batch's claim window is sized for.
     */
    pageBudgetMs: boundedInt('SCRAPE_PAGE_BUDGET_MS', 120_000, 1000, 300_000, 'milliseconds from 1000 to 300000, the longest scrape timeout'),
    ...scrapeResume(),
  };
}

export type ScrapeSettings = ReturnType<typeof scrapeConfig>;

/**
 * The sections the job engine reads, its own and those of the platform and page code it runs: what
 * its deps carry (a feature that calls the engine passes its own deps, whose settings include these).
 */
export type JobSettings = EndpointSettings & {
  crawl: CrawlSettings;
  scrape: ScrapeSettings;
  webhooks: WebhookSettings;
  temporal: TemporalSettings;
  worker: WorkerSettings;
  database: DatabaseSettings;
  llm: LlmServiceSettings;
  chromium: ChromiumSettings;
  ocr: OcrSettings;
  /** The search feature's setting (features/search/config.ts) that decides whether stored pages are indexed. */
  search: { indexPages: boolean };
};
