// Writes handled pages and their consequences in a single transaction: the
// page rows, their change-tracking snapshots, their frontier rows' state, their
// credit charges, their search index entries, their copies in the page cache,
// the links they add to the frontier and the links robots.txt kept out (threat
// protection's are failed pages of their own, never queued).
// Several pages of a crawl go in one transaction of a few multi-row statements
// (per-page statements were most of a worker's CPU on the HTTP path); upserts
// keyed by (crawl, url key) and the ledger's unique key make a retried write a
// no-op. Everything from the page is made storable first
// (platform/db/storable.ts): page content never fails the write.
import { chargeItemsOnce, type Charge } from '../../platform/usage/credits.ts';
import type { Db } from '../../platform/db/prisma.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { SqlTransactions, type SqlTx } from '../../platform/db/sql-transactions.ts';
import type { PageDocument } from '../../page/document-schema.ts';
import { documentTooLargeMessage } from '../../page/page-size.ts';
import { storableJson, storableText } from '../../platform/db/storable.ts';
import { writeCrawlEvent, type JobWebhook } from '../webhooks/crawl-events.ts';
import { notifyStoredPages } from '../job-events.ts';
import { addToFrontier, lockFrontier, shrinkFrontierSize, type NewFrontierUrl } from '../frontier/frontier.ts';
import { FrontierState } from '../frontier/frontier-state.ts';
import { indexPages, type IndexedPage } from '../search-index/index-page.ts';
import { storeInCache, type CacheWrite } from './page-cache.ts';
import { countFailedPage, countStoredPages, type LoadPath } from './page-metrics.ts';
import { trackPageChanges, type ChangeSnapshotWrite } from './change-snapshots.ts';
import type { TrackedChange } from '../../page/change-tracking/track-change.ts';
import { jobKind, type JobKind } from '../job-kind.ts';

/** A document made storable and measured (prepareDocument). */
export interface PreparedDocument {
  document: PageDocument;
  /** The document as JSON, as it is stored. */
  json: string;
  /** Its JSON's UTF-8 length: what it takes in a status response. */
  sizeBytes: number;
}

export interface ScrapedPage {
  crawlId: string;
  urlKey: string;
  url: string;
  statusCode: number;
  document: PreparedDocument;
  /** Key of the URL the page redirected to, when it differs from urlKey. */
  finalUrlKey?: string;
  finalUrl?: string;
  /** How the page was loaded (counted in pages_stored_total). */
  path: LoadPath;
}

export interface PageConsequences {
  follow: NewFrontierUrl[];
  robotsBlocked: { url: string; urlKey: string }[];
  /** Links threat protection keeps out: listed as failed pages (GET …/errors) with why, never queued. */
  threatBlocked?: { url: string; urlKey: string; error: string }[];
  limit: number;
  /** Links are admitted only while fewer URLs than this per credit of the team's balance wait (see addToFrontier). */
  queuedPerCredit?: number;
  charge: Omit<Charge, 'itemKey' | 'jobId'>;
  /** The crawl's webhook: the page's crawl.page event joins the outbox in the same transaction. */
  webhook?: JobWebhook;
  /** The page's entry in the local search index (none for zero-data-retention pages). */
  index?: IndexedPage;
  /** A copy of the page's load for the page cache: written with the page, but the page never fails for it. */
  cache?: CacheWrite;
  /** The page's version for change tracking: compared with the team's snapshot and stored as the next one. */
  changeTracking?: ChangeSnapshotWrite;
}

/** Told why the page cache refused a group's copies; the pages were stored without them. */
export type CacheFailure = (error: unknown) => void;

export class DuplicateRedirectError extends Error {}

/** The page's document is over CRAWL_MAX_DOCUMENT_BYTES. */
export class DocumentTooLargeError extends Error {}

/**
 * The document as it will be stored: strings PostgreSQL refuses cleaned, its size measured, and
 * refused (DocumentTooLargeError) beyond `maxBytes`. Throws what JSON.stringify throws on a value
 * too deeply nested to serialize; the caller records either as the page's failure.
 */
export function prepareDocument(document: PageDocument, maxBytes = Infinity): PreparedDocument {
  const { value, json } = storableJson(document);
  const sizeBytes = Buffer.byteLength(json);
  if (sizeBytes > maxBytes) throw new DocumentTooLargeError(documentTooLargeMessage(sizeBytes, maxBytes));
  return { document: value, json, sizeBytes };
}

