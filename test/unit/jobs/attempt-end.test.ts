import { ActivityCancellationDetails } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { attemptEnd } from '../../../src/jobs/batch/attempt-end.ts';

const base = { threw: false, leased: true, attempt: 1, maximumAttempts: 8 };

describe('attemptEnd', () => {
  it('ends the lease of a batch that finished, and does nothing for one that never leased', () => {
    expect(attemptEnd(base)).toBe('end');
    expect(attemptEnd({ ...base, leased: false })).toBe('nothing');
  });

  it('asks for a browser again when the attempt failed and will be retried, leased or not', () => {
    expect(attemptEnd({ ...base, threw: true })).toBe('end-and-wait-again');
    expect(attemptEnd({ ...base, threw: true, leased: false })).toBe('end-and-wait-again');
    expect(attemptEnd({ ...base, threw: true, attempt: 8 })).toBe('end');
  });

  it('does not ask again for a batch whose cancellation was asked for (its crawl was cancelled)', () => {
    expect(attemptEnd({ ...base, threw: true, cancellation: new ActivityCancellationDetails({ cancelRequested: true }) })).toBe('end');
  });

  it('leaves demand and lease to the next attempt once Temporal no longer knows this one', () => {
    for (const cancellation of [new ActivityCancellationDetails({ notFound: true }), new ActivityCancellationDetails({ timedOut: true })]) {
      expect(attemptEnd({ ...base, threw: true, cancellation })).toBe('leave-to-successor');
      expect(attemptEnd({ ...base, threw: false, cancellation })).toBe('leave-to-successor');
    }
  });
});
