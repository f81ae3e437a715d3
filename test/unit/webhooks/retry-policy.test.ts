import { describe, expect, it } from 'vitest';
import { nextAttemptDelayMs, parseRetryAfter, type WebhookRetryPolicy } from '../../../src/jobs/webhooks/retry-policy.ts';

const POLICY: WebhookRetryPolicy = { initialIntervalMs: 1000, maxIntervalMs: 60_000, giveUpAfterMs: 3_600_000 };
// random() = 0.5 is the middle of the jitter range: no jitter at all.
const noJitter = () => 0.5;

describe('nextAttemptDelayMs', () => {
  it('doubles from the initial interval up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50, 5000].map((n) => nextAttemptDelayMs(POLICY, n, undefined, noJitter))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000,
    ]);
  });

  it('treats no attempts made yet as the first', () => {
    expect(nextAttemptDelayMs(POLICY, 0, undefined, noJitter)).toBe(1000);
  });

  it('spreads the delay by ±20 %', () => {
    expect(nextAttemptDelayMs(POLICY, 3, undefined, () => 0)).toBe(3200);
    expect(nextAttemptDelayMs(POLICY, 3, undefined, () => 0.999_999)).toBe(4800);
    expect(nextAttemptDelayMs(POLICY, 10, undefined, () => 0)).toBe(48_000);
    for (let i = 0; i < 200; i++) {
      const delay = nextAttemptDelayMs(POLICY, 2);
      expect(delay).toBeGreaterThanOrEqual(1600);
      expect(delay).toBeLessThanOrEqual(2400);
    }
  });

  it('waits at least as long as Retry-After asked, even past the cap', () => {
    expect(nextAttemptDelayMs(POLICY, 1, 7000, noJitter)).toBe(7000);
    expect(nextAttemptDelayMs(POLICY, 1, 0, noJitter)).toBe(1000);
    expect(nextAttemptDelayMs(POLICY, 4, 2000, noJitter)).toBe(8000);
    expect(nextAttemptDelayMs(POLICY, 20, 600_000, () => 0.999)).toBe(600_000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('0', now)).toBe(0);
  });

  it.each([
    ['IMF-fixdate', 'Sun, 01 Mar 2026 12:00:30 GMT'],
    ['RFC 850', 'Sunday, 01-Mar-26 12:00:30 GMT'],
    ['asctime', 'Sun Mar  1 12:00:30 2026'],
  ])('reads an HTTP-date (%s)', (_form, value) => {
    expect(parseRetryAfter(value, now)).toBe(30_000);
  });

  it('makes a past date no wait at all', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
  });

  it.each([undefined, '', 'soon', '-5', '1.5', '7 seconds', '2026-03-01T12:00:30Z', 'Sun, 01 Mar 2026'])('gives undefined for %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});
