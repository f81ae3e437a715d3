// Fair sharing of the workers' browser slots. Temporal hands a freed slot to the
// waiting task with the lowest priority key (a crawl's first batch goes first), but
// it cannot take a slot back from a batch that keeps claiming URLs for minutes.
// So browser work says where it stands in PostgreSQL: a demand row from the moment
// its task is queued until a worker starts it, a lease row while it runs. A running
// batch asks `shouldYield` every half second and gives its browser up when another crawl
// waits whose team runs fewer browsers than its own (the same rule between crawls of
// one team), at once when the difference is two or more, after its time slice when
// it is one, and at once whenever it has nothing to do itself. Each waiting demand is
// promised to one yielding batch at a time, so one newcomer never empties the pool.
import type { Db } from '../db/prisma.ts';
import { DURATION_BUCKETS, histogram } from '../metrics/registry.ts';
import { sharedGauge } from '../metrics/shared-gauges.ts';

export interface BrowserWork {
  /** The batch (or session) key: one demand and one lease per holder. */
  holder: string;
  /** The browser task queue: only work waiting on one queue competes for that queue's slots. */
  pool: string;
  teamId: string;
  /** Shares within a team: a crawl id. */
  groupId: string;
}

/**
 * A demand younger than this may still be picked up by a free slot elsewhere (a waiting poller
 * gets a new task within milliseconds, so half a second is ample).
 */
const DEMAND_GRACE_MS = 500;
/** A promise to a demand that was not kept (another task took the freed slot) lapses after this. */
const PROMISE_MS = 20_000;

export async function requestBrowser(db: Db, work: BrowserWork): Promise<void> {
  await db.$executeRaw`
    INSERT INTO browser_demand (holder, pool, team_id, group_id) VALUES (${work.holder}, ${work.pool}, ${work.teamId}::uuid, ${work.groupId})
    ON CONFLICT (holder) DO NOTHING`;
}

const browserWait = histogram({
  name: 'browser_wait_seconds',
  help: 'How long browser work (a scrape batch) waited from its demand to its lease, by pool',
  labelNames: ['pool'],
  buckets: DURATION_BUCKETS,
});

sharedGauge({
  name: 'browser_leases_held',
  help: 'Browser work running on a worker (live browser leases), by pool',
  labelNames: ['pool'],
  async query(db) {
    const rows = await db.$queryRaw<{ pool: string; n: bigint }[]>`
      SELECT pool, count(*) AS n FROM browser_lease WHERE alive_until > now() GROUP BY pool`;
    return rows.map((r) => ({ labels: { pool: r.pool }, value: Number(r.n) }));
  },
});

sharedGauge({
  name: 'batches_waiting_for_browser',
  help: 'Browser work queued and not started by a worker yet (browser demand rows), by pool',
  labelNames: ['pool'],
  async query(db) {
    const rows = await db.$queryRaw<{ pool: string; n: bigint }[]>`SELECT pool, count(*) AS n FROM browser_demand GROUP BY pool`;
    return rows.map((r) => ({ labels: { pool: r.pool }, value: Number(r.n) }));
  },
});

/**
 * The work started on a worker: its demand is met (its wait is measured on the database's clock),
 * its lease begins. One statement: a single round trip, and never a demand and a lease at once.
 */
export async function startBrowserLease(db: Db, work: BrowserWork, leaseMs: number): Promise<void> {
  const met = await db.$queryRaw<{ seconds: number }[]>`
    WITH met AS (
      DELETE FROM browser_demand WHERE holder = ${work.holder} RETURNING extract(epoch FROM now() - requested_at)::float8 AS seconds
    ), lease AS (
      INSERT INTO browser_lease (holder, pool, team_id, group_id, alive_until)
      VALUES (${work.holder}, ${work.pool}, ${work.teamId}::uuid, ${work.groupId}, now() + ${leaseMs}::int * interval '1 millisecond')
      ON CONFLICT (holder) DO UPDATE SET started_at = now(), alive_until = EXCLUDED.alive_until
    )
    SELECT seconds FROM met`;
  observeWait(work.pool, met);
}

