// The shared retry policies end, and take the time their comments and the docs
// (extract's and monitors' webhook events) say they take.
import { describe, expect, it } from 'vitest';
import { CONTROL_RETRY } from '../../../src/jobs/retry-policies.ts';
import { DATABASE_RETRY, JOB_PARENT_RETRY, WEBHOOK_SEND_RETRY } from '../../../src/platform/temporal/retry-policies.ts';
import { retryWaitsMs } from '../../support/retry-waits.ts';

const minutes = (ms: number) => ms / 60_000;
const total = (waits: number[]) => waits.reduce((a, b) => a + b, 0);

describe('shared retry policies', () => {
  it('retry database work for about 30 minutes', () => {
    expect(minutes(total(retryWaitsMs(DATABASE_RETRY)))).toBeCloseTo(29, 0);
  });

  it('retry a step of a workflow running engine jobs for about 14 minutes', () => {
    expect(minutes(total(retryWaitsMs(JOB_PARENT_RETRY)))).toBeCloseTo(14, 0);
  });

  it('send a webhook 12 times, 2 s doubling to 5 minutes apart, over about 24 minutes', () => {
    const waits = retryWaitsMs(WEBHOOK_SEND_RETRY);
    expect(waits).toHaveLength(11);
    expect(waits.slice(0, 3)).toEqual([2_000, 4_000, 8_000]);
    expect(Math.max(...waits)).toBe(5 * 60_000);
    expect(minutes(total(waits))).toBeCloseTo(23.5, 0);
  });

  it('keep the crawl control policy the database one, ending at once for a crawl that is gone', () => {
    expect(CONTROL_RETRY).toEqual({ ...DATABASE_RETRY, nonRetryableErrorTypes: ['CrawlNotFound'] });
  });
});
