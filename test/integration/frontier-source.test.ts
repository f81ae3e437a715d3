// FrontierSource alone, over a crawl's frontier in the real PostgreSQL: what a
// batch claims (how many, in what order, when it stops), what a retry takes back,
// when "nothing now" becomes "nothing more", and hand-backs. No page is loaded:
// the test plays the batch, settling pages in the tally and the page store itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { BatchTally } from '../../src/jobs/batch/batch-tally.ts';
import { FrontierSource, type FrontierSourceOptions, type RunningBatches } from '../../src/jobs/batch/frontier-source.ts';
import { addToFrontier, claimMore, frontierCounts, type NewFrontierUrl } from '../../src/jobs/frontier/frontier.ts';
import { storeScrapedPage } from '../../src/jobs/pages/page-store.ts';
import { createDb, type Db } from '../../src/platform/db/prisma.ts';
import { insertCrawl, scrapedPage, testTeam } from '../support/crawl-rows.ts';

let db: Db;
let teamId: string;

beforeAll(async () => {
  db = createDb(inject('databaseUrl'), 10);
  teamId = await testTeam(db, { credits: 1000 });
});
afterAll(() => db?.$disconnect());

const SITE = 'http://site.test';
const at = (path: string, depth: number): NewFrontierUrl => ({ url: `${SITE}${path}`, urlKey: `site.test${path}`, depth });

/** A crawl of `team` whose frontier holds `urls` (inserted in this order). */
async function crawlWith(urls: NewFrontierUrl[], team = teamId): Promise<string> {
  const { id } = await insertCrawl(db, team, { url: `${SITE}/`, sitemap: 'skip' });
  await addToFrontier(db, id, urls, 1000);
  return id;
}

function source(crawlId: string, over: Partial<FrontierSourceOptions> = {}) {
  const tally = new BatchTally();
  const opts: FrontierSourceOptions = {
    db,
    crawlId,
    batchKey: `batch-${crawlId}:0`,
    teamId,
    size: 100,
    tally,
    stopping: () => false,
    claimWindowMs: 60_000,
    idleMs: 60_000,
    ...over,
  };
  return { src: new FrontierSource(opts), tally, batchKey: opts.batchKey };
}

/** The page store's write of a page the batch loaded. */
const store = (crawlId: string, r: { url: string; urlKey: string }) =>
  storeScrapedPage(db, scrapedPage(crawlId, r), {
    follow: [],
    robotsBlocked: [],
    limit: 1000,
    charge: { teamId, apiKeyId: null, endpoint: 'crawl', credits: 1 },
  });

const byKey = <T extends { key: string }>(targets: T[]) => targets.toSorted((a, b) => a.key.localeCompare(b.key));

const rowOf = (crawlId: string, urlKey: string) => db.jobUrl.findUniqueOrThrow({ where: { jobId_urlKey: { jobId: crawlId, urlKey } } });

