// What bench:scale found growing with a crawl (issue 43), held flat at a size the suite
// affords: admitting links, the status's total and completed, the frontier claim and a deep `next`
// link must not read the whole frontier or every page. Costs are counted, not timed: the index and table tuples a
// statement read, from PostgreSQL's statistics of the test's own transaction.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addToFrontier, claimMore, skipQueued } from '../../src/jobs/frontier/frontier.ts';
import { crawlCounts, crawlStatusBody, jobCounts } from '../../src/jobs/job-status.ts';
import { paginationSchema } from '../../src/jobs/job-routes.ts';
import { storeScrapedPage } from '../../src/jobs/pages/page-store.ts';
import { createDb, type Db } from '../../src/platform/db/prisma.ts';
import { creditsUsedByJob } from '../../src/platform/usage/credits.ts';
import { insertCrawl, scrapedPage, testTeam } from '../support/crawl-rows.ts';

/** Rows a crawl of this size holds: enough that reading them all is unmistakable beside a page's worth. */
const ROWS = 20_000;
/** What a statement that reads only its page may read of job_url or job_page (their indexes included). */
const A_PAGE_OF_TUPLES = 500;

let db: Db;
let teamId: string;

beforeAll(async () => {
  db = createDb(inject('databaseUrl'), 5);
  teamId = await testTeam(db, { credits: 10_000_000 });
});
afterAll(() => db?.$disconnect());

/** A crawl whose frontier holds `ROWS` queued URLs at depths 1 to 9, admitted as the page store admits links. */
async function bigFrontier(): Promise<string> {
  const { id } = await insertCrawl(db, teamId, { url: 'http://big.test/', limit: 10 * ROWS });
  await db.$executeRaw`
    INSERT INTO job_url (job_id, url, url_key, depth)
    SELECT ${id}::uuid, 'http://big.test/p' || i, 'big.test/p' || i, 1 + i % 9 FROM generate_series(1, ${ROWS}) AS i`;
  // The first admission counts the rows once (as for a crawl of before job_frontier_size) and keeps the count.
  await addToFrontier(db, id, [{ url: 'http://big.test/', urlKey: 'big.test/', depth: 0 }], 10 * ROWS, 2);
  await db.$executeRawUnsafe('ANALYZE job_url');
  return id;
}

/** Tuples of `table` (heap and indexes) the transaction has read so far. */
async function tuplesRead(tx: Db, table: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: bigint }[]>`
    SELECT pg_stat_get_xact_tuples_returned(${table}::regclass) + pg_stat_get_xact_tuples_fetched(${table}::regclass)
         + (SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(indexrelid)), 0) FROM pg_index WHERE indrelid = ${table}::regclass) AS n`;
  return Number(row!.n);
}

/** Runs `work` in a transaction that is rolled back, and counts what it read of `table`. */
async function readsOf(table: string, work: (tx: Db) => Promise<unknown>): Promise<number> {
  let read = 0;
  await db
    .$transaction(async (tx) => {
      const before = await tuplesRead(tx as unknown as Db, table);
      await work(tx as unknown as Db);
      read = (await tuplesRead(tx as unknown as Db, table)) - before;
      throw new RolledBack();
    })
    .catch((err) => {
      if (!(err instanceof RolledBack)) throw err;
    });
  return read;
}
class RolledBack extends Error {}

