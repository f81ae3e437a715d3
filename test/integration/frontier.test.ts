// The frontier and page store under concurrency, against the real PostgreSQL.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { addToFrontier, claimMore, frontierCounts, heldClaims, releaseClaims } from '../../src/jobs/frontier/frontier.ts';
import { DuplicateRedirectError, prepareDocument, storeFailedPage, storeScrapedPage, storeScrapedPages } from '../../src/jobs/pages/page-store.ts';
import { startBrowserLease } from '../../src/platform/browser/browser-share.ts';
import { busyTeamSlots, renewTeamSlots } from '../../src/platform/teams/team-slots.ts';
import { BatchLeases } from '../../src/jobs/batch/batch-leases.ts';
import { teamSlotStore } from '../../src/jobs/batch/team-slot-store.ts';
import { creditsUsedByJob } from '../../src/platform/usage/credits.ts';
import { createDb, type Db } from '../../src/platform/db/prisma.ts';
import { createTeam } from '../../src/platform/teams/teams.ts';
import { registry } from '../../src/platform/metrics/registry.ts';
import { scrapedPage } from '../support/crawl-rows.ts';
import { waitFor } from '../support/wait-for.ts';

let db: Db;
let teamId: string;

/** This process's count of a page counter's series (the page store counts in the process that writes). */
async function counted(name: 'pages_stored_total' | 'pages_failed_total', labels: Record<string, string>): Promise<number> {
  const { values } = await registry.getSingleMetric(`crawl_service_${name}`)!.get();
  return values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value ?? 0;
}

beforeAll(async () => {
  db = createDb(inject('databaseUrl'), 30);
  teamId = (await createTeam(db, { name: `frontier-${randomUUID()}`, credits: 1000 })).id;
});
afterAll(() => db?.$disconnect());

async function newCrawl(): Promise<string> {
  const id = randomUUID();
  await db.job.create({ data: { id, teamId, url: 'http://site.test/', options: {} } });
  return id;
}

const urls = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ url: `http://site.test/${prefix}${i}`, urlKey: `site.test/${prefix}${i}`, depth: 1 }));