describe('FrontierSource.claim', () => {
  it('claims up to `room`, shallowest first, never more than `size` in all, then null', async () => {
    // Inserted deepest first: the order of the claims is the depth's, not the insertion's.
    const crawlId = await crawlWith([at('/d2a', 2), at('/d2b', 2), at('/d1a', 1), at('/d2c', 2), at('/', 0), at('/d1b', 1)]);
    const { src, tally } = source(crawlId, { size: 4 });
    const first = await src.claim(3);
    // Which rows are claimed goes by depth; the order they come back in is the UPDATE's.
    expect(byKey(first!)).toEqual([
      { url: `${SITE}/`, key: 'site.test/', depth: 0 },
      { url: `${SITE}/d1a`, key: 'site.test/d1a', depth: 1 },
      { url: `${SITE}/d1b`, key: 'site.test/d1b', depth: 1 },
    ]);
    // Room for 10, but only one more fits the size.
    const second = await src.claim(10);
    expect(second!.map((t) => t.depth)).toEqual([2]);
    expect(await src.claim(10)).toBeNull();
    expect(tally).toMatchObject({ claimed: 4, todo: 4 });
    expect(await frontierCounts(db, crawlId)).toEqual({ queued: 2, claimed: 4 });
    expect(src.outOfCredits).toBe(false);
    expect(src.starved).toBe(false);
  });

  it('claims nothing once the claim window has passed', async () => {
    const crawlId = await crawlWith([at('/a', 1), at('/b', 1)]);
    const { src } = source(crawlId, { claimWindowMs: 300 });
    expect(await src.claim(1)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 350));
    expect(await src.claim(1)).toBeNull();
    expect(await frontierCounts(db, crawlId)).toEqual({ queued: 1, claimed: 1 });
  });

  it('claims nothing once the batch is stopping', async () => {
    const crawlId = await crawlWith([at('/a', 1), at('/b', 1)]);
    let stopping = false;
    const { src } = source(crawlId, { stopping: () => stopping });
    expect(await src.claim(1)).toHaveLength(1);
    stopping = true;
    expect(await src.claim(5)).toBeNull();
    expect(await frontierCounts(db, crawlId)).toEqual({ queued: 1, claimed: 1 });
  });

  it("on a retry takes back the earlier attempt's rows first, settles a stored one as done and returns only the unstored ones", async () => {
    const crawlId = await crawlWith([at('/a', 1), at('/b', 1), at('/c', 1), at('/d', 1)]);
    const batchKey = `batch-${crawlId}:0`;
    // The earlier attempt claimed three rows: it stored /a through the page store; /b got its page row
    // while its frontier row still says claimed; /c it never got to.
    const earlier = await claimMore(db, crawlId, batchKey, 3);
    expect(earlier.map((r) => r.urlKey).sort()).toEqual(['site.test/a', 'site.test/b', 'site.test/c']);
    await store(crawlId, at('/a', 1));
    await db.jobPage.create({ data: { jobId: crawlId, urlKey: 'site.test/b', url: `${SITE}/b`, success: true, statusCode: 200, document: { metadata: {} } } });
    // Found since, and shallower: still the held rows come first.
    await addToFrontier(db, crawlId, [at('/', 0)], 1000);

    const { src, tally } = source(crawlId, { batchKey });
    expect(src.earlierTaken).toBe(false);
    const retry = await src.claim(10);
    expect(src.earlierTaken).toBe(true);
    expect(retry).toEqual([{ url: `${SITE}/c`, key: 'site.test/c', depth: 1 }]);
    expect((await rowOf(crawlId, 'site.test/b')).state).toBe('done');
    expect((await rowOf(crawlId, 'site.test/a')).state).toBe('done');
    // Every held row counts as claimed; only the unstored one is this attempt's to do.
    expect(tally).toMatchObject({ claimed: 3, todo: 1 });
    // Then new rows, shallowest first.
    expect(byKey((await src.claim(10))!).map((t) => t.key)).toEqual(['site.test/', 'site.test/d']);
    expect(tally).toMatchObject({ claimed: 5, todo: 3 });
  });

  it('on a retry whose earlier attempt stored everything goes on to new rows in the same call', async () => {
    const crawlId = await crawlWith([at('/a', 1), at('/b', 1)]);
    const batchKey = `batch-${crawlId}:0`;
    const [held] = await claimMore(db, crawlId, batchKey, 1);
    await store(crawlId, held!);
    const { src, tally } = source(crawlId, { batchKey });
    expect((await src.claim(10))!.map((t) => t.key)).toEqual(['site.test/b']);
    expect(src.earlierTaken).toBe(true);
    expect(tally).toMatchObject({ claimed: 2, todo: 1 });
  });

  it("takes the earlier attempt's rows back on the next claim when the database failed the first time it asked", async () => {
    const crawlId = await crawlWith([at('/a', 1), at('/b', 1)]);
    const batchKey = `batch-${crawlId}:0`;
    await claimMore(db, crawlId, batchKey, 1);
    // The first read of the held rows fails, as a statement does on a connection the database dropped.
    let failures = 1;
    const flaky = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop !== 'jobUrl') return Reflect.get(target, prop, receiver);
        return new Proxy(target.jobUrl, {
          get(model, name, r) {
            if (name === 'findMany' && failures > 0) {
              failures--;
              return () => Promise.reject(new Error('Connection terminated unexpectedly'));
            }
            return Reflect.get(model, name, r);
          },
        });
      },
    });
    const { src } = source(crawlId, { batchKey, db: flaky });
    await expect(src.claim(10)).rejects.toThrow('Connection terminated');
    expect(src.earlierTaken).toBe(false);
    expect((await src.claim(10))!.map((t) => t.key)).toEqual(['site.test/a']);
    expect(src.earlierTaken).toBe(true);
  });

  it('gives a team without credits null and says it is out of credits', async () => {
    const broke = await testTeam(db, { credits: 0 });
    const crawlId = await crawlWith([at('/a', 1)], broke);
    const { src, tally } = source(crawlId, { teamId: broke });
    expect(await src.claim(5)).toBeNull();
    expect(src.outOfCredits).toBe(true);
    expect(tally.claimed).toBe(0);
    expect(await frontierCounts(db, crawlId)).toEqual({ queued: 1, claimed: 0 });
  });

  it('claims no more than the balance less the pages in flight pay for, and waits (empty, not null) while they are', async () => {
    const poor = await testTeam(db, { credits: 2 });
    const crawlId = await crawlWith([at('/a', 1), at('/b', 1), at('/c', 1)], poor);
    const { src } = source(crawlId, { teamId: poor });
    expect(await src.claim(5)).toHaveLength(2);
    // Two pages in flight speak for the two credits: nothing now, but the team is not out of credits.
    expect(await src.claim(5)).toEqual([]);
    expect(src.outOfCredits).toBe(false);
  });

  it('reports the depth each claimed URL was found at', async () => {
    const crawlId = await crawlWith([at('/', 0), at('/a', 1), at('/a/b', 2)]);
    const { src } = source(crawlId);
    await src.claim(10);
    expect(['site.test/', 'site.test/a', 'site.test/a/b'].map((k) => src.depthOf(k))).toEqual([0, 1, 2]);
    expect(src.depthOf('site.test/never-claimed')).toBe(0);
  });
});

