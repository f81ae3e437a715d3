// A team's concurrency limit spans all of its crawls and all workers, so it
// lives in PostgreSQL: `limit` slot rows per team, each leased by one page
// while it is scraped. Leases are renewed while the page runs and expire if
// the worker dies, so a crash never leaks capacity for longer than one lease.
// While k crawls of a team run a browser, each may hold at most ceil(limit / k)
// of the team's slots, so one crawl's pages never crowd out another's. Who waits,
// and in which order, is the batch's business (jobs/batch/batch-leases.ts): this
// module only answers one try at a time.
import type { Db } from '../db/prisma.ts';
import { sharedGauge } from '../metrics/shared-gauges.ts';

sharedGauge({
  name: 'team_slots_held',
  help: 'Team slots leased by a page being loaded, across all teams (a lapsed lease is not counted)',
  async query(db) {
    const [row] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM team_slot WHERE holder IS NOT NULL AND leased_until >= now()`;
    return [{ value: Number(row?.n ?? 0) }];
  },
});

sharedGauge({
  name: 'teams_holding_slots',
  help: 'Teams holding at least one team slot, by state: at_limit (they hold their whole concurrency limit: their pages wait) or below_limit',
  labelNames: ['state'],
  async query(db) {
    const [row] = await db.$queryRaw<{ at_limit: bigint; below_limit: bigint }[]>`
      SELECT count(*) FILTER (WHERE held.n >= t.concurrency_limit) AS at_limit, count(*) FILTER (WHERE held.n < t.concurrency_limit) AS below_limit
      FROM (SELECT team_id, count(*) AS n FROM team_slot WHERE holder IS NOT NULL AND leased_until >= now() GROUP BY team_id) held
      JOIN team t ON t.id = held.team_id`;
    return [
      { labels: { state: 'at_limit' }, value: Number(row?.at_limit ?? 0) },
      { labels: { state: 'below_limit' }, value: Number(row?.below_limit ?? 0) },
    ];
  },
});

export interface SlotRequest {
  teamId: string;
  limit: number;
  /** Unique per page attempt; a holder that asks again gets its own slot back. */
  holder: string;
  /** The crawl the page belongs to (fair share within the team). */
  group: string;
  leaseMs: number;
}

const seeded = new Map<string, number>();

async function seedSlots(db: Db, teamId: string, limit: number): Promise<void> {
  if ((seeded.get(teamId) ?? 0) >= limit) return;
  await db.$executeRaw`
    INSERT INTO team_slot (team_id, slot)
    SELECT ${teamId}::uuid, g FROM generate_series(0, ${limit - 1}::int) AS g
    ON CONFLICT DO NOTHING`;
  seeded.set(teamId, limit);
}

/** One try: leases a free slot of the team to the holder if the limit and the group's share allow it now. */
export async function tryTeamSlot(db: Db, req: SlotRequest): Promise<number | undefined> {
  await seedSlots(db, req.teamId, req.limit);
  return tryAcquire(db, req);
}

/** The group's share of the team's limit while the team's crawls run browsers, and the slots the group holds. */
export async function groupStanding(db: Db, q: { teamId: string; group: string; limit: number }): Promise<{ share: number; held: number }> {
  const [row] = await db.$queryRaw<{ share: number; held: number }[]>`
    SELECT ceil(${q.limit}::numeric / greatest(1, (
             SELECT count(DISTINCT l.group_id) FROM browser_lease l WHERE l.team_id = ${q.teamId}::uuid AND l.alive_until > now()
           )))::int AS share,
           (SELECT count(*) FROM team_slot s WHERE s.team_id = ${q.teamId}::uuid AND s.holder_group = ${q.group} AND s.leased_until >= now())::int AS held`;
  return row ?? { share: q.limit, held: 0 };
}

async function tryAcquire(db: Db, req: SlotRequest): Promise<number | undefined> {
  const rows = await db.$queryRaw<{ slot: number }[]>`
    UPDATE team_slot SET holder = ${req.holder}, holder_group = ${req.group}, leased_until = now() + ${req.leaseMs}::int * interval '1 millisecond'
    WHERE (team_id, slot) = (
      SELECT team_id, slot FROM team_slot
      WHERE team_id = ${req.teamId}::uuid AND slot < ${req.limit}::int
        AND (holder IS NULL OR holder = ${req.holder} OR leased_until < now())
        AND (
          SELECT count(*) FROM team_slot mine
          WHERE mine.team_id = ${req.teamId}::uuid AND mine.holder_group = ${req.group} AND mine.holder <> ${req.holder} AND mine.leased_until >= now()
        ) < ceil(${req.limit}::numeric / greatest(1, (
          SELECT count(DISTINCT l.group_id) FROM browser_lease l WHERE l.team_id = ${req.teamId}::uuid AND l.alive_until > now()
        )))
      ORDER BY holder = ${req.holder} DESC NULLS LAST, slot
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING slot`;
  return rows[0]?.slot;
}

export async function renewTeamSlots(db: Db, teamId: string, holders: string[], leaseMs: number): Promise<void> {
  if (holders.length === 0) return;
  await db.$executeRaw`
    UPDATE team_slot SET leased_until = now() + ${leaseMs}::int * interval '1 millisecond'
    WHERE team_id = ${teamId}::uuid AND holder = ANY(${holders}::text[])`;
}

export async function releaseTeamSlot(db: Db, teamId: string, holder: string): Promise<void> {
  await db.$executeRaw`UPDATE team_slot SET holder = NULL, holder_group = NULL, leased_until = NULL WHERE team_id = ${teamId}::uuid AND holder = ${holder}`;
}

/** Frees every slot whose holder starts with `prefix` (the slots of one attempt whose worker died). */
export async function releaseTeamSlotsByPrefix(db: Db, prefix: string): Promise<void> {
  await db.$executeRaw`UPDATE team_slot SET holder = NULL, holder_group = NULL, leased_until = NULL WHERE starts_with(holder, ${prefix})`;
}

/** Slots currently leased by the team (for tests and operators). */
export async function busyTeamSlots(db: Db, teamId: string): Promise<number> {
  return db.teamSlot.count({ where: { teamId, holder: { not: null }, leasedUntil: { gt: new Date() } } });
}
