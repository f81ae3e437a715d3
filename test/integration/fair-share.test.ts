// Fair scheduling of browser slots: while one team's crawl holds every browser
// slot of the only worker, another team's new crawl gets a browser within
// seconds (the big crawl's extra batch gives its slot up), and within one crawl
// nothing is lost or fetched twice by the yielding.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newJobWorkflowId } from '../../src/jobs/definitions.ts';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';

const BIG_PAGES = 3000;
let h: Harness;
let big: FixtureSite;
let small: FixtureSite;

beforeAll(async () => {
  // One worker with two browser slots; the big team's limit (16) makes its crawl run two batches of 8.
  // Browser rendering: every page load is a browser's, so the site's hit counts show that yielding loads nothing twice.
  h = await startHarness({ worker: { browserSlots: 2 }, crawl: { pagesPerBrowser: 8, rendering: 'browser' } });
  await h.startWorker();
  // Slow pages keep the big crawl busy for minutes without burning the machine's CPU.
  // Pages written by script, as in the bench's fairness phase.
  big = await startFixtureSite(treeSite(BIG_PAGES, { scripted: true }), { delayMs: () => 250 });
  small = await startFixtureSite(treeSite(5, { scripted: true }));
});

afterAll(async () => {
  await big?.close();
  await small?.close();
  await h?.stop();
});

const leases = (crawlId: string) => h.db.browserLease.count({ where: { groupId: crawlId, aliveUntil: { gt: new Date() } } });

it('gives a new crawl of another team a browser within seconds while a big crawl holds every slot', async () => {
  const bigTeam = await h.newTeam({ concurrencyLimit: 16, credits: 1_000_000 });
  const smallTeam = await h.newTeam({ concurrencyLimit: 4 });
  const bigStart = await (
    await h.api('/v2/crawl', { method: 'POST', key: bigTeam.apiKey, json: { url: `${big.url}/`, limit: BIG_PAGES, sitemap: 'skip' } })
  ).json();
  await waitFor(
    'the big crawl to hold both browser slots',
    async () => (await leases(bigStart.id)) === 2 && (await h.db.jobPage.count({ where: { jobId: bigStart.id } })) >= 20,
    120_000,
    100,
  );

  const started = Date.now();
  const smallStart = await (
    await h.api('/v2/crawl', { method: 'POST', key: smallTeam.apiKey, json: { url: `${small.url}/`, limit: 5, sitemap: 'skip' } })
  ).json();
  await waitFor('the small crawl to store its first page', async () => (await h.db.jobPage.count({ where: { jobId: smallStart.id } })) > 0, 60_000, 50);
  const firstPageMs = Date.now() - started;
  const done = await waitForCrawl(h, smallStart.id, 60_000, smallTeam.apiKey);
  const completeMs = Date.now() - started;
  console.log(`fair share: first page of the newcomer after ${firstPageMs} ms, its 5-page crawl completed after ${completeMs} ms`);
  expect(done.status).toBe('completed');
  expect(done.completed).toBe(5);
  // Served beside the big crawl, not after it: that crawl still runs with most of its pages to go.
  // (How soon is bench:crawl's fairness figure; a timed bound here fails on a loaded CI machine.)
  const bigNow = await (await h.api(`/v2/crawl/${bigStart.id}?limit=1`, { key: bigTeam.apiKey })).json();
  expect(bigNow.status).toBe('scraping');
  expect(bigNow.completed).toBeLessThan(BIG_PAGES / 2);

  // The big crawl gets its second browser back once the newcomer is done.
  await waitFor('the big crawl to run two batches again', async () => (await leases(bigStart.id)) === 2, 60_000, 100);
  const cancelled = await h.api(`/v2/crawl/${bigStart.id}`, { method: 'DELETE', key: bigTeam.apiKey });
  expect(cancelled.status).toBe(200);
  // The status says cancelled at once; the workflow then waits for its batches to let go.
  await h.temporal.workflow
    .getHandle(newJobWorkflowId('crawl', bigStart.id))
    .result()
    .catch(() => undefined);
  // Yielding never loads a page twice: every stored page was fetched once.
  const stored = await h.db.jobPage.findMany({ where: { jobId: bigStart.id }, select: { url: true } });
  for (const { url } of stored) expect(big.hits.get(new URL(url).pathname), url).toBe(1);
  const demand = await h.db.browserDemand.findMany({ where: { groupId: { in: [bigStart.id, smallStart.id] } } });
  expect(demand, JSON.stringify(demand)).toEqual([]);
  expect(await h.db.browserLease.findMany({ where: { groupId: bigStart.id } })).toEqual([]);
});
