// The host budget's two statements (host_acquire and host_release, functions of
// the migration that made host_budget and host_lease): one to take a request's
// turn at a host or learn why not, one to end it with what the answer said.
import type { SqlTx } from '../../platform/db/sql-transactions.ts';
import type { HostOutcome } from './host-rate.ts';

/** Prisma's client or a pg pool of the worker's own (SqlTransactions): one statement each, no transaction. */
export type BudgetDb = Pick<SqlTx, '$queryRaw'>;

/** Why a request waits: the host is paused (throttled), its interval has not passed, it is at its concurrency, or another team goes first. */
export type WaitReason = 'paused' | 'interval' | 'busy' | 'share';

export interface TurnAsk {
  host: string;
  holder: string;
  teamId: string;
  maxConcurrency: number;
  /** Least time since the host's last request start (HOST_MIN_INTERVAL_MS, Crawl-delay). */
  intervalMs: number;
  /** The turn lapses after this, should its worker die before it ends it. */
  leaseMs: number;
  /** A waiter that does not ask again within this stops counting for fairness. */
  waitMs: number;
  /** A turn of the same host whose request ended well, ended by this ask (host_release's 'ok'). */
  doneHolder?: string;
}

/** `wideOpen`: nothing in the host's budget could refuse a request now, so the turn may be handed on (host-gate.ts). */
export type TurnAnswer = { granted: true; wideOpen: boolean } | { granted: false; waitMs: number; reason: WaitReason };

export async function askTurn(db: BudgetDb, a: TurnAsk): Promise<TurnAnswer> {
  const [row] = await db.$queryRaw<{ granted: boolean; wait_ms: number; reason: WaitReason | null; wide_open: boolean }[]>`
    SELECT * FROM host_acquire(${a.host}, ${a.holder}, ${a.teamId}, ${a.maxConcurrency}::int, ${Math.round(a.intervalMs)}::int, ${a.leaseMs}::int,
      ${a.waitMs}::int, ${a.doneHolder ?? null}::text)`;
  if (!row) throw new Error('host_acquire returned no row');
  return row.granted ? { granted: true, wideOpen: row.wide_open } : { granted: false, waitMs: row.wait_ms, reason: row.reason ?? 'busy' };
}

export interface TurnEnd {
  host: string;
  holder: string;
  outcome: HostOutcome;
  maxConcurrency: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** backoffJitter() of host-rate.ts. */
  jitter: number;
}

/** Ends a turn (or a wait given up); returns when the host is paused until, after a throttled answer. */
export async function endTurn(db: BudgetDb, e: TurnEnd): Promise<Date | undefined> {
  const retryAfterMs = e.outcome.kind === 'throttled' && e.outcome.retryAfterMs !== undefined ? Math.round(e.outcome.retryAfterMs) : null;
  const [row] = await db.$queryRaw<{ paused: Date | null }[]>`
    SELECT host_release(${e.host}, ${e.holder}, ${e.outcome.kind}, ${e.maxConcurrency}::int, ${retryAfterMs}::int,
      ${e.backoffBaseMs}::int, ${e.backoffMaxMs}::int, ${e.jitter}::float8) AS paused`;
  return row?.paused ?? undefined;
}

/**
 * Ends at once every turn (and wait) whose holder begins with `holderPrefix`: a dead worker's batch
 * attempt (abandoned-attempts.ts), whose turns would otherwise count at their hosts until their
 * leases lapse, a page's timeout and 30 s later. Holders are `<attempt prefix><process>:<n>`.
 */
export async function releaseHostTurnsByPrefix(db: BudgetDb, holderPrefix: string): Promise<void> {
  await db.$queryRaw`DELETE FROM host_lease WHERE starts_with(holder, ${holderPrefix}) RETURNING 1`;
}

/** A host's row is kept this long after its last request start, so a pause or a slowed rate outlives a lull. */
const IDLE_HOST_MS = 24 * 3_600_000;

/**
 * Forgets hosts no request has started at for a day and that are not paused (the scheduled purge),
 * with their lapsed leases; a host met again starts at the full budget.
 */
export async function forgetIdleHosts(db: BudgetDb): Promise<number> {
  const [row] = await db.$queryRaw<{ n: bigint }[]>`
    WITH gone AS (
      DELETE FROM host_budget
      WHERE coalesce(last_start, '-infinity') < now() - ${IDLE_HOST_MS}::int * interval '1 millisecond'
        AND coalesce(paused_until, '-infinity') < now()
        AND NOT EXISTS (SELECT 1 FROM host_lease l WHERE l.host = host_budget.host AND l.expires_at >= now())
      RETURNING host
    ), leases AS (
      DELETE FROM host_lease WHERE host IN (SELECT host FROM gone)
    )
    SELECT count(*) AS n FROM gone`;
  return Number(row?.n ?? 0);
}