describe('frontier', () => {
  it('never exceeds the limit and never duplicates, with many writers at once', async () => {
    const crawlId = await newCrawl();
    // 20 writers, overlapping URL sets, limit 50.
    const inserted = await Promise.all(Array.from({ length: 20 }, (_, w) => db.$transaction((tx) => addToFrontier(tx, crawlId, urls(`p${w % 5}-`, 20), 50))));
    expect(inserted.reduce((a, b) => a + b, 0)).toBe(50);
    expect(await db.jobUrl.count({ where: { jobId: crawlId } })).toBe(50);
  });

  it('gives a retried batch the same rows, and releases stale claims', async () => {
    const crawlId = await newCrawl();
    await addToFrontier(db, crawlId, urls('x', 10), 100);
    const first = await claimMore(db, crawlId, 'run:0', 4);
    const retry = await heldClaims(db, crawlId, 'run:0');
    const other = await claimMore(db, crawlId, 'run:1', 4);
    expect(retry.map((r) => r.urlKey).sort()).toEqual(first.map((r) => r.urlKey).sort());
    expect(other.map((r) => r.urlKey).filter((k) => first.some((f) => f.urlKey === k))).toEqual([]);
    expect(await frontierCounts(db, crawlId)).toEqual({ queued: 2, claimed: 8 });
    expect(await releaseClaims(db, crawlId)).toBe(8);
    expect(await frontierCounts(db, crawlId)).toEqual({ queued: 10, claimed: 0 });
  });

  it('claims no more rows than the team can pay for, less the credits already spoken for', async () => {
    const poor = (await createTeam(db, { name: `frontier-poor-${randomUUID()}`, credits: 5 })).id;
    const crawlId = randomUUID();
    await db.job.create({ data: { id: crawlId, teamId: poor, url: 'http://site.test/', options: {} } });
    await addToFrontier(db, crawlId, urls('b', 10), 100);
    expect(await claimMore(db, crawlId, 'run:0', 10, { teamId: poor, inFlight: 2 })).toHaveLength(3);
    expect(await claimMore(db, crawlId, 'run:0', 10, { teamId: poor, inFlight: 5 })).toHaveLength(0);
    expect(await claimMore(db, crawlId, 'run:0', 10, { teamId: poor, inFlight: 9 })).toHaveLength(0);
    expect(await claimMore(db, crawlId, 'run:0', 2, { teamId: poor, inFlight: 0 })).toHaveLength(2);
    expect(await frontierCounts(db, crawlId)).toEqual({ queued: 5, claimed: 5 });
  });

  it('stores many pages of one crawl at once without deadlocks, each exactly once', async () => {
    const crawlId = await newCrawl();
    await addToFrontier(db, crawlId, urls('s', 24), 1000);
    const rows = await claimMore(db, crawlId, 'run:0', 24);
    const store = (r: (typeof rows)[number]) =>
      storeScrapedPage(db, scrapedPage(crawlId, r), {
        follow: urls(`from-${r.urlKey.slice(-3)}-`, 5),
        robotsBlocked: [],
        limit: 1000,
        charge: { teamId, apiKeyId: null, endpoint: 'crawl', credits: 2 },
      });
    const before = (await db.team.findUniqueOrThrow({ where: { id: teamId } })).creditBalance;
    await Promise.all(rows.map(store));
    // A retried activity stores the same pages again: nothing changes, nothing is billed twice.
    await Promise.all(rows.map(store));
    expect(await db.jobPage.count({ where: { jobId: crawlId } })).toBe(24);
    expect(await db.jobUrl.count({ where: { jobId: crawlId, state: 'done' } })).toBe(24);
    expect(await creditsUsedByJob(db, crawlId)).toBe(48);
    expect((await db.team.findUniqueOrThrow({ where: { id: teamId } })).creditBalance).toBe(before - 48);
  });

  it('stores a group of pages in one transaction as one by one: same pages, charges and admitted links; all or nothing', async () => {
    const write = (crawlId: string, r: { url: string; urlKey: string }, i: number) => ({
      page: {
        crawlId,
        urlKey: r.urlKey,
        url: r.url,
        statusCode: 200 + i,
        document: prepareDocument({ markdown: `# ${i}`, metadata: { sourceURL: r.url, url: r.url, statusCode: 200 + i } }),
        path: 'http' as const,
      },
      // Overlapping links and a limit the group reaches: admission must follow page order.
      next: {
        follow: urls(`g${i % 3}-`, 6),
        robotsBlocked: [{ url: `http://site.test/blocked${i}`, urlKey: `site.test/blocked${i}` }],
        limit: 14,
        charge: { teamId, apiKeyId: null, endpoint: 'crawl' as const, credits: i + 1 },
      },
    });
    const outcome = async (crawlId: string) => ({
      pages: await db.jobPage.findMany({
        where: { jobId: crawlId },
        orderBy: { id: 'asc' },
        select: { urlKey: true, statusCode: true, document: true, success: true },
      }),
      frontier: await db.jobUrl.findMany({ where: { jobId: crawlId }, orderBy: { id: 'asc' }, select: { urlKey: true, depth: true, state: true } }),
      blocked: await db.crawlRobotsBlocked.count({ where: { crawlId } }),
      credits: await creditsUsedByJob(db, crawlId),
    });
    const [grouped, single] = [await newCrawl(), await newCrawl()];
    for (const crawlId of [grouped, single]) await addToFrontier(db, crawlId, urls('w', 4), 1000);
    const byKey = (a: { urlKey: string }, b: { urlKey: string }) => a.urlKey.localeCompare(b.urlKey);
    const groupedRows = (await claimMore(db, grouped, 'run:0', 4)).sort(byKey);
    const singleRows = (await claimMore(db, single, 'run:0', 4)).sort(byKey);
    const before = (await db.team.findUniqueOrThrow({ where: { id: teamId } })).creditBalance;
    const storedBefore = await counted('pages_stored_total', { kind: 'crawl', path: 'http' });
    expect(
      await storeScrapedPages(
        db,
        groupedRows.map((r, i) => write(grouped, r, i)),
      ),
    ).toBe(10);
    expect((await db.team.findUniqueOrThrow({ where: { id: teamId } })).creditBalance).toBe(before - 10);
    for (const [i, r] of singleRows.entries()) await storeScrapedPage(db, write(single, r, i).page, write(single, r, i).next);
    expect(await outcome(grouped)).toEqual(await outcome(single));
    // Stored again (a retried batch): nothing changes, nothing is billed or counted twice.
    await storeScrapedPages(
      db,
      groupedRows.map((r, i) => write(grouped, r, i)),
    );
    expect(await outcome(grouped)).toEqual(await outcome(single));
    expect((await counted('pages_stored_total', { kind: 'crawl', path: 'http' })) - storedBefore).toBe(8);

    // One page the group cannot store (no frontier row) and the whole group is rolled back.
    const crawlId = await newCrawl();
    await addToFrontier(db, crawlId, urls('v', 2), 1000);
    const rows = await claimMore(db, crawlId, 'run:0', 2);
    const stray = { url: 'http://site.test/stray', urlKey: 'site.test/stray' };
    await expect(
      storeScrapedPages(
        db,
        [...rows, stray].map((r, i) => write(crawlId, r, i)),
      ),
    ).rejects.toThrow(/no frontier row/);
    expect(await outcome(crawlId)).toMatchObject({ pages: [], blocked: 0, credits: 0 });
  });

  it("writes the pages' cache copies with them, and stores the pages without them when the cache refuses", async () => {
    const crawlId = await newCrawl();
    await addToFrontier(db, crawlId, urls('c', 3), 1000);
    const rows = await claimMore(db, crawlId, 'run:0', 3);
    const next = { follow: [], robotsBlocked: [], limit: 1000, charge: { teamId, apiKeyId: null, endpoint: 'crawl' as const, credits: 1 } };
    const page = (r: (typeof rows)[number]) => ({
      crawlId,
      urlKey: r.urlKey,
      url: r.url,
      statusCode: 200,
      document: prepareDocument({ metadata: { sourceURL: r.url, url: r.url, statusCode: 200 } }),
      path: 'http' as const,
    });
    const copy = (r: (typeof rows)[number], team = teamId, rawHtml = `<p>${r.url}</p>`) => ({
      teamId: team,
      key: `key-${crawlId}-${r.urlKey}`,
      load: { finalUrl: r.url, statusCode: 200, rawHtml },
    });
    const failures: unknown[] = [];
    // The first page twice under one key: the last copy is kept.
    const [a, b, c] = rows;
    await storeScrapedPages(
      db,
      [
        { page: page(a!), next: { ...next, cache: copy(a!) } },
        { page: page(b!), next: { ...next, cache: { ...copy(a!, teamId, 'newer'), key: copy(a!).key } } },
      ],
      (e) => failures.push(e),
    );
    expect(failures).toEqual([]);
    const cached = await db.pageCache.findMany({ where: { cacheKey: { startsWith: `key-${crawlId}` } }, select: { cacheKey: true, document: true } });
    expect(cached).toEqual([{ cacheKey: copy(a!).key, document: { finalUrl: a!.url, statusCode: 200, rawHtml: 'newer' } }]);
    // A copy the cache refuses (no such team): the page is stored all the same, the failure is told.
    await storeScrapedPages(db, [{ page: page(c!), next: { ...next, cache: copy(c!, randomUUID()) } }], (e) => failures.push(e));
    expect(failures).toHaveLength(1);
    expect(await db.jobPage.count({ where: { jobId: crawlId, success: true } })).toBe(3);
    expect(await db.pageCache.count({ where: { cacheKey: copy(c!).key } })).toBe(0);
  });

  it('stores a redirect target once: a second page redirecting there is a duplicate', async () => {
    const crawlId = await newCrawl();
    await addToFrontier(db, crawlId, [...urls('r', 2), { url: 'http://site.test/target', urlKey: 'site.test/target', depth: 1 }], 1000);
    const [a, b] = await claimMore(db, crawlId, 'run:0', 2);
    const page = (r: typeof a) => ({
      crawlId,
      urlKey: r.urlKey,
      url: r.url,
      statusCode: 200,
      finalUrl: 'http://site.test/target',
      finalUrlKey: 'site.test/target',
      document: prepareDocument({ metadata: { sourceURL: r.url, url: 'http://site.test/target', statusCode: 200 } }),
      path: 'browser' as const,
    });
    const next = { follow: [], robotsBlocked: [], limit: 1000, charge: { teamId, apiKeyId: null, endpoint: 'crawl' as const, credits: 1 } };
    await storeScrapedPage(db, page(a), next);
    // The queued target was taken over by the redirect: it is never fetched itself.
    expect(await frontierCounts(db, crawlId)).toEqual({ queued: 0, claimed: 1 });
    await expect(storeScrapedPage(db, page(b), next)).rejects.toBeInstanceOf(DuplicateRedirectError);
  });

  it('never lets a late failure overwrite a scraped page, and lets a success replace a failure', async () => {
    const crawlId = await newCrawl();
    await addToFrontier(db, crawlId, urls('f', 2), 1000);
    const [scraped, failedFirst] = await claimMore(db, crawlId, 'run:0', 2);
    const next = { follow: [], robotsBlocked: [], limit: 1000, charge: { teamId, apiKeyId: null, endpoint: 'crawl' as const, credits: 1 } };
    const store = (r: typeof scraped) =>
      storeScrapedPage(
        db,
        {
          crawlId,
          urlKey: r.urlKey,
          url: r.url,
          statusCode: 200,
          document: prepareDocument({ metadata: { sourceURL: r.url, url: r.url, statusCode: 200 } }),
          path: 'http',
        },
        next,
      );
    const fail = (r: typeof scraped) => storeFailedPage(db, { crawlId, urlKey: r.urlKey, url: r.url, error: 'torn down' });

    const failedBefore = await counted('pages_failed_total', { kind: 'crawl', reason: 'other' });
    await store(scraped);
    await fail(scraped);
    await fail(failedFirst);
    await fail(failedFirst);
    await store(failedFirst);
    // One failed row was written; the failure that found a scraped page, and the repeated one, wrote none.
    expect((await counted('pages_failed_total', { kind: 'crawl', reason: 'other' })) - failedBefore).toBe(1);
    const pages = await db.jobPage.findMany({ where: { jobId: crawlId }, select: { success: true, error: true } });
    expect(pages).toEqual([
      { success: true, error: null },
      { success: true, error: null },
    ]);
    expect(await db.jobUrl.count({ where: { jobId: crawlId, state: 'done' } })).toBe(2);
  });
});

