// The crawl frontier in PostgreSQL. Rows are unique per (crawl, url key), which
// is the dedup; a batch claims rows under its own key so a retried batch gets
// exactly the same rows back; the page limit is enforced when rows are
// inserted, under a per-crawl lock.
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../platform/db/prisma.ts';
import type { SqlTx } from '../../platform/db/sql-transactions.ts';
import { FrontierState } from './frontier-state.ts';

export interface FrontierRow {
  id: bigint;
  url: string;
  urlKey: string;
  depth: number;
  state: FrontierState;
}

export interface NewFrontierUrl {
  url: string;
  urlKey: string;
  depth: number;
}

/**
 * Serialises the frontier writes of one job that its limit depends on. An advisory lock, not a
 * row lock: the page insert before this holds a foreign-key share lock on the crawl row, and
 * upgrading that deadlocks. It is a statement of its own so that the next statement's snapshot
 * sees what the lock waited for. Taken again in one transaction, it is held once more.
 */
export async function lockFrontier(tx: SqlTx, crawlId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${crawlId}, 0))`;
}

/**
 * Under the lock: the job's job_frontier_size row, which every write of the frontier keeps. A job
 * without one (it began before the table) has its rows counted this once.
 */
async function ensureFrontierSize(tx: SqlTx, crawlId: string): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO job_frontier_size (job_id, admitted)
    SELECT ${crawlId}::uuid, (SELECT count(*) FROM job_url WHERE job_id = ${crawlId}::uuid AND state <> ${FrontierState.redirect})
    WHERE NOT EXISTS (SELECT 1 FROM job_frontier_size WHERE job_id = ${crawlId}::uuid)`;
}

/** Under the lock: `n` rows that counted against the limit no longer do (a queued row became a redirect alias, or was dropped). */
export async function shrinkFrontierSize(tx: SqlTx, crawlId: string, n: number): Promise<void> {
  if (n === 0) return;
  await ensureFrontierSize(tx, crawlId);
  await tx.$executeRaw`UPDATE job_frontier_size SET admitted = admitted - ${n} WHERE job_id = ${crawlId}::uuid`;
}

/**
 * Inserts URLs not seen before, up to `limit` rows for the crawl in total and, with
 * `queuedPerCredit`, while fewer than that many URLs per credit of the team's balance wait
 * in its queue: a URL the team cannot pay to scrape is not worth a row, so a team with a few
 * credits cannot fill the database with a huge `limit`. Returns how many were new.
 *
 * Its cost does not grow with the frontier: the rows admitted so far are job_frontier_size's
 * count, and the waiting rows are counted only when the credit room could bind (the balance
 * allows fewer than `limit` waiting URLs and fewer than the admitted rows and these new ones),
 * and then no further than the room reaches. Waiting rows are admitted rows, so otherwise the
 * credit room is at least the limit's.
 */
export async function addToFrontier(tx: SqlTx, crawlId: string, urls: NewFrontierUrl[], limit: number, queuedPerCredit?: number): Promise<number> {
  if (urls.length === 0) return 0;
  await lockFrontier(tx, crawlId);
  await ensureFrontierSize(tx, crawlId);
  const seen = new Set<string>();
  const unique = urls.filter((u) => !seen.has(u.urlKey) && seen.add(u.urlKey));
  // New URLs in the order given, as many as the limit leaves room for; redirect
  // aliases are not pages of their own, so they do not count. Without
  // queuedPerCredit the credit cap is NULL: no room is counted.
  const [row] = await tx.$queryRaw<{ added: number }[]>`
    WITH size AS (
      SELECT admitted FROM job_frontier_size WHERE job_id = ${crawlId}::uuid
    ), cap AS (
      SELECT ${queuedPerCredit ?? null}::bigint * GREATEST(t.credit_balance, 0)::bigint AS urls
      FROM job c JOIN team t ON t.id = c.team_id WHERE c.id = ${crawlId}::uuid
    ), room AS (
      SELECT CASE
        WHEN cap.urls IS NULL OR cap.urls >= ${limit}::bigint OR cap.urls - size.admitted >= ${unique.length}::bigint
          THEN ${limit}::bigint - size.admitted
        ELSE LEAST(${limit}::bigint - size.admitted, cap.urls - (
          SELECT count(*) FROM (SELECT 1 FROM job_url WHERE job_id = ${crawlId}::uuid AND state IN ('queued', 'claimed') LIMIT cap.urls) w
        ))
      END AS n
      FROM size, cap
    ), added AS (
      INSERT INTO job_url (job_id, url, url_key, depth)
      SELECT ${crawlId}::uuid, u.url, u.url_key, u.depth
      FROM unnest(${unique.map((u) => u.url)}::text[], ${unique.map((u) => u.urlKey)}::text[], ${unique.map((u) => u.depth)}::int[])
        WITH ORDINALITY AS u(url, url_key, depth, n)
      WHERE NOT EXISTS (SELECT 1 FROM job_url c WHERE c.job_id = ${crawlId}::uuid AND c.url_key = u.url_key)
      ORDER BY u.n
      LIMIT GREATEST(0, (SELECT n FROM room))
      ON CONFLICT (job_id, url_key) DO NOTHING
      RETURNING 1
    ), counted AS (
      UPDATE job_frontier_size SET admitted = admitted + (SELECT count(*) FROM added) WHERE job_id = ${crawlId}::uuid
    )
    SELECT count(*)::int AS added FROM added`;
  return row!.added;
}

