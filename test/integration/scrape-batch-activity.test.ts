// The scrapeBatch activity itself, run in Temporal's MockActivityEnvironment (no
// worker, no workflow): the real PostgreSQL, a local fixture site, CRAWL_RENDERING=http
// (static pages, no Chromium). What a batch claims, stores and returns, its
// heartbeats, and the slots and browser lease it leaves behind, also when it is
// cancelled mid-way.
import { CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createScrapeBatch, type ScrapeBatchInput } from '../../src/jobs/batch/scrape-batch.ts';
import { frontierCounts } from '../../src/jobs/frontier/frontier.ts';
import type { ChromiumLaunch } from '../../src/platform/browser/chromium-launch.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createDb, type Db } from '../../src/platform/db/prisma.ts';
import { SqlTransactions } from '../../src/platform/db/sql-transactions.ts';
import { createLogger } from '../../src/platform/log.ts';
import { createCrawlNetwork, type CrawlNetwork } from '../../src/platform/net/outbound-network.ts';
import { creditsUsedByJob } from '../../src/platform/usage/credits.ts';
import { convertInline } from '../../src/page/conversion/html-conversion.ts';
import { insertCrawl, seedStartUrl, testTeam } from '../support/crawl-rows.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { waitFor } from '../support/wait-for.ts';
import { createOcrEngine } from '../../src/page/ocr/ocr-engine.ts';
import { HostGate } from '../../src/jobs/politeness/host-gate.ts';

const TEXT = 'Static pages carry their words in the HTML itself, so no browser is needed to read them. ';
const SLOW_MS = 5_000;
/** The /slow/<n> pages answer after SLOW_MS while this holds. */
let slowPages = true;

let db: Db;
let pageStore: SqlTransactions | undefined;
let network: CrawlNetwork;
let site: FixtureSite;
let scrapeBatch: ReturnType<typeof createScrapeBatch>;

/** Under CRAWL_RENDERING=http no page reaches Chromium: one that tried would fail the batch. */
const noChromium: ChromiumLaunch = {
  launchOptions() {
    throw new Error('Chromium was launched under CRAWL_RENDERING=http');
  },
  user: undefined,
  executable: '/nonexistent/chromium',
};

beforeAll(async () => {
  const base = loadConfig();
  const databaseUrl = inject('databaseUrl');
  const config: Config = {
    ...base,
    logLevel: 'warn',
    database: { ...base.database, url: databaseUrl },
    // The fixture site lives on 127.0.0.1, which the address guard refuses by default.
    crawl: { ...base.crawl, rendering: 'http', allowPrivateAddresses: true, heartbeatTimeoutMs: 4_000 },
  };
  db = createDb(databaseUrl, 10);
  // The worker's way of writing pages (src/jobs/activities.ts): its own pg pool.
  pageStore = new SqlTransactions({ databaseUrl, max: 3 });
  network = createCrawlNetwork(config);
  scrapeBatch = createScrapeBatch({
    db,
    config,
    log: createLogger('warn'),
    network,
    browser: noChromium,
    convert: convertInline,
    probeImages: async () => ({}),
    pageStore,
    ocr: createOcrEngine(config.ocr),
    hostGate: new HostGate({ db: pageStore, settings: config.crawl, warn: () => undefined }),
  });
  const text = (title: string, links: string[] = []) =>
    page(title, `<main><h1>${title}</h1><p>${TEXT.repeat(3)}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main>`);
  site = await startFixtureSite(
    {
      '/': text('Home', ['/a', '/b', '/broken']),
      '/a': text('A', ['/c', '/']),
      '/b': text('B'),
      '/c': text('C'),
      // A fetch that fails: under http nothing else tries the page, so it fails.
      '/broken': { hangUp: true },
      '/slow/': text('Slow home', ['/slow/1', '/slow/2', '/slow/3', '/slow/4']),
      '/slow/1': text('Slow 1'),
      '/slow/2': text('Slow 2'),
      '/slow/3': text('Slow 3'),
      '/slow/4': text('Slow 4'),
      // A single scrape's page, slow while its batch is looked at.
      '/slow/5': text('Slow 5'),
    },
    { delayMs: (path) => (slowPages && /^\/slow\/\d/.test(path) ? SLOW_MS : 0) },
  );
});

afterAll(async () => {
  await pageStore?.end();
  await site?.close();
  await network?.close();
  await db?.$disconnect();
});

/** A crawl as its planning leaves it: the row with its options, the start URL in the frontier. */
async function plannedCrawl(path: string, credits = 1000) {
  const teamId = await testTeam(db, { credits, concurrencyLimit: 2 });
  const { id, options } = await insertCrawl(db, teamId, { url: `${site.url}${path}`, sitemap: 'skip', scrapeOptions: { formats: ['markdown', 'links'] } });
  await seedStartUrl(db, id, options);
  return { crawlId: id, teamId };
}

