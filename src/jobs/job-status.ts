// The body of GET /v2/crawl/{id}: counters plus one page of documents, at most
// 10 MB of them (one larger document alone), and no more than that is read from
// the database. `next` stays while the crawl runs or documents remain, and
// disappears once a finished crawl has handed out everything (the JS SDK
// follows `next` until it is gone). Zero-data-retention crawls hand each
// document out once: it is erased as it is read.
import { creditsUsedByJob } from '../platform/usage/credits.ts';
import type { Db } from '../platform/db/prisma.ts';
import { Prisma, type Job } from '../generated/prisma/client.ts';
import type { PageDocument } from '../page/document-schema.ts';
import { crawlOptions } from './crawl-options.ts';
import type { JobStatus } from './job-responses.ts';
import type { JobCounts } from './definitions.ts';
import { FrontierState } from './frontier/frontier-state.ts';

export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

export interface StatusPage {
  skip: number;
  limit: number;
  /**
   * The id of the last row the previous page handed out, which every `next` link carries: the page
   * reads the rows after it by key, so a page deep in a crawl of a million costs what the first does
   * (an OFFSET of `skip` reads and drops every row before it). `skip` then only counts what was handed out.
   */
  after?: string;
}

/** The frontier states a job's `total` counts: pages attempted or waiting; failed pages are in neither number, as upstream. */
const TOTAL_STATES: string[] = [FrontierState.queued, FrontierState.claimed, FrontierState.done];

/**
 * The job's `total`: its kept frontier size (every row but redirect aliases) less its failed and
 * skipped rows, which are few, so its cost does not grow with the frontier (counting the queued,
 * claimed and done rows took 130-170 ms at 100,000 rows, issue 43). A job of before
 * job_frontier_size, without its row, is counted.
 */
const totalOf = (crawlId: string) => Prisma.sql`coalesce(
  (SELECT admitted FROM job_frontier_size WHERE job_id = ${crawlId}::uuid)
    - (SELECT count(*) FROM job_url WHERE job_id = ${crawlId}::uuid AND state IN (${FrontierState.failed}, ${FrontierState.skipped})),
  (SELECT count(*) FROM job_url WHERE job_id = ${crawlId}::uuid AND state = ANY(${TOTAL_STATES}::text[])))`;

/**
 * The job's stored and failed pages, as job_page's trigger keeps them in job_page_tally (migration
 * job_page_tally): one row read where counting the pages took 45 ms at 50,000 (issue 43). No row: no page yet.
 */
const pagesOf = (crawlId: string, column: 'succeeded' | 'failed') =>
  Prisma.sql`coalesce((SELECT ${Prisma.raw(column)} FROM job_page_tally WHERE job_id = ${crawlId}::uuid), 0)`;

export async function crawlCounts(db: Db, crawlId: string): Promise<{ completed: number; total: number }> {
  const [row] = await db.$queryRaw<{ completed: bigint; total: bigint }[]>`
    SELECT ${pagesOf(crawlId, 'succeeded')} AS completed, ${totalOf(crawlId)} AS total`;
  return { completed: Number(row!.completed), total: Number(row!.total) };
}

/**
 * What GET /v2/crawl/{id} counts, plus failed pages and queued URLs: the progress an activity hands
 * its workflow. One statement (one round trip, one snapshot) for the five numbers, each a kept
 * count (job_page_tally, job_queue_tally, usage_job): committed work only, as every caller reads
 * after its writes committed.
 */
export async function jobCounts(db: Db, crawlId: string): Promise<JobCounts> {
  const [row] = await db.$queryRaw<{ completed: bigint; failed: bigint; total: bigint; queued: bigint; credits: bigint }[]>`
    SELECT
      ${pagesOf(crawlId, 'succeeded')} AS completed,
      ${pagesOf(crawlId, 'failed')} AS failed,
      ${totalOf(crawlId)} AS total,
      coalesce((SELECT queued FROM job_queue_tally WHERE job_id = ${crawlId}::uuid), 0) AS queued,
      coalesce((SELECT credits FROM usage_job WHERE job_id = ${crawlId}), 0) AS credits`;
  return {
    completed: Number(row.completed),
    total: Number(row.total),
    failed: Number(row.failed),
    queued: Number(row.queued),
    creditsUsed: Number(row.credits),
  };
}