/** The document with its change tracking result (and the warning that came with it), measured again. */
function withChangeTracking(prepared: PreparedDocument, tracked: TrackedChange | undefined): PreparedDocument {
  if (!tracked) return prepared;
  const { document } = prepared;
  const warning = [document.warning, tracked.warning].filter(Boolean).join(' ');
  return prepareDocument({ ...document, changeTracking: tracked.changeTracking, ...(warning && { warning }) });
}

/**
 * A redirect target is a page of the crawl too: it gets an alias row so it is
 * never scraped again, and if another page already owns it this one is a
 * duplicate.
 */
async function claimRedirectTarget(tx: SqlTx, page: ScrapedPage): Promise<void> {
  if (!page.finalUrlKey || page.finalUrlKey === page.urlKey) return;
  const inserted = await tx.$executeRaw`
    INSERT INTO job_url (job_id, url_key, url, depth, state)
    VALUES (${page.crawlId}::uuid, ${page.finalUrlKey}, ${page.finalUrl ?? page.url}, 0, ${FrontierState.redirect})
    ON CONFLICT (job_id, url_key) DO NOTHING`;
  if (inserted > 0) return;
  // Still waiting in the queue: this page stands for it, so it is never fetched, and it no longer counts against the limit.
  await lockFrontier(tx, page.crawlId);
  const taken = await tx.$executeRaw`
    UPDATE job_url SET state = ${FrontierState.redirect}
    WHERE job_id = ${page.crawlId}::uuid AND url_key = ${page.finalUrlKey} AND state = ${FrontierState.queued}`;
  if (taken === 0) {
    throw new DuplicateRedirectError(`Redirected to ${page.finalUrl}, which this crawl already scraped`);
  }
  await shrinkFrontierSize(tx, page.crawlId, taken);
}

export interface PageWrite {
  page: ScrapedPage;
  next: PageConsequences;
}

/**
 * Where pages are written: the Prisma client, or (a worker's batches) a pg pool of the worker's own,
 * which spares every statement Prisma's query engine (platform/db/sql-transactions.ts).
 */
export type PageStoreDb = Db | SqlTransactions;

export function inTransaction<T>(db: PageStoreDb, work: (tx: SqlTx) => Promise<T>): Promise<T> {
  return db instanceof SqlTransactions ? db.transaction(work) : db.$transaction(work);
}

export async function storeScrapedPage(db: PageStoreDb, page: ScrapedPage, next: PageConsequences, onCacheFailure?: CacheFailure): Promise<number> {
  return storeScrapedPages(db, [{ page, next }], onCacheFailure);
}

/**
 * The page cache is an optimisation that other crawls of the team write too: a copy it refuses
 * (or a deadlock with them) must not cost the pages, so the copies go under a savepoint.
 */
async function writeCacheCopies(tx: SqlTx, copies: CacheWrite[], onFailure: CacheFailure | undefined): Promise<void> {
  if (copies.length === 0) return;
  await tx.$executeRaw`SAVEPOINT page_cache`;
  try {
    await storeInCache(tx, copies);
    await tx.$executeRaw`RELEASE SAVEPOINT page_cache`;
  } catch (err) {
    await tx.$executeRaw`ROLLBACK TO SAVEPOINT page_cache`;
    onFailure?.(err);
  }
}

/**
 * Stores pages of one crawl as storeScrapedPage would one after the other, in one transaction;
 * returns how many URLs their links added to the frontier. All or nothing: a page that cannot be
 * stored (a duplicate redirect, a value PostgreSQL refuses, the same URL twice) fails them all,
 * and the caller stores them one by one to learn which.
 */
export async function storeScrapedPages(db: PageStoreDb, writes: PageWrite[], onCacheFailure?: CacheFailure): Promise<number> {
  if (writes.length === 0) return 0;
  const written = await inTransaction(db, (tx) => writeScrapedPages(tx, writes, onCacheFailure));
  // The crawl pipeline's pages are charged under their job's kind (job-kind.ts, chargeEndpoint).
  countStoredPages(writes[0]!.next.charge.endpoint as JobKind, written.inserted);
  return written.added;
}

