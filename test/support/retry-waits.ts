// The waits between the attempts of a Temporal retry policy, as Temporal schedules
// them: the initial interval, times the coefficient per attempt, capped.
import type { RetryPolicy } from '@temporalio/common';
import { msToNumber } from '@temporalio/common/lib/time.js';

export function retryWaitsMs(policy: RetryPolicy): number[] {
  const waits: number[] = [];
  let wait = msToNumber(policy.initialInterval ?? '1s');
  for (let attempt = 1; attempt < policy.maximumAttempts!; attempt++) {
    waits.push(Math.min(wait, msToNumber(policy.maximumInterval!)));
    wait *= policy.backoffCoefficient ?? 2;
  }
  return waits;
}