export function isZeroDataRetention(crawl: Job): boolean {
  return crawlOptions(crawl).zeroDataRetention === true;
}

/**
 * One page of a job's documents: at most `page.limit` rows and MAX_RESPONSE_BYTES (one larger
 * document alone); how many rows it consumed (erased ones too) and the id of the last of them.
 */
async function documentsPage(db: Db, crawl: Job, page: StatusPage, now: Date) {
  const after = page.after === undefined ? undefined : BigInt(page.after);
  // A zero-data-retention crawl hands documents out once; while it still runs
  // it hands out none, so a client polling until the end (as the SDKs do)
  // receives every document in its final read.
  const withheld = isZeroDataRetention(crawl) && crawl.status === 'scraping';
  // Sizes first, documents second: only the documents that fit the response are ever loaded.
  const rows = withheld
    ? []
    : await db.jobPage.findMany({
        where: { jobId: crawl.id, success: true, ...(after !== undefined && { id: { gt: after } }) },
        orderBy: { id: 'asc' },
        ...(after === undefined && { skip: page.skip }),
        take: page.limit,
        select: { id: true, sizeBytes: true, purgedAt: true },
      });
  const chosen: bigint[] = [];
  let bytes = 0;
  let consumed = 0;
  let lastId = after;
  for (const row of rows) {
    if (chosen.length > 0 && bytes + row.sizeBytes > MAX_RESPONSE_BYTES) break;
    consumed++;
    lastId = row.id;
    if (row.purgedAt) continue;
    bytes += row.sizeBytes;
    chosen.push(row.id);
  }
  const documents =
    chosen.length === 0
      ? []
      : await db.jobPage.findMany({
          // A concurrent zero-data-retention read may have erased one since: it is not handed out twice.
          where: { id: { in: chosen }, purgedAt: null },
          orderBy: { id: 'asc' },
          select: { id: true, document: true },
        });
  if (isZeroDataRetention(crawl) && documents.length > 0) {
    await db.jobPage.updateMany({ where: { id: { in: documents.map((d) => d.id) } }, data: { document: {}, sizeBytes: 0, purgedAt: now } });
  }
  return { data: documents.map((d) => d.document as PageDocument), consumed, lastId };
}

export async function crawlStatusBody(db: Db, crawl: Job, page: StatusPage, nextBase: string, retentionHours: number, now = new Date()): Promise<JobStatus> {
  const [{ completed, total }, creditsUsed] = await Promise.all([crawlCounts(db, crawl.id), creditsUsedByJob(db, crawl.id)]);
  const { data, consumed, lastId } = await documentsPage(db, crawl, page, now);
  const returnedUpTo = page.skip + consumed;
  const more = crawl.status === 'scraping' || returnedUpTo < completed;
  const limitParam = page.limit === DEFAULT_PAGE_SIZE ? '' : `&limit=${page.limit}`;
  const afterParam = lastId === undefined ? '' : `&after=${lastId}`;
  // While it runs, a crawl would expire that long after ending now.
  const expiresAt = crawl.expiresAt ?? new Date(now.getTime() + retentionHours * 3_600_000);
  return {
    success: true,
    status: crawl.status as JobStatus['status'],
    completed,
    total,
    creditsUsed,
    expiresAt: expiresAt.toISOString(),
    createdAt: crawl.createdAt.toISOString(),
    ...(crawl.completedAt && { completedAt: crawl.completedAt.toISOString() }),
    ...(crawl.status !== 'scraping' && crawl.warning && { warning: crawl.warning }),
    // Paused by an operator: the status stays `scraping` (the only running status the SDKs know), and says so here.
    ...(crawl.status === 'scraping' && crawl.pausedAt && { warning: pausedWarning(crawl.pausedAt, crawl.pausedBy) }),
    ...(more && { next: `${nextBase}?skip=${returnedUpTo}${afterParam}${limitParam}` }),
    data,
  };
}

/** The status's warning while an operator has the job paused. */
export function pausedWarning(pausedAt: Date, pausedBy: string | null): string {
  return `Paused since ${pausedAt.toISOString()} by ${pausedBy ?? 'unknown'}: no page is scraped until an operator resumes it.`;
}