/**
 * storeScrapedPages' writes, in the caller's transaction (a scrape answered from the page cache
 * writes its job with its page): how many URLs the links added, and how the pages inserted (not
 * rewritten by a retry) were loaded, which the caller counts once committed (countStoredPages).
 */
export async function writeScrapedPages(tx: SqlTx, writes: PageWrite[], onCacheFailure?: CacheFailure): Promise<{ added: number; inserted: LoadPath[] }> {
  const crawlId = writes[0]!.page.crawlId;
  if (writes.some((w) => w.page.crawlId !== crawlId)) throw new Error('storeScrapedPages stores pages of one crawl');
  const pages = writes.map((w) => w.page);
  for (const page of pages) await claimRedirectTarget(tx, page);
  const tracked = await trackPageChanges(
    tx,
    writes.map((w) => ({ crawlId, urlKey: w.page.urlKey, changeTracking: w.next.changeTracking })),
  );
  // Local: a write that rolls back is retried (one by one) from the documents as they came.
  const documents = pages.map((p, i) => withChangeTracking(p.document, tracked[i]));
  // One statement: the pages, their notifications and their frontier rows done. xmax is 0 on a row
  // this statement inserted, and set on one it updated (a retry's rewrite).
  const stored = await tx.$queryRaw<{ id: bigint; url_key: string; inserted: boolean; done: number; notified: number }[]>`
    WITH stored AS (
      INSERT INTO job_page (job_id, url_key, url, success, status_code, error, document, size_bytes)
      SELECT ${crawlId}::uuid, p.url_key, p.url, true, p.status_code, NULL, p.document::jsonb, p.size_bytes
      FROM unnest(${pages.map((p) => p.urlKey)}::text[], ${pages.map((p) => p.url)}::text[], ${pages.map((p) => p.statusCode)}::int[],
                  ${documents.map((d) => d.json)}::text[], ${documents.map((d) => d.sizeBytes)}::int[])
        WITH ORDINALITY AS p(url_key, url, status_code, document, size_bytes, n)
      ORDER BY p.n
      ON CONFLICT (job_id, url_key) DO UPDATE SET
        url = EXCLUDED.url, success = true, status_code = EXCLUDED.status_code, error = NULL, document = EXCLUDED.document, size_bytes = EXCLUDED.size_bytes
      RETURNING id, url_key, (xmax = 0) AS inserted
    ),
    notified AS (${notifyStoredPages(crawlId, Prisma.sql`stored`)}),
    done AS (
      UPDATE job_url SET state = ${FrontierState.done} WHERE job_id = ${crawlId}::uuid AND url_key = ANY(${pages.map((p) => p.urlKey)}::text[])
      RETURNING 1
    )
    SELECT id, url_key, inserted, (SELECT count(*) FROM done)::int AS done, (SELECT count(*) FROM notified)::int AS notified FROM stored`;
  const done = stored[0]?.done ?? 0;
  if (done !== pages.length) throw new Error(`${pages.length - done} of the pages stored have no frontier row in crawl ${crawlId}`);
  const { charge } = writes[0]!.next;
  await chargeItemsOnce(
    tx,
    { ...charge, jobId: crawlId },
    writes.map((w) => ({ itemKey: w.page.urlKey, credits: w.next.charge.credits, modelTokens: w.next.charge.modelTokens })),
  );
  for (const [i, { page, next }] of writes.entries()) {
    await writeCrawlEvent(tx, crawlId, next.webhook, { type: 'crawl.page', itemKey: page.urlKey, success: true, data: [documents[i]!.document] });
  }
  await indexPages(
    tx,
    writes.flatMap((w) => (w.next.index ? [w.next.index] : [])),
  );
  const robotsBlocked = writes.flatMap((w) => w.next.robotsBlocked);
  if (robotsBlocked.length > 0) {
    await tx.$executeRaw`
      INSERT INTO crawl_robots_blocked (crawl_id, url_key, url)
      SELECT ${crawlId}::uuid, b.url_key, b.url FROM unnest(${robotsBlocked.map((b) => b.urlKey)}::text[], ${robotsBlocked.map((b) => b.url)}::text[]) AS b(url_key, url)
      ON CONFLICT DO NOTHING`;
  }
  await recordThreatBlocked(
    tx,
    crawlId,
    writes.flatMap((w) => w.next.threatBlocked ?? []),
    writes[0]!.next.webhook,
  );
  await writeCacheCopies(
    tx,
    writes.flatMap((w) => (w.next.cache ? [w.next.cache] : [])),
    onCacheFailure,
  );
  // One insert of every page's links, in page order: what the pages stored one by one would admit.
  const { limit, queuedPerCredit } = writes[0]!.next;
  const added = await addToFrontier(
    tx,
    crawlId,
    writes.flatMap((w) => w.next.follow),
    limit,
    queuedPerCredit,
  );
  const inserted = new Set(stored.filter((r) => r.inserted).map((r) => r.url_key));
  return { added, inserted: pages.filter((p) => inserted.has(p.urlKey)).map((p) => p.path) };
}

