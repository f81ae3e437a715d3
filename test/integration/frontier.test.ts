// The frontier and page store under concurrency, against the real PostgreSQL.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { addToFrontier, claimBatch, frontierCounts, releaseClaims } from '../../src/crawl/frontier.ts';
import { storeScrapedPage } from '../../src/crawl/page-store.ts';
import { createDb, type Db } from '../../src/db/prisma.ts';
import { createTeam } from '../../src/teams/teams.ts';

let db: Db;
let teamId: string;

beforeAll(async () => {
  db = createDb(inject('databaseUrl'), 30);
  teamId = (await createTeam(db, { name: `frontier-${randomUUID()}` })).id;
});
afterAll(() => db?.$disconnect());

async function newCrawl(): Promise<string> {
  const id = randomUUID();
  await db.crawl.create({ data: { id, teamId, url: 'http://site.test/', options: {} } });
  return id;
}

const urls = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ url: `http://site.test/${prefix}${i}`, urlKey: `site.test/${prefix}${i}`, depth: 1 }));

describe('frontier', () => {
  it('never exceeds the limit and never duplicates, with many writers at once', async () => {
    const crawlId = await newCrawl();
    // 20 writers, overlapping URL sets, limit 50.
    const inserted = await Promise.all(Array.from({ length: 20 }, (_, w) => db.$transaction((tx) => addToFrontier(tx, crawlId, urls(`p${w % 5}-`, 20), 50))));
    expect(inserted.reduce((a, b) => a + b, 0)).toBe(50);
    expect(await db.crawlUrl.count({ where: { crawlId } })).toBe(50);
  });

  it('gives a retried batch the same rows, and releases stale claims', async () => {
    const crawlId = await newCrawl();
    await addToFrontier(db, crawlId, urls('x', 10), 100);
    const first = await claimBatch(db, crawlId, 'run:0', 4);
    const retry = await claimBatch(db, crawlId, 'run:0', 4);
    const other = await claimBatch(db, crawlId, 'run:1', 4);
    expect(retry.map((r) => r.urlKey).sort()).toEqual(first.map((r) => r.urlKey).sort());
    expect(other.map((r) => r.urlKey).filter((k) => first.some((f) => f.urlKey === k))).toEqual([]);
    expect(await frontierCounts(db, crawlId)).toEqual({ queued: 2, claimed: 8 });
    expect(await releaseClaims(db, crawlId)).toBe(8);
    expect(await frontierCounts(db, crawlId)).toEqual({ queued: 10, claimed: 0 });
  });

  it('stores many pages of one crawl at once without deadlocks, each exactly once', async () => {
    const crawlId = await newCrawl();
    await addToFrontier(db, crawlId, urls('s', 24), 1000);
    const rows = await claimBatch(db, crawlId, 'run:0', 24);
    const store = (r: (typeof rows)[number]) =>
      storeScrapedPage(
        db,
        { crawlId, urlKey: r.urlKey, url: r.url, statusCode: 200, document: { markdown: r.url, metadata: { sourceURL: r.url, url: r.url, statusCode: 200 } } },
        urls(`from-${r.urlKey.slice(-3)}-`, 5),
        1000,
      );
    await Promise.all(rows.map(store));
    // A retried activity stores the same pages again: nothing changes.
    await Promise.all(rows.map(store));
    expect(await db.crawlPage.count({ where: { crawlId } })).toBe(24);
    expect(await db.crawlUrl.count({ where: { crawlId, state: 'done' } })).toBe(24);
  });
});
