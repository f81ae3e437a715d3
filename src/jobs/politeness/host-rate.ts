// What a host's answers do to its budget (AIMD, as TCP and Scrapy's AutoThrottle
// adapt to what the other side can take). Pure: host_release, in the migration
// that made the host_budget table, applies these same formulas in PostgreSQL so
// every worker's answers adapt one shared row; this module states them for the
// code and its tests.
//   ok         concurrency + 1/concurrency (about one more request per full round
//              of answers), interval 5 % shorter (under 1 ms: none), strikes reset;
//   slow       (slower than HOST_SLOW_RESPONSE_MS) concurrency x 0.75;
//   throttled  (429, 503) concurrency halved, interval doubled (at least 50 ms),
//              the host paused for Retry-After or, without one, for
//              min(backoff max, backoff base x 2^strikes) x jitter (0.5 to 1.5).
// Concurrency stays between 1 and HOST_MAX_CONCURRENCY, the interval at most the backoff max.

/** `pausedUntil` (epoch ms): when the pause a throttled answer set ends, as the shared budget has it (once told). */
export type HostOutcome =
  { kind: 'ok' } | { kind: 'slow' } | { kind: 'throttled'; status: number; retryAfterMs?: number; pausedUntil?: number } | { kind: 'none' };

export interface HostRate {
  concurrency: number;
  intervalMs: number;
  strikes: number;
  /** Epoch ms; no request starts before it. */
  pausedUntil?: number;
}

export interface RateLimits {
  maxConcurrency: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/** The interval a first throttled answer sets when the host had none: 20 requests a second. */
export const THROTTLED_MIN_INTERVAL_MS = 50;
const RECOVERY = 0.95;
const SLOW_FACTOR = 0.75;

/** Jitter spreads the pauses of hosts (and their retries) that were throttled at once. */
export function backoffJitter(random: () => number = Math.random): number {
  return 0.5 + random();
}

/** The backoff of a throttled answer without Retry-After, `strikes` counting the earlier ones in a row. */
export function backoffMs(strikes: number, limits: Pick<RateLimits, 'backoffBaseMs' | 'backoffMaxMs'>, jitter: number): number {
  return Math.min(limits.backoffMaxMs, limits.backoffBaseMs * 2 ** strikes) * jitter;
}

export function nextHostRate(rate: HostRate, outcome: HostOutcome, limits: RateLimits, jitter: number, now: number): HostRate {
  const c = Math.min(limits.maxConcurrency, rate.concurrency);
  switch (outcome.kind) {
    case 'none':
      return rate;
    case 'ok': {
      const interval = rate.intervalMs * RECOVERY;
      return {
        ...rate,
        concurrency: Math.min(limits.maxConcurrency, rate.concurrency + 1 / rate.concurrency),
        intervalMs: interval < 1 ? 0 : interval,
        strikes: 0,
      };
    }
    case 'slow':
      return { ...rate, concurrency: Math.max(1, c * SLOW_FACTOR) };
    case 'throttled': {
      const pause = outcome.retryAfterMs ?? backoffMs(rate.strikes, limits, jitter);
      return {
        concurrency: Math.max(1, c / 2),
        intervalMs: Math.min(limits.backoffMaxMs, Math.max(THROTTLED_MIN_INTERVAL_MS, rate.intervalMs * 2)),
        strikes: rate.strikes + 1,
        pausedUntil: Math.max(rate.pausedUntil ?? 0, now + pause),
      };
    }
  }
}