describe('team slots', () => {
  /** One slot as a batch takes it: through its leases, from the team's rows. */
  const slotOf = async (teamId: string, group: string, limit: number, name: string, signal?: AbortSignal) => {
    const leases = new BatchLeases({ holderPrefix: name, slots: teamSlotStore(db, { teamId, group, limit, leaseMs: 60_000 }) });
    const slot = await leases.take(signal);
    return { limited: slot.waitedMs > 0, waitedMs: slot.waitedMs, holder: leases.holders()[0], release: () => slot.release() };
  };

  it('lets go of a slot whose taking committed but whose answer was lost with the connection', async () => {
    const team = (await createTeam(db, { name: `slots-${randomUUID()}` })).id;
    const lost = new Error('Connection terminated unexpectedly');
    // The statement runs and commits; its answer never reaches the batch.
    const dropsAnswers = new Proxy(db, {
      get: (target, prop, receiver) =>
        prop === '$queryRaw'
          ? (...args: Parameters<Db['$queryRaw']>) => target.$queryRaw(...args).then(() => Promise.reject(lost))
          : (Reflect.get(target, prop, receiver) as unknown),
    });
    const store = teamSlotStore(dropsAnswers, { teamId: team, group: 'crawl-1', limit: 2, leaseMs: 60_000 });
    await expect(store.tryAcquire('lost-answer')).rejects.toBe(lost);
    await waitFor('the slot to be let go', async () => (await busyTeamSlots(db, team)) === 0, 5000);
  });

  it('never lease more slots than the limit, and expired leases free their slot', async () => {
    const team = (await createTeam(db, { name: `slots-${randomUUID()}` })).id;
    const held = await Promise.all([0, 1, 2].map((i) => slotOf(team, 'crawl-1', 3, `h${i}`)));
    expect(held.every((h) => !h.limited)).toBe(true);
    expect(await busyTeamSlots(db, team)).toBe(3);
    const waiting = slotOf(team, 'crawl-1', 3, 'h3');
    await new Promise((r) => setTimeout(r, 200));
    await held[1].release();
    const late = await waiting;
    expect(late.limited).toBe(true);
    expect(late.waitedMs).toBeGreaterThanOrEqual(150);
    expect(await busyTeamSlots(db, team)).toBe(3);
    // A holder whose worker died stops renewing: its lease runs out.
    await renewTeamSlots(db, team, [held[0].holder], 1);
    await new Promise((r) => setTimeout(r, 20));
    expect((await slotOf(team, 'crawl-1', 3, 'h4')).limited).toBe(false);
  });

  it('split the team limit between its crawls that run a browser, each up to its share', async () => {
    const team = (await createTeam(db, { name: `slots-${randomUUID()}` })).id;
    const pool = `pool-${randomUUID()}`;
    const take = (group: string, holder: string, signal?: AbortSignal) => slotOf(team, group, 4, holder, signal);
    // One crawl running: it may use all four slots.
    await startBrowserLease(db, { holder: 'x-batch', pool, teamId: team, groupId: 'x' }, 60_000);
    const x = await Promise.all(['x0', 'x1', 'x2'].map((h) => take('x', h)));
    // A second crawl of the team starts: shares are now two slots each.
    await startBrowserLease(db, { holder: 'y-batch', pool, teamId: team, groupId: 'y' }, 60_000);
    expect((await take('y', 'y0')).limited).toBe(false);
    // x holds 3 (above its share): its next page waits although a slot is free...
    const stop = new AbortController();
    const xWaits = take('x', 'x3', stop.signal);
    // ...and y takes the slot x0 releases, up to its own share of two.
    await x[0].release();
    expect((await take('y', 'y1')).limited).toBe(false);
    expect(await busyTeamSlots(db, team)).toBe(4);
    await x[1].release();
    await new Promise((r) => setTimeout(r, 300));
    // x is at its share (x2 and, now, x3) once it gets the freed slot.
    await expect(xWaits).resolves.toMatchObject({ limited: true });
    stop.abort();
  });
});