/**
 * The work started on a worker but may never need a browser (a single scrape's page fetched over
 * HTTP): its demand is met, and it takes its lease (startBrowserLease) only if it opens a browser.
 */
export async function meetBrowserDemand(db: Db, work: Pick<BrowserWork, 'holder' | 'pool'>): Promise<void> {
  observeWait(
    work.pool,
    await db.$queryRaw<{ seconds: number }[]>`
      DELETE FROM browser_demand WHERE holder = ${work.holder} RETURNING extract(epoch FROM now() - requested_at)::float8 AS seconds`,
  );
}

/** No demand row: the work was never queued as such (a test, an abandoned demand already forgotten, a demand met before its lease). */
function observeWait(pool: string, met: { seconds: number }[]): void {
  if (met[0]) browserWait.observe({ pool }, Math.max(0, met[0].seconds));
}

export async function renewBrowserLease(db: Db, holder: string, leaseMs: number): Promise<void> {
  await db.$executeRaw`UPDATE browser_lease SET alive_until = now() + ${leaseMs}::int * interval '1 millisecond' WHERE holder = ${holder}`;
}

/** The work ended. When it will be retried, it waits for a slot again like new work. */
export async function endBrowserLease(db: Db, work: BrowserWork, opts: { willRetry: boolean }): Promise<void> {
  await db.$executeRaw`DELETE FROM browser_lease WHERE holder = ${work.holder}`;
  if (opts.willRetry) await requestBrowser(db, work);
}

/** Forgets every demand and lease of a group (its crawl ended). */
export async function forgetBrowserGroup(db: Db, groupId: string): Promise<void> {
  await db.$transaction([
    db.$executeRaw`DELETE FROM browser_demand WHERE group_id = ${groupId}`,
    db.$executeRaw`DELETE FROM browser_lease WHERE group_id = ${groupId}`,
  ]);
}

export interface YieldQuestion extends BrowserWork {
  /** The holder has run at least its time slice. */
  sliceUsed: boolean;
  /** The holder has nothing to do right now (waiting for other batches' links). */
  idle: boolean;
}

/**
 * Whether the holder should give its browser up now. A true answer promises one waiting
 * demand this holder's slot (and returns that demand's holder).
 */
export async function shouldYield(db: Db, q: YieldQuestion): Promise<string | undefined> {
  const rows = await db.$queryRaw<{ holder: string }[]>`
    WITH running AS (
      SELECT team_id, group_id FROM browser_lease WHERE pool = ${q.pool} AND alive_until > now()
    ), mine AS (
      SELECT (SELECT count(*) FROM running WHERE team_id = ${q.teamId}::uuid) AS team_n,
             (SELECT count(*) FROM running WHERE group_id = ${q.groupId}) AS group_n
    ), pick AS (
      SELECT d.holder FROM browser_demand d, mine
      WHERE d.pool = ${q.pool} AND d.group_id <> ${q.groupId}
        AND d.requested_at < now() - ${DEMAND_GRACE_MS}::int * interval '1 millisecond'
        AND (d.served_at IS NULL OR d.served_at < now() - ${PROMISE_MS}::int * interval '1 millisecond')
        AND NOT EXISTS (SELECT 1 FROM browser_lease l WHERE l.holder = d.holder)
        AND (
          ${q.idle}::boolean
          OR CASE WHEN d.team_id <> ${q.teamId}::uuid
            THEN (SELECT count(*) FROM running r WHERE r.team_id = d.team_id) < mine.team_n - CASE WHEN ${q.sliceUsed}::boolean THEN 0 ELSE 1 END
            ELSE (SELECT count(*) FROM running r WHERE r.group_id = d.group_id) < mine.group_n - CASE WHEN ${q.sliceUsed}::boolean THEN 0 ELSE 1 END
          END)
      ORDER BY d.requested_at
      LIMIT 1
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE browser_demand SET served_by = ${q.holder}, served_at = now()
    FROM pick WHERE browser_demand.holder = pick.holder
    RETURNING browser_demand.holder`;
  return rows[0]?.holder;
}