/**
 * URLs threat protection keeps the crawl from, as failed pages with the rule that blocked them. They
 * get no frontier row, so they never count against the crawl's limit; a page row that exists
 * already (the URL was scraped or failed before) is left as it is.
 */
export async function recordThreatBlocked(
  tx: SqlTx,
  crawlId: string,
  blocked: { url: string; urlKey: string; error: string }[],
  webhook: JobWebhook | undefined,
): Promise<void> {
  const seen = new Set<string>();
  const unique = blocked.filter((b) => !seen.has(b.urlKey) && seen.add(b.urlKey));
  if (unique.length === 0) return;
  const documents = unique.map((b) => ({ metadata: { sourceURL: b.url, url: b.url, error: storableText(b.error) } }));
  const inserted = await tx.$queryRaw<{ url_key: string }[]>`
    INSERT INTO job_page (job_id, url_key, url, success, status_code, error, document, size_bytes)
    SELECT ${crawlId}::uuid, b.url_key, b.url, false, NULL, b.error, b.document::jsonb, 0
    FROM unnest(${unique.map((b) => b.urlKey)}::text[], ${unique.map((b) => b.url)}::text[], ${documents.map((d) => d.metadata.error)}::text[],
                ${documents.map((d) => JSON.stringify(d))}::text[]) AS b(url_key, url, error, document)
    ON CONFLICT (job_id, url_key) DO NOTHING
    RETURNING url_key`;
  const fresh = new Set(inserted.map((r) => r.url_key));
  for (const [i, b] of unique.entries()) {
    if (!fresh.has(b.urlKey)) continue;
    await writeCrawlEvent(tx, crawlId, webhook, {
      type: 'crawl.page',
      itemKey: b.urlKey,
      success: false,
      data: [documents[i]!],
      error: documents[i]!.metadata.error,
    });
  }
}

/**
 * Records a page that could not be scraped. A page already stored as scraped
 * stays scraped: a late failure (a retried attempt, a stopped batch) never
 * overwrites it.
 */
export async function storeFailedPage(
  db: Db,
  page: { crawlId: string; urlKey: string; url: string; error: string; statusCode?: number },
  webhook?: JobWebhook,
): Promise<void> {
  // Errors quote what pages and browsers said (an action's exception, a server's message).
  const error = storableText(page.error);
  const metadata = { sourceURL: page.url, url: page.url, ...(page.statusCode !== undefined && { statusCode: page.statusCode }), error };
  const row = { url: page.url, success: false, statusCode: page.statusCode ?? null, error, document: { metadata } };
  const where = { jobId: page.crawlId, urlKey: page.urlKey };
  const counted = await db.$transaction(async (tx) => {
    const created = await tx.jobPage.createMany({ data: [{ ...where, ...row }], skipDuplicates: true });
    if (created.count === 0 && (await tx.jobPage.updateMany({ where: { ...where, success: false }, data: row })).count === 0) return undefined;
    await tx.jobUrl.updateMany({ where: { ...where, state: { not: FrontierState.done } }, data: { state: FrontierState.failed } });
    await writeCrawlEvent(tx, page.crawlId, webhook, { type: 'crawl.page', itemKey: page.urlKey, success: false, data: [{ metadata }], error });
    if (created.count === 0) return undefined;
    // Read only for the count: failed pages are few, and their callers need not know the job's kind.
    const job = await tx.job.findUnique({ where: { id: page.crawlId }, select: { kind: true } });
    return job ? jobKind(job) : undefined;
  });
  if (counted) countFailedPage(counted, error);
}