describe('FrontierSource.exhausted', () => {
  it('is false while URLs are queued or pages are in flight, true (starved) once nothing is queued or claimed', async () => {
    const crawlId = await crawlWith([at('/a', 1), at('/b', 1)]);
    const { src, tally } = source(crawlId);
    const [a] = (await src.claim(1))!;
    expect(await src.exhausted()).toBe(false); // /b is queued
    const [b] = (await src.claim(1))!;
    expect(await src.claim(1)).toEqual([]);
    expect(await src.exhausted()).toBe(false); // both in flight
    await store(crawlId, { url: a!.url, urlKey: a!.key });
    tally.stored();
    expect(await src.exhausted()).toBe(false); // /b still in flight
    await store(crawlId, { url: b!.url, urlKey: b!.key });
    tally.stored();
    expect(src.starved).toBe(false);
    expect(await src.exhausted()).toBe(true);
    expect(src.starved).toBe(true);
  });

  it('while another batch holds claims, is true only after idleMs', async () => {
    const crawlId = await crawlWith([at('/a', 1)]);
    await claimMore(db, crawlId, 'other-batch:0', 1);
    const { src } = source(crawlId, { idleMs: 300 });
    expect(await src.claim(5)).toEqual([]);
    expect(src.idle).toBe(false);
    expect(await src.exhausted()).toBe(false);
    expect(src.idle).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(await src.exhausted()).toBe(false);
    expect(src.starved).toBe(false);
    await new Promise((r) => setTimeout(r, 300));
    expect(await src.exhausted()).toBe(true);
    expect(src.starved).toBe(true);
  });

  it('starts the idle wait again after a claim that found rows', async () => {
    const crawlId = await crawlWith([at('/a', 1)]);
    await claimMore(db, crawlId, 'other-batch:0', 1);
    const { src, tally } = source(crawlId, { idleMs: 200 });
    expect(await src.exhausted()).toBe(false);
    await new Promise((r) => setTimeout(r, 150));
    // The other batch found a link: this one claims and stores it, so its idle time starts over.
    await addToFrontier(db, crawlId, [at('/new', 2)], 1000);
    expect(await src.claim(5)).toHaveLength(1);
    expect(src.idle).toBe(false);
    await store(crawlId, at('/new', 2));
    tally.stored();
    await new Promise((r) => setTimeout(r, 100));
    // 250 ms since the first idle ask, 100 ms since the claim.
    expect(await src.exhausted()).toBe(false);
    expect(src.starved).toBe(false);
  });
});

