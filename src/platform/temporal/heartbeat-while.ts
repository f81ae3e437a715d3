// An activity that heartbeats on a clock while it works, not at chosen points: a
// fetch or a transaction that takes longer than the heartbeat timeout does not
// get the activity declared dead, and a timeout short enough to notice a killed
// worker within seconds stays safe.
import { Context } from '@temporalio/activity';

/** How often to heartbeat under a heartbeat timeout: four times per timeout, at most once a second. */
export function heartbeatIntervalMs(heartbeatTimeoutMs: number): number {
  return Math.max(1000, heartbeatTimeoutMs / 4);
}

/** Runs `work`, heartbeating `details()` every `intervalMs` until it settles (as a local activity, just runs it). */
export async function heartbeatWhile<T>(intervalMs: number, work: () => Promise<T>, details?: () => unknown): Promise<T> {
  const ctx = Context.current();
  // A local activity has no heartbeat: its workflow task's timeout stands for it.
  if (ctx.info.isLocal) return work();
  const ticker = setInterval(() => ctx.heartbeat(details?.()), intervalMs);
  try {
    return await work();
  } finally {
    clearInterval(ticker);
  }
}