describe('costs that must not grow with the crawl', () => {
  it('admits links by the frontier size it keeps, not by counting the frontier', async () => {
    const id = await bigFrontier();
    const links = Array.from({ length: 10 }, (_, i) => ({ url: `http://big.test/new${i}`, urlKey: `big.test/new${i}`, depth: 5 }));
    const read = await readsOf('job_url', (tx) => addToFrontier(tx, id, links, 10 * ROWS, 2));
    expect(read).toBeLessThan(A_PAGE_OF_TUPLES);
    // The kept size is the count it replaces.
    const [{ admitted }] = await db.$queryRaw<{ admitted: bigint }[]>`SELECT admitted FROM job_frontier_size WHERE job_id = ${id}::uuid`;
    expect(Number(admitted)).toBe(await db.jobUrl.count({ where: { jobId: id, state: { not: 'redirect' } } }));
  });

  it('keeps the frontier size when a queued URL becomes a redirect alias, and holds the limit by it', async () => {
    const { id } = await insertCrawl(db, teamId, { url: 'http://alias.test/', limit: 3 });
    const row = (p: string) => ({ url: `http://alias.test/${p}`, urlKey: `alias.test/${p}`, depth: 1 });
    expect(await addToFrontier(db, id, [row('a'), row('b'), row('c'), row('d')], 3)).toBe(3);
    // Page a redirects to c, still queued: c becomes a's alias and no longer counts, so one more URL fits.
    const [a] = await claimMore(db, id, 'batch:1', 1);
    expect(a!.urlKey).toBe(row('a').urlKey);
    await storeScrapedPage(
      db,
      { ...scrapedPage(id, row('a')), finalUrl: row('c').url, finalUrlKey: row('c').urlKey },
      { follow: [], robotsBlocked: [], limit: 3, charge: { teamId, apiKeyId: null, endpoint: 'crawl', credits: 1 } },
    );
    expect(await addToFrontier(db, id, [row('d'), row('e')], 3)).toBe(1);
    expect(await db.jobUrl.count({ where: { jobId: id, state: { not: 'redirect' } } })).toBe(3);
  });

  it("counts a job's total for its status by its kept frontier size, not by counting the frontier", async () => {
    const id = await bigFrontier();
    await db.$executeRaw`UPDATE job_url SET state = 'failed' WHERE id IN (SELECT id FROM job_url WHERE job_id = ${id}::uuid ORDER BY id LIMIT 3)`;
    let counts: { total: number } | undefined;
    const read = await readsOf('job_url', async (tx) => (counts = await crawlCounts(tx, id)));
    expect(read).toBeLessThan(A_PAGE_OF_TUPLES);
    // What it replaces: the queued, claimed and done rows.
    expect(counts!.total).toBe(await db.jobUrl.count({ where: { jobId: id, state: { in: ['queued', 'claimed', 'done'] } } }));
    expect((await jobCounts(db, id)).total).toBe(counts!.total);
  });

  it("counts a job's stored and failed pages from the tally its pages keep, not by counting them", async () => {
    const { id } = await insertCrawl(db, teamId, { url: 'http://tally.test/', limit: 10_000 });
    const insertPages = (from: number, to: number, success: boolean, client: Db = db) => client.$executeRaw`
      INSERT INTO job_page (job_id, url_key, url, success, status_code, document, size_bytes)
      SELECT ${id}::uuid, 'tally.test/' || i, 'http://tally.test/' || i, ${success}, 200, '{}'::jsonb, 2
      FROM generate_series(${from}::int, ${to}::int) AS i`;
    await insertPages(1, 3000, true);
    await insertPages(3001, 3040, false);
    // A failed page stored again by a retry, one failed again, and pages of a transaction that rolled back.
    await db.$executeRaw`UPDATE job_page SET success = true WHERE job_id = ${id}::uuid AND url_key = 'tally.test/3001'`;
    await db.$executeRaw`UPDATE job_page SET success = false, error = 'again' WHERE job_id = ${id}::uuid AND url_key = 'tally.test/3002'`;
    await readsOf('job_page', (tx) => insertPages(5001, 5100, true, tx));
    let counts: { completed: number; failed: number } | undefined;
    const read = await readsOf('job_page', async (tx) => (counts = await jobCounts(tx, id)));
    expect(read).toBeLessThan(A_PAGE_OF_TUPLES);
    expect(counts).toMatchObject({ completed: 3001, failed: 39 });
    expect(counts!.completed).toBe(await db.jobPage.count({ where: { jobId: id, success: true } }));
    expect((await crawlCounts(db, id)).completed).toBe(3001);
    // A job with no page yet has no tally row.
    const { id: empty } = await insertCrawl(db, teamId, { url: 'http://tally.test/', limit: 10 });
    expect(await jobCounts(db, empty)).toMatchObject({ completed: 0, failed: 0 });
  });

  it("counts a job's queued URLs from the tally its frontier keeps, not by counting the queue", async () => {
    const id = await bigFrontier();
    // Claimed, released, turned into a redirect alias, and a claim rolled back: each moves the count or not.
    await claimMore(db, id, 'batch:1', 16);
    await db.$executeRaw`UPDATE job_url SET state = 'queued', claimed_by = NULL WHERE job_id = ${id}::uuid AND claimed_by = 'batch:1' AND depth = 1`;
    await db.$executeRaw`UPDATE job_url SET state = 'redirect' WHERE id = (SELECT id FROM job_url WHERE job_id = ${id}::uuid AND state = 'queued' ORDER BY id DESC LIMIT 1)`;
    await readsOf('job_url', (tx) => claimMore(tx, id, 'batch:2', 16));
    let queued: number | undefined;
    const read = await readsOf('job_url', async (tx) => ({ queued } = await jobCounts(tx, id)));
    expect(read).toBeLessThan(A_PAGE_OF_TUPLES);
    expect(queued).toBe(await db.jobUrl.count({ where: { jobId: id, state: 'queued' } }));
    expect(queued).toBe(ROWS - 1);
    // A crawl's end skips its whole queue in one statement: one move of the count, whatever the queue's size.
    expect(await skipQueued(db, id)).toBe(ROWS);
    expect((await jobCounts(db, id)).queued).toBe(0);
  });

  it("reads a job's credits used from the sum its charges keep, not by summing the ledger", async () => {
    const { id } = await insertCrawl(db, teamId, { url: 'http://credits.test/', limit: 10_000 });
    const charge = (from: number, to: number, client: Db = db) => client.$executeRaw`
      INSERT INTO usage_entry (team_id, endpoint, job_id, item_key, credits, tokens)
      SELECT ${teamId}::uuid, 'crawl', ${id}, 'credits.test/' || i, 1 + i % 2, 0 FROM generate_series(${from}::int, ${to}::int) AS i`;
    await charge(1, 3000);
    await readsOf('usage_entry', (tx) => charge(3001, 3100, tx));
    let credits: number | undefined;
    const read = await readsOf('usage_entry', async (tx) => (credits = await creditsUsedByJob(tx, id)));
    expect(read).toBe(0);
    const [{ sum }] = await db.$queryRaw<{ sum: bigint }[]>`SELECT sum(credits) AS sum FROM usage_entry WHERE job_id = ${id}`;
    expect(credits).toBe(Number(sum));
    expect((await jobCounts(db, id)).creditsUsed).toBe(Number(sum));
    expect(await creditsUsedByJob(db, 'no-such-job')).toBe(0);
  });

  it('claims the shallowest queued URLs off its index, without sorting the queue', async () => {
    const id = await bigFrontier();
    let claimed: { depth: number }[] = [];
    // With a budget, as a batch claims: the LIMIT is then computed in the statement.
    const read = await readsOf('job_url', async (tx) => (claimed = await claimMore(tx, id, 'batch:1', 16, { teamId, inFlight: 0 })));
    expect(read).toBeLessThan(A_PAGE_OF_TUPLES);
    // The start URL (depth 0), then the first of depth 1.
    expect(claimed.map((r) => r.depth).sort()).toEqual([0, ...Array<number>(15).fill(1)]);
  });

  it('reads a deep page of results by the key its next link carries, and a walk hands out every page once', async () => {
    const { id } = await insertCrawl(db, teamId, { url: 'http://pages.test/', limit: 10_000 });
    await db.$executeRaw`
      INSERT INTO job_page (job_id, url_key, url, success, status_code, document, size_bytes)
      SELECT ${id}::uuid, 'pages.test/' || i, 'http://pages.test/' || i, true, 200,
             jsonb_build_object('markdown', 'page ' || i, 'metadata', jsonb_build_object('sourceURL', 'http://pages.test/' || i)), 20
      FROM generate_series(1, 3000) AS i`;
    await db.job.update({ where: { id }, data: { status: 'completed', completedAt: new Date() } });
    const crawl = await db.job.findUniqueOrThrow({ where: { id } });
    const status = (query: Record<string, string>) => crawlStatusBody(db, crawl, paginationSchema.parse(query), 'http://gw.test/v2/crawl/x', 24);
    const rowIds = (await db.jobPage.findMany({ where: { jobId: id }, orderBy: { id: 'asc' }, select: { id: true } })).map((r) => r.id);

    // `after` decides where the page starts; `skip` only counts (an OFFSET of skip would start at the first row).
    const deep = await status({ skip: '0', after: String(rowIds[2_000]), limit: '5' });
    expect(deep.data.map((d) => d.metadata.sourceURL)).toEqual([2002, 2003, 2004, 2005, 2006].map((i) => `http://pages.test/${i}`));
    expect(deep.next).toBe(`http://gw.test/v2/crawl/x?skip=5&after=${rowIds[2_005]}&limit=5`);

    const seen: string[] = [];
    let query: Record<string, string> | undefined = { limit: '1000' };
    while (query) {
      const body = await status(query);
      seen.push(...body.data.map((d) => d.metadata.sourceURL!));
      query = body.next ? Object.fromEntries(new URL(body.next).searchParams) : undefined;
    }
    expect(seen).toHaveLength(3000);
    expect(new Set(seen).size).toBe(3000);
  });
});
