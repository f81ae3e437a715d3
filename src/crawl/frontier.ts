// The crawl frontier in PostgreSQL. Rows are unique per (crawl, url key), which
// is the dedup; a batch claims rows under its own key so a retried batch gets
// exactly the same rows back; the page limit is enforced when rows are
// inserted, under a per-crawl lock.
import type { Db, Tx } from '../db/prisma.ts';

export interface FrontierRow {
  id: bigint;
  url: string;
  urlKey: string;
  depth: number;
  state: string;
}

export interface NewFrontierUrl {
  url: string;
  urlKey: string;
  depth: number;
}



/** Inserts URLs not seen before, up to `limit` rows for the crawl in total. Returns how many were new. */
export async function addToFrontier(tx: Tx | Db, crawlId: string, urls: NewFrontierUrl[], limit: number): Promise<number> {
  if (urls.length === 0) return 0;
  // Serialises inserts of one crawl's concurrent pages so the count check holds.
  // An advisory lock, not a row lock: the page insert before this holds a
  // foreign-key share lock on the crawl row, and upgrading that deadlocks.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${crawlId}, 0))`;
  // Redirect aliases are not pages of their own, so they do not count.
  const [{ count }] = await tx.$queryRaw<{ count: bigint }[]>`SELECT count(*)::bigint AS count FROM crawl_url WHERE crawl_id = ${crawlId}::uuid AND state <> 'redirect'`;
  const room = limit - Number(count);
  if (room <= 0) return 0;
  const seen = new Set<string>();
  const unique = urls.filter((u) => !seen.has(u.urlKey) && seen.add(u.urlKey));
  const existing = new Set(
    (
      await tx.crawlUrl.findMany({
        where: { crawlId, urlKey: { in: unique.map((u) => u.urlKey) } },
        select: { urlKey: true },
      })
    ).map((r) => r.urlKey),
  );
  const fresh = unique.filter((u) => !existing.has(u.urlKey)).slice(0, room);
  if (fresh.length === 0) return 0;
  const { count: inserted } = await tx.crawlUrl.createMany({
    data: fresh.map((u) => ({ crawlId, url: u.url, urlKey: u.urlKey, depth: u.depth })),
    skipDuplicates: true,
  });
  return inserted;
}

/**
 * Claims up to `size` queued rows for `batchKey`. A retry with the same key
 * returns the rows that key already holds instead of claiming new ones.
 */
export async function claimBatch(db: Db, crawlId: string, batchKey: string, size: number): Promise<FrontierRow[]> {
  const held = await db.crawlUrl.findMany({ where: { crawlId, claimedBy: batchKey }, orderBy: { id: 'asc' } });
  if (held.length > 0) return held;
  return db.$queryRaw<FrontierRow[]>`
    UPDATE crawl_url SET state = 'claimed', claimed_by = ${batchKey}, claimed_at = now()
    WHERE id IN (
      SELECT id FROM crawl_url
      WHERE crawl_id = ${crawlId}::uuid AND state = 'queued'
      ORDER BY depth, id
      LIMIT ${size}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, url, url_key AS "urlKey", depth, state`;
}

/** Puts rows claimed by batches that can no longer be running back in the queue. */
export async function releaseClaims(db: Db, crawlId: string): Promise<number> {
  const { count } = await db.crawlUrl.updateMany({
    where: { crawlId, state: 'claimed' },
    data: { state: 'queued', claimedBy: null, claimedAt: null },
  });
  return count;
}

export async function frontierCounts(db: Db, crawlId: string): Promise<{ queued: number; claimed: number }> {
  const rows = await db.crawlUrl.groupBy({ by: ['state'], where: { crawlId, state: { in: ['queued', 'claimed'] } }, _count: { _all: true } });
  const get = (s: string) => rows.find((r) => r.state === s)?._count._all ?? 0;
  return { queued: get('queued'), claimed: get('claimed') };
}

/** Marks what is still queued as never to be scraped (the crawl stopped early). */
export async function skipQueued(db: Db, crawlId: string): Promise<number> {
  const { count } = await db.crawlUrl.updateMany({ where: { crawlId, state: { in: ['queued', 'claimed'] } }, data: { state: 'skipped', claimedBy: null } });
  return count;
}
