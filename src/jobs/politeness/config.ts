// Settings of the per-host politeness budget every job shares (jobs/politeness/),
// part of the crawl section (jobs/config.ts).
import { boundedInt, nonNegativeInt, positiveInt } from '../../platform/config/env.ts';

export function hostBudgetConfig() {
  return {
    /**
     * Requests in flight at one host, across every job, team and worker. Twice the pages of one
     * browser (CRAWL_PAGES_PER_BROWSER) and of the benchmark's crawl: one crawl runs at its full
     * concurrency on a site that keeps up, while all of them together stay bounded.
     */
    hostMaxConcurrency: positiveInt('HOST_MAX_CONCURRENCY', 16),
    /** Least time between two request starts at one host (robots.txt's Crawl-delay and throttling can ask for more). */
    hostMinIntervalMs: nonNegativeInt('HOST_MIN_INTERVAL_MS', 0),
    /** Longest Crawl-delay of a robots.txt that is honoured; a larger one counts as this. */
    hostMaxCrawlDelaySeconds: boundedInt('HOST_MAX_CRAWL_DELAY_SECONDS', 30, 0, 3600, 'seconds from 0 to 3600'),
    /** Longest Retry-After of a throttled answer that is honoured; a larger one counts as this. */
    hostRetryAfterMaxSeconds: boundedInt('HOST_RETRY_AFTER_MAX_SECONDS', 60, 1, 3600, 'seconds from 1 to 3600'),
    /** First pause of a host that throttles without Retry-After; doubled for each throttled answer in a row. */
    hostBackoffBaseMs: positiveInt('HOST_BACKOFF_BASE_MS', 1000),
    /** Longest backoff pause, and longest interval between request starts that throttling sets. */
    hostBackoffMaxMs: positiveInt('HOST_BACKOFF_MAX_MS', 60_000),
    /** An answer slower than this counts as the host slowing down: it gets fewer requests at once. */
    hostSlowResponseMs: positiveInt('HOST_SLOW_RESPONSE_MS', 5000),
    /** Throttled answers (429, 503) one page takes before it fails; each waits for its host's pause. */
    hostThrottleMaxRetries: boundedInt('HOST_THROTTLE_MAX_RETRIES', 6, 0, 100, 'from 0 to 100'),
  };
}

export type HostBudgetSettings = ReturnType<typeof hostBudgetConfig>;
