// What a batch attempt does with its browser demand and lease as it ends. Every attempt of a
// batch shares one holder (the batch key), so an attempt must not touch them once a later
// attempt may own them: Temporal already timed it out (its heartbeats did not get through while
// Temporal was unreachable) and started the next, which met the demand and took the lease. Were
// it to end that lease and ask again, the live attempt would lose its lease and a demand nobody
// meets would stay queued, the crawl's batches yielding their browsers to it.
import type { ActivityCancellationDetails } from '@temporalio/common';

export type AttemptEnd = 'end' | 'end-and-wait-again' | 'leave-to-successor' | 'nothing';

export function attemptEnd(q: {
  threw: boolean;
  leased: boolean;
  attempt: number;
  maximumAttempts: number;
  cancellation?: ActivityCancellationDetails;
}): AttemptEnd {
  if (q.cancellation?.notFound || q.cancellation?.timedOut) return 'leave-to-successor';
  const willRetry = q.threw && !q.cancellation?.cancelRequested && q.attempt < q.maximumAttempts;
  if (willRetry) return 'end-and-wait-again';
  return q.leased ? 'end' : 'nothing';
}
