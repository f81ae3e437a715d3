// Which worker processes are alive, in PostgreSQL. Each worker process has a random
// id for its lifetime and refreshes its `worker_process` row every 2 s; a graceful
// stop deletes the row. A row whose heartbeat is old therefore names a process that
// died (kill -9, power loss), and the activity attempts it recorded
// (platform/temporal/attempt-record.ts) can be failed at once by a live worker
// instead of waiting out their Temporal heartbeat timeout.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/prisma.ts';
import { everyInterval, type WorkerService } from '../feature.ts';
import type { Logger } from '../log.ts';

/** This process, as the attempts it runs record it. */
export const WORKER_PROCESS_ID = randomUUID();

/** How often a worker refreshes its row; WORKER_DEAD_AFTER_MS must leave room for several misses. */
export const WORKER_HEARTBEAT_MS = 2_000;

/** Rows of processes dead this long are deleted (kept a while for operators who look into a crash). */
const DEAD_PROCESS_KEPT_MS = 24 * 3_600_000;

export async function beatWorkerProcess(db: Db, id: string): Promise<void> {
  await db.$executeRaw`INSERT INTO worker_process (id) VALUES (${id}) ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`;
}

export async function forgetWorkerProcess(db: Db, id: string): Promise<void> {
  await db.$executeRaw`DELETE FROM worker_process WHERE id = ${id}`;
}

export async function forgetLongDeadProcesses(db: Db): Promise<void> {
  await db.$executeRaw`DELETE FROM worker_process WHERE heartbeat_at < now() - ${DEAD_PROCESS_KEPT_MS}::int * interval '1 millisecond'`;
}

export interface WorkerLiveness extends WorkerService {
  /**
   * Whether this process has seen the database steadily for `ms`: no refresh of its own failed
   * in that time. After the database was unreachable every worker's heartbeat is old, not
   * only a dead one's, so a process judges others only once they have had time to beat again.
   */
  steadyFor(ms: number): boolean;
}

/** Registers this process at once and keeps its row fresh until stopped; a graceful stop deletes the row. */
export function workerLiveness(deps: { db: Db; log: Logger }, id: string = WORKER_PROCESS_ID): WorkerLiveness {
  let lastFailure = -Infinity;
  const beat = () =>
    beatWorkerProcess(deps.db, id).catch((err: unknown) => {
      lastFailure = Date.now();
      throw err;
    });
  const first = beat().catch((err: unknown) => deps.log.warn('worker heartbeat failed', { error: (err as Error).message }));
  const loop = everyInterval('worker heartbeat', WORKER_HEARTBEAT_MS, deps, beat);
  return {
    steadyFor: (ms) => Date.now() - lastFailure >= ms,
    async stop() {
      await first;
      await loop.stop();
      await forgetWorkerProcess(deps.db, id).catch((err: unknown) => deps.log.warn('worker row not deleted', { error: (err as Error).message }));
    },
  };
}
