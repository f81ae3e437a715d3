// When to try a failed webhook delivery again: exponential backoff, spread by
// jitter so that the deliveries a receiver failed together do not all come
// back at the same moment, and never sooner than the receiver asked.

export interface WebhookRetryPolicy {
  initialIntervalMs: number;
  /** Cap on the backoff before jitter, so a delay can land up to 20 % above it. */
  maxIntervalMs: number;
  /** How long after the first attempt a delivery stops being retried. */
  giveUpAfterMs: number;
}

const JITTER = 0.2;

/**
 * The wait before the next attempt, after `attemptsMade` failed ones:
 * initialIntervalMs doubling per attempt up to maxIntervalMs, ±20 % jitter, and
 * at least `retryAfterMs` (a receiver's Retry-After wins even over the cap).
 */
export function nextAttemptDelayMs(policy: WebhookRetryPolicy, attemptsMade: number, retryAfterMs?: number, random = Math.random): number {
  const backoff = Math.min(policy.initialIntervalMs * 2 ** Math.max(0, attemptsMade - 1), policy.maxIntervalMs);
  const jittered = Math.round(backoff * (1 - JITTER + 2 * JITTER * random()));
  return Math.max(jittered, retryAfterMs ?? 0);
}

// The three HTTP-date forms RFC 9110 §5.6.7 requires recipients to accept:
// IMF-fixdate, obsolete RFC 850 and asctime. Date.parse alone would also take
// values such as "1.5" as dates.
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC850_DATE = /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME_DATE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/** A Retry-After header in milliseconds from `now`: delta-seconds or an HTTP-date (0 once past); undefined when unparseable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  const text = value?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  let date = NaN;
  if (IMF_FIXDATE.test(text) || RFC850_DATE.test(text)) date = Date.parse(text);
  // asctime carries no zone but means GMT; Date.parse would read it as local time.
  else if (ASCTIME_DATE.test(text)) date = Date.parse(`${text} GMT`);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