describe("FrontierSource.exhausted with its workflow's running batches", () => {
  /** Moves a row's claim back in time, as if its batch claimed it `ms` ago. */
  const claimedAgo = (crawlId: string, urlKey: string, ms: number) =>
    db.jobUrl.update({ where: { jobId_urlKey: { jobId: crawlId, urlKey } }, data: { claimedAt: new Date(Date.now() - ms) } });

  it('puts back in the queue what batches no longer running claimed before the answer, once per answer, and claims it', async () => {
    const crawlId = await crawlWith([at('/gone', 1), at('/alive', 2), at('/late', 3)]);
    await claimMore(db, crawlId, 'gone-batch:0', 1);
    await claimMore(db, crawlId, 'alive-batch:0', 1);
    await claimedAgo(crawlId, 'site.test/gone', 60_000);
    await claimedAgo(crawlId, 'site.test/alive', 60_000);
    let answer: RunningBatches | undefined;
    const { src, batchKey } = source(crawlId, { runningBatches: () => answer });
    answer = { keys: [batchKey, 'alive-batch:0'], askedAt: Date.now() };
    // Claimed after the question by a batch the answer does not know: maybe one launched since, so it stays.
    await claimMore(db, crawlId, 'launched-since:0', 1);
    expect(await src.claim(5)).toEqual([]);
    expect(await src.exhausted()).toBe(false);
    expect(await rowOf(crawlId, 'site.test/gone')).toMatchObject({ state: 'queued', claimedBy: null });
    expect(await rowOf(crawlId, 'site.test/alive')).toMatchObject({ state: 'claimed', claimedBy: 'alive-batch:0' });
    expect(await rowOf(crawlId, 'site.test/late')).toMatchObject({ state: 'claimed', claimedBy: 'launched-since:0' });
    expect((await src.claim(5))!.map((t) => t.key)).toEqual(['site.test/gone']);
    // The same answer again releases nothing more, however old the rows.
    await db.jobUrl.updateMany({
      where: { jobId: crawlId, urlKey: 'site.test/late' },
      data: { claimedBy: 'gone-batch:0', claimedAt: new Date(Date.now() - 60_000) },
    });
    expect(await src.claim(5)).toEqual([]);
    expect(await src.exhausted()).toBe(false); // /gone is in hand
    expect(await rowOf(crawlId, 'site.test/late')).toMatchObject({ state: 'claimed' });
  });

  it("puts back its own key's rows it did not claim itself (an attempt Temporal timed out, claiming after its retry began)", async () => {
    const crawlId = await crawlWith([at('/mine', 1), at('/stray', 2)]);
    let answer: RunningBatches | undefined;
    const { src, batchKey, tally } = source(crawlId, { runningBatches: () => answer });
    expect((await src.claim(1))!.map((t) => t.key)).toEqual(['site.test/mine']);
    // The earlier attempt, still running, claims under the same key after this one took the key's rows back.
    await claimMore(db, crawlId, batchKey, 1);
    await store(crawlId, at('/mine', 1));
    tally.stored();
    answer = { keys: [batchKey], askedAt: Date.now() };
    expect(await src.exhausted()).toBe(false);
    expect(await rowOf(crawlId, 'site.test/stray')).toMatchObject({ state: 'queued', claimedBy: null });
    expect((await src.claim(5))!.map((t) => t.key)).toEqual(['site.test/stray']);
    expect(tally).toMatchObject({ claimed: 2, todo: 2 });
  });

  it('releases nothing on an answer that does not count the batch as running (its batch ended: this attempt outlived it)', async () => {
    const crawlId = await crawlWith([at('/a', 1)]);
    await claimMore(db, crawlId, 'gone-batch:0', 1);
    await claimedAgo(crawlId, 'site.test/a', 60_000);
    const { src } = source(crawlId, { runningBatches: () => ({ keys: ['another:1'], askedAt: Date.now() }), idleMs: 60_000 });
    expect(await src.exhausted()).toBe(false);
    expect(await rowOf(crawlId, 'site.test/a')).toMatchObject({ state: 'claimed', claimedBy: 'gone-batch:0' });
  });
});

describe('FrontierSource.giveBack', () => {
  it('returns the row to the queue and lowers tally.todo', async () => {
    const crawlId = await crawlWith([at('/a', 1), at('/b', 1)]);
    const { src, tally } = source(crawlId);
    const [a] = (await src.claim(2))!;
    expect(tally.todo).toBe(2);
    await src.giveBack(a!);
    expect(tally.todo).toBe(1);
    expect(await rowOf(crawlId, a!.key)).toMatchObject({ state: 'queued', claimedBy: null, claimedAt: null });
    expect(await frontierCounts(db, crawlId)).toEqual({ queued: 1, claimed: 1 });
    // Another batch can claim it now.
    expect((await claimMore(db, crawlId, 'other-batch:0', 5)).map((r) => r.urlKey)).toEqual([a!.key]);
  });
});
