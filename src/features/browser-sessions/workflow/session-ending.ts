// How a session's workflow ends it: the status it records and whether it bills. Pure, so the rule
// is tested without Temporal.
import type { SessionStatus } from '../protocol/definitions.ts';

/**
 * How a session ends: failed (`error`) when its browser failed or its start went unanswered; unbilled when the caller
 * never had it, its browser never having come up (a failed launch, a lost host) or its start having gone unanswered.
 */
export function sessionEnding(q: { failure?: string; startUnanswered?: string; status: SessionStatus }): { failed: boolean; unbilled: boolean } {
  const failed = q.failure !== undefined || q.startUnanswered !== undefined;
  return { failed, unbilled: q.startUnanswered !== undefined || (failed && q.status === 'starting') };
}
