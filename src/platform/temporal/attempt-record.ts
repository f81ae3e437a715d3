// An activity attempt records, while it runs, which worker process runs it and its
// task token (`activity_attempt`). If that process dies, a live worker fails the
// attempt by its token (abandoned-attempts.ts), so Temporal retries it at once. The
// token names this one attempt: failing it can never fail a later attempt of the
// same activity, which may already run on a live worker.
import { Context } from '@temporalio/activity';
import type { Db } from '../db/prisma.ts';
import type { Logger } from '../log.ts';
import { WORKER_PROCESS_ID } from '../process/worker-liveness.ts';
import { heartbeatIntervalMs, heartbeatWhile } from './heartbeat-while.ts';

export interface AttemptRecordOptions {
  /**
   * What the attempt leases (team slots, host turns) has holders `<holderPrefix>:…`; they are freed
   * with a dead attempt. Recorded with its colon, so attempt 3's prefix never covers attempt 30's.
   */
  holderPrefix?: string;
}

/** Runs the current activity's body with its attempt recorded against this worker process. */
export async function withAttemptRecord<T>(deps: { db: Db; log: Logger }, opts: AttemptRecordOptions, run: () => Promise<T>): Promise<T> {
  const { info } = Context.current();
  const workflowId = info.workflowExecution?.workflowId;
  const runId = info.workflowExecution?.runId;
  // Only workflow activities have a run to retry them. A local activity has no task of its own to
  // fail: if its worker dies, its workflow task times out and the next worker runs it again.
  if (workflowId === undefined || runId === undefined || info.isLocal) return run();
  const key = { workflowId, runId, activityId: info.activityId, attempt: info.attempt };
  await deps.db.$executeRaw`
    INSERT INTO activity_attempt (workflow_id, run_id, activity_id, attempt, task_token, worker_process, slot_holder_prefix)
    VALUES (${workflowId}, ${runId}, ${info.activityId}, ${info.attempt}, ${Buffer.from(info.taskToken)}, ${WORKER_PROCESS_ID}, ${opts.holderPrefix === undefined ? null : `${opts.holderPrefix}:`})
    ON CONFLICT DO NOTHING`;
  try {
    return await run();
  } finally {
    await deps.db.activityAttempt
      .deleteMany({ where: key })
      .catch((err: unknown) => deps.log.warn('activity attempt record not deleted', { ...key, error: (err as Error).message }));
  }
}

/**
 * withAttemptRecord inside heartbeatWhile: the attempt heartbeats from its record's first statement
 * to its deletion. A database that stops answering for longer than the heartbeat timeout while the
 * record is written or deleted would otherwise get the attempt timed out and retried while it goes
 * on: two attempts at once.
 */
export function heartbeatingAttempt<T>(
  deps: { db: Db; log: Logger },
  opts: AttemptRecordOptions & { heartbeatTimeoutMs: number; details?: () => unknown },
  run: () => Promise<T>,
): Promise<T> {
  return heartbeatWhile(heartbeatIntervalMs(opts.heartbeatTimeoutMs), () => withAttemptRecord(deps, opts, run), opts.details);
}

type ActivityFunctions = Record<string, (...args: never[]) => Promise<unknown>>;

/**
 * The current activity attempt's own holder prefix (workflow, activity and attempt), for what it
 * leases outside team slots (a host turn): recordingAttempts records it, so a dead worker's attempt
 * has those freed with it.
 */
export function attemptHolderPrefix(): string {
  const { info } = Context.current();
  return `${info.workflowExecution?.workflowId ?? 'local'}:${info.activityId}:${info.attempt}`;
}

/**
 * The same activities, each attempt recorded as withAttemptRecord does: for a feature's
 * activities that may run long (model calls, tools, delivery rounds), so that a dead worker's
 * attempt is retried within seconds instead of after its heartbeat or start-to-close timeout,
 * and what it leased under attemptHolderPrefix() is freed.
 */
export function recordingAttempts<T extends ActivityFunctions>(deps: { db: Db; log: Logger }, activities: T): T {
  const wrapped: ActivityFunctions = {};
  for (const [name, fn] of Object.entries(activities))
    wrapped[name] = (...args) => withAttemptRecord(deps, { holderPrefix: attemptHolderPrefix() }, () => fn(...args));
  return wrapped as T;
}
