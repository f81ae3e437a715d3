// The body of GET /v2/crawl/{id}: counters plus one page of documents, at most
// 10 MB of them. `next` stays while the crawl runs or documents remain, and
// disappears once a finished crawl has handed out everything (the JS SDK
// follows `next` until it is gone).
import type { Db } from '../db/prisma.ts';
import type { Crawl } from '../generated/prisma/client.ts';

export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

export interface StatusPage {
  skip: number;
  limit: number;
}

export async function crawlCounts(db: Db, crawlId: string) {
  const [completed, total] = await Promise.all([
    db.crawlPage.count({ where: { crawlId, success: true } }),
    // Pages attempted or waiting; failed pages are in neither number, as upstream.
    db.crawlUrl.count({ where: { crawlId, state: { in: ['queued', 'claimed', 'done'] } } }),
  ]);
  return { completed, total };
}

export async function crawlStatusBody(db: Db, crawl: Crawl, page: StatusPage, nextBase: string, now = new Date()) {
  const { completed, total } = await crawlCounts(db, crawl.id);
  const rows = await db.crawlPage.findMany({
    where: { crawlId: crawl.id, success: true },
    orderBy: { id: 'asc' },
    skip: page.skip,
    take: page.limit,
    select: { document: true, sizeBytes: true },
  });
  const data: unknown[] = [];
  let bytes = 0;
  for (const row of rows) {
    if (data.length > 0 && bytes + row.sizeBytes > MAX_RESPONSE_BYTES) break;
    bytes += row.sizeBytes;
    data.push(row.document);
  }
  const returnedUpTo = page.skip + data.length;
  const more = crawl.status === 'scraping' || returnedUpTo < completed;
  const limitParam = page.limit === DEFAULT_PAGE_SIZE ? '' : `&limit=${page.limit}`;
  const expiresAt = crawl.expiresAt ?? new Date(now.getTime() + 24 * 3_600_000);
  return {
    success: true,
    status: crawl.status,
    completed,
    total,
    // One credit per scraped page.
    creditsUsed: completed,
    expiresAt: expiresAt.toISOString(),
    createdAt: crawl.createdAt.toISOString(),
    ...(crawl.completedAt && { completedAt: crawl.completedAt.toISOString() }),
    ...(more && { next: `${nextBase}?skip=${returnedUpTo}${limitParam}` }),
    data,
  };
}