/** The rows `batchKey` holds already: what an earlier attempt of the batch claimed, which its retry takes over. */
export async function heldClaims(db: Db, crawlId: string, batchKey: string): Promise<FrontierRow[]> {
  const held = await db.jobUrl.findMany({ where: { jobId: crawlId, claimedBy: batchKey }, orderBy: { id: 'asc' } });
  // The column holds only FrontierState values (every write goes through this module and page-store.ts).
  return held.map((r) => ({ ...r, state: r.state as FrontierState }));
}

/** What a claim may spend: the team's credit balance less `inFlight` credits its pages in hand will be charged. */
export interface ClaimBudget {
  teamId: string;
  inFlight: number;
}

/**
 * Claims up to `size` more queued rows for `batchKey`, shallowest first; rows other batches hold are
 * skipped. With a budget, never more rows than the team's balance (read in the same statement) can pay for.
 */
export async function claimMore(db: Db, crawlId: string, batchKey: string, size: number, budget?: ClaimBudget): Promise<FrontierRow[]> {
  if (size <= 0) return [];
  const limit = budget
    ? Prisma.sql`LEAST(${size}::int, GREATEST(0, (SELECT credit_balance FROM team WHERE id = ${budget.teamId}::uuid) - ${budget.inFlight}::int))`
    : Prisma.sql`${size}::int`;
  // `= ANY(ARRAY(…))`, not `IN (…)`: the planner cannot size a LIMIT it must compute and guessed
  // thousands of rows, which it joined by a sequential scan of every frontier row of every job
  // (99 ms against 1 ms with 100,000 rows, issue 43). An array is computed first and looked up by key.
  return db.$queryRaw<FrontierRow[]>`
    UPDATE job_url SET state = ${FrontierState.claimed}, claimed_by = ${batchKey}, claimed_at = now()
    WHERE id = ANY(ARRAY(
      SELECT id FROM job_url
      WHERE job_id = ${crawlId}::uuid AND state = ${FrontierState.queued}
      ORDER BY depth, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ))
    RETURNING id, url, url_key AS "urlKey", depth, state`;
}

/** Hands one row a batch claimed but did not start back to the queue. */
export async function returnClaim(db: Db, crawlId: string, batchKey: string, urlKey: string): Promise<number> {
  const { count } = await db.jobUrl.updateMany({
    where: { jobId: crawlId, urlKey, claimedBy: batchKey, state: FrontierState.claimed },
    data: { state: FrontierState.queued, claimedBy: null, claimedAt: null },
  });
  return count;
}

/** What a running batch knows of the claims no batch will settle (FrontierSource.exhausted). */
export interface StrayClaims {
  /** The asking batch's key, and the URL keys it claimed itself: its key's other rows were claimed by an attempt that is gone. */
  batchKey: string;
  inHand: string[];
  /** The keys of the batches the crawl's workflow counted as running when asked. */
  running: string[];
  /** How long ago the workflow was asked: a row claimed since may be a batch's launched after the answer. */
  askedMsAgo: number;
}

/**
 * A batch started after its workflow answered may claim while the answer is read: a row counts as
 * a gone batch's only when it was claimed this much before the question, whatever the pool made the
 * statement wait. Getting it wrong loads a page twice, it loses none.
 */
const STRAY_MARGIN_MS = 5000;

/**
 * Puts back in the queue the rows no running batch will settle: claimed under the asker's own key
 * but not by it (an attempt Temporal timed out that went on claiming after its retry took the key's
 * rows back), or by a batch its workflow no longer runs (such an attempt that outlived its batch).
 */
export async function releaseStrayClaims(db: Db, crawlId: string, s: StrayClaims): Promise<number> {
  const agoMs = Math.round(s.askedMsAgo) + STRAY_MARGIN_MS;
  return db.$executeRaw`
    UPDATE job_url SET state = ${FrontierState.queued}, claimed_by = NULL, claimed_at = NULL
    WHERE job_id = ${crawlId}::uuid AND state = ${FrontierState.claimed}
      AND ((claimed_by = ${s.batchKey} AND url_key <> ALL(${s.inHand}::text[]))
        OR (claimed_by <> ALL(${s.running}::text[]) AND claimed_at < now() - ${agoMs}::int * interval '1 millisecond'))`;
}

/** Puts rows claimed by batches that can no longer be running back in the queue. */
export async function releaseClaims(db: Db, crawlId: string): Promise<number> {
  const { count } = await db.jobUrl.updateMany({
    where: { jobId: crawlId, state: FrontierState.claimed },
    data: { state: FrontierState.queued, claimedBy: null, claimedAt: null },
  });
  return count;
}

export async function frontierCounts(db: Db, crawlId: string): Promise<{ queued: number; claimed: number }> {
  const rows = await db.jobUrl.groupBy({
    by: ['state'],
    where: { jobId: crawlId, state: { in: [FrontierState.queued, FrontierState.claimed] } },
    _count: { _all: true },
  });
  const get = (s: FrontierState) => rows.find((r) => r.state === s)?._count._all ?? 0;
  return { queued: get(FrontierState.queued), claimed: get(FrontierState.claimed) };
}

/** Marks what is still queued as never to be scraped (the crawl stopped early). */
export async function skipQueued(db: Db, crawlId: string): Promise<number> {
  const { count } = await db.jobUrl.updateMany({
    where: { jobId: crawlId, state: { in: [FrontierState.queued, FrontierState.claimed] } },
    data: { state: FrontierState.skipped, claimedBy: null },
  });
  return count;
}
