// The attempts of dead worker processes, failed at once. An attempt's row names its
// process (attempt-record.ts); a process whose row has not been refreshed for
// WORKER_DEAD_AFTER_MS is dead (process/worker-liveness.ts). A live worker fails each
// such attempt through Temporal by its task token, so it is retried at once on a
// live worker instead of after its heartbeat timeout, and frees the team slots the
// dead attempt held (their leases would otherwise last twice that timeout), and
// whatever else its caller leases under the attempt's holder prefix (host turns).
// Safe with every worker doing it at once: a token names one attempt, and an attempt
// that has already ended answers "not found", which is the outcome wanted anyway.
import { ActivityNotFoundError, type Client } from '@temporalio/client';
import type { Db } from '../db/prisma.ts';
import type { Logger } from '../log.ts';
import { releaseTeamSlotsByPrefix } from '../teams/team-slots.ts';

/** Most attempts failed in one pass; the next pass takes the rest. */
const ATTEMPTS_PER_PASS = 100;
/** Records of attempts older than this are left over (no attempt runs that long): deleted. */
const ATTEMPT_RECORD_KEPT_MS = 24 * 3_600_000;

export interface AbandonedAttempt {
  workflowId: string;
  runId: string;
  activityId: string;
  attempt: number;
  taskToken: Uint8Array;
  workerProcess: string;
  slotHolderPrefix: string | null;
  /** How long the process has not heartbeated. */
  silentMs: number;
}

/**
 * Attempts of processes other than `self` that have not heartbeated for `deadAfterMs`. Silence is
 * counted from the database's own start too: after a PostgreSQL restart no process could beat.
 */
export async function findAbandonedAttempts(db: Db, q: { self: string; deadAfterMs: number }): Promise<AbandonedAttempt[]> {
  return db.$queryRaw<AbandonedAttempt[]>`
    SELECT a.workflow_id AS "workflowId", a.run_id AS "runId", a.activity_id AS "activityId", a.attempt,
           a.task_token AS "taskToken", a.worker_process AS "workerProcess", a.slot_holder_prefix AS "slotHolderPrefix",
           (extract(epoch FROM now() - greatest(p.heartbeat_at, pg_postmaster_start_time())) * 1000)::float8 AS "silentMs"
    FROM activity_attempt a JOIN worker_process p ON p.id = a.worker_process
    WHERE a.worker_process <> ${q.self}
      AND greatest(p.heartbeat_at, pg_postmaster_start_time()) < now() - ${q.deadAfterMs}::int * interval '1 millisecond'
    ORDER BY a.started_at
    LIMIT ${ATTEMPTS_PER_PASS}`;
}

export interface AbandonedAttemptDeps {
  db: Db;
  temporal: Client;
  log: Logger;
  /** Frees what else a dead attempt held under its holder prefix (the job engine's host turns), with its team slots. */
  releaseHeld?: (holderPrefix: string) => Promise<void>;
}

/** Fails every abandoned attempt found, frees its team slots (and `releaseHeld`'s) and forgets it; returns how many attempts Temporal took as failed. */
export async function failAbandonedAttempts(deps: AbandonedAttemptDeps, q: { self: string; deadAfterMs: number }): Promise<number> {
  const { db, temporal, log, releaseHeld } = deps;
  let failed = 0;
  for (const a of await findAbandonedAttempts(db, q)) {
    const fields = { workflowId: a.workflowId, activityId: a.activityId, attempt: a.attempt, workerProcess: a.workerProcess };
    try {
      await temporal.activity.fail(a.taskToken, new Error(`worker process ${a.workerProcess} stopped heartbeating ${Math.round(a.silentMs / 1000)} s ago`));
      failed++;
      log.info('attempt of a dead worker process failed, to be retried', fields);
    } catch (err) {
      // Not found: the attempt already ended (it finished, or timed out); nothing is left to fail.
      if (!(err instanceof ActivityNotFoundError)) {
        log.warn('attempt of a dead worker process not failed; next pass', { ...fields, error: (err as Error).message });
        continue;
      }
    }
    if (a.slotHolderPrefix !== null) {
      await releaseTeamSlotsByPrefix(db, a.slotHolderPrefix);
      await releaseHeld?.(a.slotHolderPrefix);
    }
    await db.activityAttempt.deleteMany({ where: { workflowId: a.workflowId, runId: a.runId, activityId: a.activityId, attempt: a.attempt } });
  }
  return failed;
}

export async function forgetOldAttemptRecords(db: Db): Promise<void> {
  await db.$executeRaw`DELETE FROM activity_attempt WHERE started_at < now() - ${ATTEMPT_RECORD_KEPT_MS}::int * interval '1 millisecond'`;
}
