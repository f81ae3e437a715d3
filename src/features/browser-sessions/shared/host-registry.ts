// Browser hosts announce themselves in PostgreSQL: where their activities are
// polled, where gateways reach their CDP relay, and a heartbeat. A session is
// placed on the live host running the fewest sessions; the gateway finds a
// session's host through the row, so gateways and hosts may run on different
// machines.
import type { Db } from '../../../platform/db/prisma.ts';

export interface HostRecord {
  id: string;
  taskQueue: string;
  relayUrl: string;
  relaySecret: string;
}

export async function registerHost(db: Db, host: HostRecord): Promise<void> {
  await db.browserHost.upsert({
    where: { id: host.id },
    create: { ...host },
    update: { ...host, heartbeatAt: new Date(), stoppedAt: null },
  });
}

export async function heartbeatHost(db: Db, hostId: string): Promise<void> {
  await db.browserHost.update({ where: { id: hostId }, data: { heartbeatAt: new Date() } });
}

export async function markHostStopped(db: Db, hostId: string): Promise<void> {
  await db.browserHost.update({ where: { id: hostId }, data: { stoppedAt: new Date() } });
}

/** The live host of this deployment (its task queues share the prefix) with room, running the fewest sessions. */
export async function pickHost(db: Db, taskQueuePrefix: string, opts: { hostStaleMs: number; maxSessionsPerHost: number }): Promise<HostRecord | undefined> {
  const rows = await db.$queryRaw<HostRecord[]>`
    SELECT h.id, h.task_queue AS "taskQueue", h.relay_url AS "relayUrl", h.relay_secret AS "relaySecret"
    FROM browser_host h
    LEFT JOIN browser_session s ON s.host_id = h.id AND s.status IN ('starting', 'active')
    WHERE h.task_queue LIKE ${`${taskQueuePrefix}-host-%`} AND h.stopped_at IS NULL AND h.heartbeat_at > now() - ${opts.hostStaleMs}::int * interval '1 millisecond'
    GROUP BY h.id
    HAVING count(s.id) < ${opts.maxSessionsPerHost}::int
    ORDER BY count(s.id), h.heartbeat_at DESC
    LIMIT 1`;
  return rows[0];
}

export async function hostById(db: Db, hostId: string): Promise<HostRecord | undefined> {
  const row = await db.browserHost.findUnique({ where: { id: hostId } });
  return row ? { id: row.id, taskQueue: row.taskQueue, relayUrl: row.relayUrl, relaySecret: row.relaySecret } : undefined;
}