/** The activity in a mock activity context; its heartbeats' details are kept in order. */
function runBatch(input: ScrapeBatchInput, attempt = 1) {
  const env = new MockActivityEnvironment({ attempt });
  const beats: { handled: number }[] = [];
  env.on('heartbeat', (d: { handled: number }) => beats.push(d));
  return { env, beats, result: env.run(scrapeBatch, input) };
}

/** What a batch must leave behind, however it ended: no team slot held, no browser lease, no demand for a browser. */
async function leftBehind(teamId: string, batchKey: string) {
  return {
    slotsHeld: await db.teamSlot.count({ where: { teamId, holder: { not: null } } }),
    leases: await db.browserLease.count({ where: { OR: [{ holder: batchKey }, { teamId }] } }),
    demands: await db.browserDemand.count({ where: { holder: batchKey } }),
  };
}

const pagesOf = async (crawlId: string) =>
  Object.fromEntries(
    (await db.jobPage.findMany({ where: { jobId: crawlId }, select: { url: true, success: true } })).map((p) => [new URL(p.url).pathname, p.success]),
  );

describe('scrapeBatch', () => {
  it('stores the pages it claims and their links, returns its counts, heartbeats progress and frees every slot', async () => {
    const { crawlId, teamId } = await plannedCrawl('/');

    // The first batch reaches its size: the start page, then the two shallowest links it found.
    const first = runBatch({ crawlId, batchKey: `${crawlId}:batch:0`, size: 3, concurrency: 2 });
    expect(await first.result).toEqual({
      claimed: 3,
      succeeded: 3,
      failed: 0,
      queued: 2,
      outOfCredits: false,
      starved: false,
      yielded: false,
      // The job's counts as GET /v2/crawl/{id} gives them, for the workflow's progress.
      counts: { completed: 3, total: 5, failed: 0, queued: 2, creditsUsed: 3 },
    });
    expect(await pagesOf(crawlId)).toEqual({ '/': true, '/a': true, '/b': true });
    // Their links are in the frontier: /broken from the start page, /c from /a (and / only once).
    const frontier = await db.jobUrl.findMany({ where: { jobId: crawlId }, select: { urlKey: true, depth: true, state: true } });
    expect(frontier.map((r) => [new URL(`http://${r.urlKey}`).pathname, r.depth, r.state]).sort()).toEqual([
      ['/', 0, 'done'],
      ['/a', 1, 'done'],
      ['/b', 1, 'done'],
      ['/broken', 1, 'queued'],
      ['/c', 2, 'queued'],
    ]);
    const handled = first.beats.map((b) => b.handled);
    expect(handled.toSorted((a, b) => a - b)).toEqual(handled);
    expect(new Set(handled)).toEqual(new Set([1, 2, 3]));
    expect(await leftBehind(teamId, `${crawlId}:batch:0`)).toEqual({ slotsHeld: 0, leases: 0, demands: 0 });

    // The next batch takes the rest, one page of which fails, and ends starved.
    const second = runBatch({ crawlId, batchKey: `${crawlId}:batch:1`, size: 10, concurrency: 2 });
    expect(await second.result).toEqual({
      claimed: 2,
      succeeded: 1,
      failed: 1,
      queued: 0,
      outOfCredits: false,
      starved: true,
      yielded: false,
      // The job's, not the batch's: the first batch's pages count too; the failed page is in neither `completed` nor `total`.
      counts: { completed: 4, total: 4, failed: 1, queued: 0, creditsUsed: 4 },
    });
    expect(await pagesOf(crawlId)).toEqual({ '/': true, '/a': true, '/b': true, '/c': true, '/broken': false });
    expect(await frontierCounts(db, crawlId)).toEqual({ queued: 0, claimed: 0 });
    expect(Math.max(...second.beats.map((b) => b.handled))).toBe(2);
    expect(await creditsUsedByJob(db, crawlId)).toBe(4);
    expect(await leftBehind(teamId, `${crawlId}:batch:1`)).toEqual({ slotsHeld: 0, leases: 0, demands: 0 });
    // Each page was fetched once (a failed fetch may be tried by the fetch itself, never by another batch).
    for (const path of ['/', '/a', '/b', '/c']) expect(site.hits.get(path), path).toBe(1);
  });

  it('ends with a cancellation when cancelled mid-way, and still frees every slot', async () => {
    const { crawlId, teamId } = await plannedCrawl('/slow/');
    const batchKey = `${crawlId}:batch:0`;
    const { env, beats, result } = runBatch({ crawlId, batchKey, size: 10, concurrency: 2 });
    const outcome = result.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    // Mid-way: the start page is stored and both lanes are loading slow pages, each under a team slot.
    await waitFor(
      'two slow pages loading',
      () => beats.some((b) => b.handled === 1) && [1, 2, 3, 4].filter((i) => site.hits.has(`/slow/${i}`)).length === 2,
      10_000,
      20,
    );
    expect(await db.teamSlot.count({ where: { teamId, holder: { not: null } } })).toBe(2);
    const cancelled = Date.now();
    env.cancel();
    const ended = await outcome;
    // The slow pages were abandoned, not waited for.
    expect(Date.now() - cancelled).toBeLessThan(SLOW_MS - 1_000);
    // A cancellation, as the worker reports it: a CancelledFailure, or the AbortError of a load the
    // cancellation signal stopped (the worker completes both as cancelled, see @temporalio/worker's Activity.run).
    expect(ended).toHaveProperty('error');
    const { error } = ended as { error: Error };
    expect(error instanceof CancelledFailure || error.name === 'AbortError', String(error)).toBe(true);
    expect(env.context.cancellationSignal.aborted).toBe(true);
    expect(await leftBehind(teamId, batchKey)).toEqual({ slotsHeld: 0, leases: 0, demands: 0 });
    expect(await pagesOf(crawlId)).toEqual({ '/slow/': true });
    // The slow pages are not lost: still in the frontier, queued or held under the batch key for the crawl to release.
    const { queued, claimed } = await frontierCounts(db, crawlId);
    expect(queued + claimed).toBe(4);
    expect(await db.jobUrl.count({ where: { jobId: crawlId, state: 'claimed', NOT: { claimedBy: batchKey } } })).toBe(0);

    // Its retry (same batch key, next attempt) takes the held rows back, the stored start page included, and finishes the rest.
    slowPages = false;
    const retry = runBatch({ crawlId, batchKey, size: 10, concurrency: 2 }, 2);
    expect(await retry.result).toEqual({
      claimed: 5,
      succeeded: 4,
      failed: 0,
      queued: 0,
      outOfCredits: false,
      starved: true,
      yielded: false,
      counts: { completed: 5, total: 5, failed: 0, queued: 0, creditsUsed: 5 },
    });
    expect(await pagesOf(crawlId)).toEqual({ '/slow/': true, '/slow/1': true, '/slow/2': true, '/slow/3': true, '/slow/4': true });
    expect(site.hits.get('/slow/')).toBe(1);
    expect(await creditsUsedByJob(db, crawlId)).toBe(5);
    expect(await leftBehind(teamId, batchKey)).toEqual({ slotsHeld: 0, leases: 0, demands: 0 });
  });

  it('claims nothing for a team out of credits, and says so', async () => {
    const { crawlId, teamId } = await plannedCrawl('/', 0);
    const batchKey = `${crawlId}:batch:0`;
    expect(await runBatch({ crawlId, batchKey, size: 10, concurrency: 2 }).result).toEqual({
      claimed: 0,
      succeeded: 0,
      failed: 0,
      queued: 1,
      outOfCredits: true,
      counts: { completed: 0, total: 1, failed: 0, queued: 1, creditsUsed: 0 },
    });
    expect(await leftBehind(teamId, batchKey)).toEqual({ slotsHeld: 0, leases: 0, demands: 0 });
  });

  it("a single scrape's batch meets its browser demand, holds no browser lease for a page fetched over HTTP, and counts nothing", async () => {
    const { crawlId, teamId } = await plannedCrawl('/slow/5');
    await db.job.update({ where: { id: crawlId }, data: { kind: 'scrape' } });
    const batchKey = `${crawlId}:batch:0`;
    // As openSingleScrape leaves it: the batch's demand for a browser slot, waiting.
    await db.browserDemand.create({ data: { holder: batchKey, pool: 'test-pool', teamId, groupId: crawlId } });
    slowPages = true;
    const { result } = runBatch({ crawlId, batchKey, size: 1, concurrency: 1 });
    await waitFor('the page to be loading', () => site.hits.has('/slow/5'), 10_000, 20);
    // Loading over HTTP under its team slot: the demand is met, and no browser is held for it.
    expect(await db.teamSlot.count({ where: { teamId, holder: { not: null } } })).toBe(1);
    expect(await leftBehind(teamId, batchKey)).toEqual({ slotsHeld: 1, leases: 0, demands: 0 });
    slowPages = false;
    // Its one URL settled: nothing left queued, and no counts (its workflow sums its own).
    expect(await result).toEqual({ claimed: 1, succeeded: 1, failed: 0, queued: 0, outOfCredits: false, starved: false, yielded: false });
    expect(await pagesOf(crawlId)).toEqual({ '/slow/5': true });
    expect(await leftBehind(teamId, batchKey)).toEqual({ slotsHeld: 0, leases: 0, demands: 0 });
  });
});
