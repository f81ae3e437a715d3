import { describe, expect, it } from 'vitest';
import { deliveryOutcome, judgeAttempt } from '../../../src/jobs/webhooks/outbox-attempt.ts';

const HOUR = 3_600_000;
const policy = { initialIntervalMs: 5_000, maxIntervalMs: HOUR, giveUpAfterMs: 24 * HOUR };
const now = Date.parse('2026-01-02T00:00:00Z');
const event = (attempts: number, ageMs: number) => ({ attempts, createdAt: new Date(now - ageMs) });

describe('judgeAttempt', () => {
  it('settles a delivered event now', () => {
    expect(judgeAttempt(policy, event(0, 1000), { outcome: 'delivered', statusCode: 200, durationMs: 12 }, now)).toEqual({
      attempt: 1,
      state: 'delivered',
      error: null,
      nextAttemptAt: new Date(now),
    });
  });

  it('fails an event the receiver refused for good, with its error', () => {
    const verdict = judgeAttempt(policy, event(2, 1000), { outcome: 'final', statusCode: 410, durationMs: 5, error: 'HTTP 410' }, now);
    expect(verdict).toEqual({ attempt: 3, state: 'failed', error: 'HTTP 410', nextAttemptAt: new Date(now) });
  });

  it('keeps a retryable failure pending, no sooner than its backoff or the Retry-After the receiver asked for', () => {
    const verdict = judgeAttempt(policy, event(0, 1000), { outcome: 'retry', statusCode: 503, durationMs: 5, retryAfterMs: 60_000 }, now);
    expect(verdict).toMatchObject({ attempt: 1, state: 'pending', error: null });
    expect(verdict.nextAttemptAt.getTime() - now).toBe(60_000);
    const backoff = judgeAttempt(policy, event(0, 1000), { outcome: 'retry', durationMs: 5, error: 'timed out' }, now);
    expect(backoff.nextAttemptAt.getTime() - now).toBeGreaterThanOrEqual(4_000);
    expect(backoff.nextAttemptAt.getTime() - now).toBeLessThanOrEqual(6_000);
  });

  it('gives a retryable failure up once the event is as old as the policy allows, saying why', () => {
    const verdict = judgeAttempt(policy, event(9, 24 * HOUR), { outcome: 'retry', statusCode: 502, durationMs: 5 }, now);
    expect(verdict).toEqual({ attempt: 10, state: 'failed', error: 'Gave up after 10 attempts over 24 h; last: HTTP 502', nextAttemptAt: new Date(now) });
  });
});

describe('deliveryOutcome', () => {
  it('sorts attempts for the metrics', () => {
    expect(deliveryOutcome('delivered', { outcome: 'delivered', statusCode: 200, durationMs: 1 })).toBe('delivered');
    expect(deliveryOutcome('pending', { outcome: 'retry', statusCode: 500, durationMs: 1 })).toBe('retried');
    expect(deliveryOutcome('failed', { outcome: 'retry', statusCode: 500, durationMs: 1 })).toBe('gave_up');
    expect(deliveryOutcome('failed', { outcome: 'final', statusCode: 400, durationMs: 1 })).toBe('rejected');
    expect(deliveryOutcome('failed', { outcome: 'final', durationMs: 1, error: 'blocked address' })).toBe('refused');
  });
});
