// `npm run bench:crawl`: the same local site (BENCH_PAGES, 500) crawled through
// the whole service (gateway -> Temporal -> worker process -> PostgreSQL) and
// by a bare Crawlee PlaywrightCrawler with the same browser settings, in
// BENCH_ROUNDS (3) alternating rounds of one run, after BENCH_WARMUP_ROUNDS (1)
// uncounted ones. Prints pages/s of both per round, the median ratio (target >= 0.9), CPU per page and the worker's peak
// RSS (Node process, and with its Chromium processes); with CRAWL_RENDERING=auto or http also a bare
// CheerioCrawler per round and the worker RSS at 1,000 and 10,000 pages of one crawl; then the fairness figure:
// how soon another team's 5-page crawl gets its first page and completes while a
// crawl of 16 pages at a time holds both browser slots. Not a test: the
// figures depend on the machine, only the ratio is meant to be compared.
import type { ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { Configuration, log as crawleeLog } from '@crawlee/core';
import { PlaywrightCrawler } from '@crawlee/playwright';
import { CheerioCrawler } from '@crawlee/cheerio';
import { Client } from '@temporalio/client';
import { connectTemporal } from '../src/platform/temporal/connection.ts';
import { chromium, type LaunchOptions } from 'playwright';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/platform/db/prisma.ts';
import { createApp } from '../src/platform/http/app.ts';
import { FEATURES } from '../src/features/index.ts';
import { createLogger } from '../src/platform/log.ts';
import { crawlConcurrency } from '../src/jobs/concurrency.ts';
import { chromiumLaunch } from '../src/platform/browser/chromium-launch.ts';
import { createTeam, issueApiKey } from '../src/platform/teams/teams.ts';
import { freePort } from '../src/platform/process/ports.ts';
import { METRIC_PREFIX } from '../src/platform/metrics/registry.ts';
import { cpu, rss } from './processes.ts';
import { startBenchServers, stopProcess, untilReady } from './servers.ts';
import { benchSite } from './site.ts';
import { rawPlaywrightCrawl } from './raw-playwright.ts';
import { percentile } from './percentile.ts';
import { waitFor } from '../test/support/wait-for.ts';
import { parsePrometheusText } from '../test/support/prometheus-text.ts';
import { runBench } from './run-bench.ts';
import { taskQueuesOf } from '../src/platform/temporal/config.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Rounds run first and left out of the figures: a fresh process's first crawl also pays for loading and compiling code. */
const WARMUP_ROUNDS = Number(process.env.BENCH_WARMUP_ROUNDS ?? 1);
/** Pages at a time: the bare crawler's concurrency and the bench team's limit. */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const RENDERING = loadConfig().crawl.rendering;
/** Pages of the one long crawl whose worker RSS is printed at 1,000 pages and at its end; 0 skips it. */
const RSS_PAGES = Number(process.env.BENCH_RSS_PAGES ?? (RENDERING === 'browser' ? 0 : 10_000));
const RSS_FIRST_MARK = 1_000;
const STATUS_POLL_MS = 150;
/** BENCH_PAGE_TIMINGS=1: the worker logs at debug, and the bench prints how long pages waited for conversion and storage. */
const PAGE_TIMINGS = process.env.BENCH_PAGE_TIMINGS === '1';
/** BENCH_STATIC=1 measures the HTTP path against CheerioCrawler; a bare PlaywrightCrawler would only slow each round down. */
const BARE_PLAYWRIGHT = process.env.BENCH_STATIC !== '1';
/** BENCH_CRAWL_TIMELINE=1: each service round also prints when its first and last pages were stored and when it completed. */
const CRAWL_TIMELINE = process.env.BENCH_CRAWL_TIMELINE === '1';
/** BENCH_FAIRNESS=0 skips the fairness phase. */
const FAIRNESS = process.env.BENCH_FAIRNESS !== '0';
/** BENCH_SCRAPE_OPTIONS='{"blockAds":false}': scrape options of every crawl the bench starts (a cost of one option). */
const SCRAPE_OPTIONS = { maxAge: 0, ...(JSON.parse(process.env.BENCH_SCRAPE_OPTIONS ?? '{}') as Record<string, unknown>) };

crawleeLog.setLevel(crawleeLog.LEVELS.ERROR);
const log = createLogger('warn', { process: 'bench' });

/** Pages/s of a bare crawler over the whole site; `counted` says how many pages its handler saw. */
async function pagesPerSecond(name: string, crawler: { run: (urls: string[]) => Promise<unknown> }, url: string, counted: () => number): Promise<number> {
  const started = Date.now();
  await crawler.run([url]);
  if (counted() !== PAGES) throw new Error(`bare ${name} crawled ${counted()} pages, expected ${PAGES}`);
  return PAGES / ((Date.now() - started) / 1000);
}

const crawleeConfig = () => new Configuration({ persistStorage: false, systemInfoV2: true });

function bareCrawlee(url: string, launchOptions: LaunchOptions): Promise<number> {
  let pages = 0;
  const crawler = new PlaywrightCrawler(
    {
      launchContext: { launcher: chromium, launchOptions },
      browserPoolOptions: { useFingerprints: false, retireBrowserAfterPageCount: 10_000 },
      useSessionPool: false,
      minConcurrency: CONCURRENCY,
      maxConcurrency: CONCURRENCY,
      maxRequestsPerCrawl: PAGES,
      preNavigationHooks: [async (_ctx, goto) => void (goto && (goto.waitUntil = 'load'))],
      requestHandler: async ({ page, enqueueLinks }) => {
        await page.content();
        pages++;
        await enqueueLinks({ strategy: 'same-origin' });
      },
    },
    crawleeConfig(),
  );
  return pagesPerSecond('Crawlee', crawler, url, () => pages);
}

/** Playwright alone (raw-playwright.ts): the browser path's floor. */
async function rawPlaywright(url: string, launchOptions: LaunchOptions): Promise<number> {
  const started = Date.now();
  const pages = await rawPlaywrightCrawl(url, launchOptions, CONCURRENCY);
  if (pages !== PAGES) throw new Error(`raw Playwright crawled ${pages} pages, expected ${PAGES}`);
  return PAGES / ((Date.now() - started) / 1000);
}

/** Crawlee's HTTP crawler, which parses each page with cheerio: what the HTTP path is held against. */
function bareCheerio(url: string): Promise<number> {
  let pages = 0;
  // No maxRequestsPerCrawl: near the limit Crawlee's enqueueLinks sleeps a second per page (it adds links in chunks
  // the size of the remaining budget, a second apart); the site has exactly PAGES pages.
  const crawler = new CheerioCrawler(
    {
      useSessionPool: false,
      minConcurrency: CONCURRENCY,
      maxConcurrency: CONCURRENCY,
      requestHandler: async ({ $, enqueueLinks }) => {
        $('title').text();
        pages++;
        await enqueueLinks({ strategy: 'same-origin' });
      },
    },
    crawleeConfig(),
  );
  return pagesPerSecond('CheerioCrawler', crawler, url, () => pages);
}

/** The worker's `page timings` lines (debug): each page's conversion (thread queue included) and storage (group commit included). */
function pageTimings(child: ChildProcess): { convertMs: number[]; storeMs: number[] } {
  const seen = { convertMs: [] as number[], storeMs: [] as number[] };
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (!line.includes('"msg":"page timings"')) return;
    const { convertMs, storeMs } = JSON.parse(line) as { convertMs?: number; storeMs?: number };
    if (convertMs !== undefined) seen.convertMs.push(convertMs);
    if (storeMs !== undefined) seen.storeMs.push(storeMs);
  });
  return seen;
}

async function main() {
  const config = loadConfig();
  const chromiumPath = config.chromium.path;
  // The service splits the team's limit into browsers as it does for any crawl (CRAWL_PAGES_PER_BROWSER).
  const { parallelBatches: browsers, pagesPerBatch } = crawlConcurrency({ teamLimit: CONCURRENCY, pagesPerBrowser: config.crawl.pagesPerBrowser });
  if (!chromiumPath) throw new Error('CHROMIUM_PATH is not set: run `npm run bench:crawl`');
  const site = await benchSite(PAGES);
  const servers = await startBenchServers('crawl', config, log);
  let worker: ChildProcess | undefined;
  try {
    const db = createDb(servers.pg.url);
    const team = await createTeam(db, { name: 'bench', credits: 1_000_000, concurrencyLimit: CONCURRENCY });
    const { key } = await issueApiKey(db, team.id);
    const taskQueue = 'bench';
    const workerOpsPort = await freePort();
    worker = servers.spawnService('worker', taskQueue, {
      WORKER_OPS_PORT: String(workerOpsPort),
      // At least two: the fairness phase has one crawl hold both slots. A single crawl of the
      // throughput rounds uses `browsers` of them, like the bare crawler.
      WORKER_BROWSER_SLOTS: String(Math.max(2, browsers)),
      // The address guard stays on, as in production; only the site's address is let through.
      CRAWL_PRIVATE_ADDRESS_ALLOWLIST: '127.0.0.1',
      // CRAWL_RENDERING=auto: with BENCH_STATIC=1 every page takes the HTTP path; without it the pages
      // edit their DOM by script, so the first ones are fetched over HTTP and then go to Chromium, and
      // from then on their host goes straight to Chromium (this measures that overhead).
      CRAWL_RENDERING: RENDERING,
      LOG_LEVEL: PAGE_TIMINGS ? 'debug' : 'info',
    });
    const timings = PAGE_TIMINGS ? pageTimings(worker) : undefined;
    await untilReady(worker, 'worker');
    const connection = await connectTemporal({ address: servers.temporal.address }, log);
    const appConfig = {
      ...config,
      temporal: { ...config.temporal, ...taskQueuesOf(taskQueue) },
      crawl: { ...config.crawl, privateAddressAllowlist: ['127.0.0.1'] },
    };
    const app = createApp({ db, temporal: new Client({ connection }), config: appConfig, log }, FEATURES);
    const gatewayPort = await freePort();
    const server = app.listen(gatewayPort, '127.0.0.1');

    console.log(
      `bench: ${PAGES}-page local site, ${CONCURRENCY} pages at a time (service: ${browsers} browser${browsers > 1 ? 's' : ''} x ${pagesPerBatch} pages), ${ROUNDS} rounds, CRAWL_RENDERING=${RENDERING}, ${chromiumPath}`,
    );
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${gatewayPort}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }).then((r) =>
        r.json(),
      );

    const serviceCrawl = async (): Promise<number> => {
      const started = Date.now();
      // maxAge 0: every round loads every page (the page cache is still written, as in production).
      const body = { url: `${site.url}/`, limit: PAGES, sitemap: 'skip', scrapeOptions: SCRAPE_OPTIONS };
      const start = await api('/v2/crawl', { method: 'POST', body: JSON.stringify(body) });
      if (!start.success) throw new Error(`the crawl did not start: ${start.error}`);
      let status: { status: string; completed: number };
      do {
        // Often enough that the poll adds little to a crawl of a few seconds, within the key's rate limit (10/s).
        await new Promise((r) => setTimeout(r, STATUS_POLL_MS));
        status = await api(`/v2/crawl/${start.id}?limit=1`);
      } while (status.status === 'scraping');
      if (status.status !== 'completed' || status.completed !== PAGES) throw new Error(`service crawl ended ${status.status} with ${status.completed} pages`);
      const seen = Date.now();
      if (CRAWL_TIMELINE) await printCrawlTimeline(db, start.id, started, seen);
      return PAGES / ((seen - started) / 1000);
    };

    let peak = { own: 0, tree: 0 };
    const sampler = setInterval(() => {
      const now = rss(worker!.pid!);
      peak = { own: Math.max(peak.own, now.own), tree: Math.max(peak.tree, now.tree) };
    }, 200);
    // Peak RSS covers the warm-up too. Rounds alternate the two so that a shared machine's slow spell hits both alike; each
    // round's ratio compares runs made one right after the other.
    const ratios: number[] = [];
    const cheerioRatios: number[] = [];
    const rawRatios: number[] = [];
    let bareCpu = { node: 0, chromium: 0 };
    let workerCpuBefore = cpu(worker.pid!);
    let hostTurnsBefore = await hostTurns(workerOpsPort);
    // During the service's counted rounds: where the machine's CPU went, this process being the gateway, the site and the status polls.
    const serviceCpu = () => {
      const { worker: w, postgres, temporal } = servers.cpuSeconds({ worker: worker! });
      return { worker: w!, postgres: postgres!, temporal: temporal!, bench: cpu('self').own };
    };
    const serviceCpuUsed = { worker: 0, postgres: 0, temporal: 0, bench: 0 };
    let serviceSeconds = 0;
    for (let round = 1 - WARMUP_ROUNDS; round <= ROUNDS; round++) {
      if (round === 1) {
        bareCpu = { node: 0, chromium: 0 };
        workerCpuBefore = cpu(worker.pid!);
        hostTurnsBefore = await hostTurns(workerOpsPort);
      }
      const cpuBefore = cpu('self');
      const nodeBefore = process.cpuUsage();
      const bare = BARE_PLAYWRIGHT
        ? await bareCrawlee(`${site.url}/`, chromiumLaunch({ ...config.chromium, headless: true }).launchOptions(undefined))
        : undefined;
      const nodeUsed = process.cpuUsage(nodeBefore);
      bareCpu = { node: bareCpu.node + (nodeUsed.user + nodeUsed.system) / 1e6, chromium: bareCpu.chromium + cpu('self').reaped - cpuBefore.reaped };
      // The HTTP path is held against Crawlee's HTTP crawler, the browser path also against raw Playwright;
      // their CPU is not in the per-page figures.
      const cheerio = RENDERING === 'browser' ? undefined : await bareCheerio(`${site.url}/`);
      const raw =
        RENDERING === 'browser'
          ? await rawPlaywright(`${site.url}/`, chromiumLaunch({ ...config.chromium, headless: true }).launchOptions(undefined))
          : undefined;
      const serviceBefore = serviceCpu();
      const serviceStarted = Date.now();
      const service = await serviceCrawl();
      if (round >= 1) {
        const after = serviceCpu();
        for (const part of Object.keys(after) as (keyof typeof after)[]) serviceCpuUsed[part] += after[part] - serviceBefore[part];
        serviceSeconds += (Date.now() - serviceStarted) / 1000;
      }
      if (round >= 1 && bare) ratios.push(service / bare);
      if (round >= 1 && cheerio) cheerioRatios.push(service / cheerio);
      if (round >= 1 && raw) rawRatios.push(service / raw);
      const cheerioFigure = cheerio ? `, bare CheerioCrawler ${cheerio.toFixed(2)} pages/s, ratio ${(service / cheerio).toFixed(2)}` : '';
      const rawFigure = raw ? `, raw Playwright ${raw.toFixed(2)} pages/s, ratio ${(service / raw).toFixed(2)}` : '';
      const bareFigure = bare ? `bare Crawlee ${bare.toFixed(2)} pages/s, ` : '';
      const bareRatio = bare ? `, ratio ${(service / bare).toFixed(2)}` : '';
      console.log(
        `${round >= 1 ? `round ${round}` : 'warm-up (not counted)'}: ${bareFigure}service ${service.toFixed(2)} pages/s${bareRatio}${cheerioFigure}${rawFigure}`,
      );
    }
    clearInterval(sampler);
    // BENCH_ROUNDS=0 BENCH_WARMUP_ROUNDS=0 BENCH_RSS_PAGES=0: the fairness figure alone.
    if (ROUNDS > 0) {
      const median = (values: number[]) => percentile(values, 50);
      if (ratios.length > 0)
        console.log(`ratio service / bare Crawlee, median of ${ROUNDS} rounds: ${median(ratios).toFixed(2)} (target >= 1.0 with CRAWL_RENDERING=browser)`);
      if (cheerioRatios.length > 0)
        console.log(`ratio service / bare CheerioCrawler, median of ${ROUNDS} rounds: ${median(cheerioRatios).toFixed(2)} (target >= 0.8)`);
      if (rawRatios.length > 0)
        console.log(`ratio service / raw Playwright, median of ${ROUNDS} rounds: ${median(rawRatios).toFixed(2)} (the floor to close in on)`);
      const workerCpuAfter = cpu(worker.pid!);
      const workerCpu = { own: workerCpuAfter.own - workerCpuBefore.own, reaped: workerCpuAfter.reaped - workerCpuBefore.reaped };
      const perPage = (seconds: number) => `${((seconds * 1000) / (PAGES * ROUNDS)).toFixed(0)} ms`;
      // The bare figure's Node time includes serving the site; the worker's excludes it.
      const bareCpuFigure = BARE_PLAYWRIGHT ? `bare ${perPage(bareCpu.node)} Node + ${perPage(bareCpu.chromium)} Chromium; ` : '';
      console.log(`CPU per page: ${bareCpuFigure}service worker ${perPage(workerCpu.own)} Node + ${perPage(workerCpu.reaped)} Chromium`);
      const servicePages = PAGES * ROUNDS;
      const usedTotal = Object.values(serviceCpuUsed).reduce((a, b) => a + b, 0);
      console.log(
        `CPU per page during the service's rounds: ${Object.entries(serviceCpuUsed)
          .map(([part, s]) => `${part} ${((s * 1000) / servicePages).toFixed(1)} ms`)
          .join(', ')}; ` +
          `total ${((usedTotal * 1000) / servicePages).toFixed(1)} ms, ${((100 * usedTotal) / (serviceSeconds * availableParallelism())).toFixed(0)} % of ${availableParallelism()} cores`,
      );
      const turns = await hostTurns(workerOpsPort);
      const turnsPerPage = (via: keyof typeof turns) => ((turns[via] - hostTurnsBefore[via]) / servicePages).toFixed(3);
      console.log(`host turns per page (the host budget): from the database ${turnsPerPage('database')}, handed on in the worker ${turnsPerPage('handed_on')}`);
      if (timings) {
        const split = (values: number[]) =>
          values.length === 0 ? 'none' : `p50 ${percentile(values, 50).toFixed(0)} ms, p90 ${percentile(values, 90).toFixed(0)} ms`;
        console.log(
          `page timings of ${timings.storeMs.length} pages (the warm-up round's included): conversion ${split(timings.convertMs)}; storage ${split(timings.storeMs)}`,
        );
      }
      console.log(`worker peak RSS: ${(peak.own / 2 ** 20).toFixed(0)} MB (Node process), ${(peak.tree / 2 ** 20).toFixed(0)} MB with its Chromium processes`);
    }
    if (RSS_PAGES > 0) await longCrawlRss(api, worker.pid!);
    if (FAIRNESS) await fairnessFigure(db, `http://127.0.0.1:${gatewayPort}`);
    server.close();
    await connection.close();
    await db.$disconnect();
  } finally {
    await stopProcess(worker);
    await site.close();
    await servers.stop();
  }
}

/** The worker's host_turns_total so far, by where the turn came from (jobs/politeness/host-gate.ts). */
async function hostTurns(opsPort: number): Promise<{ database: number; handed_on: number }> {
  const metrics = parsePrometheusText(await fetch(`http://127.0.0.1:${opsPort}/metrics`).then((r) => r.text()));
  const read = (via: string) => metrics.value(`${METRIC_PREFIX}host_turns_total`, { via });
  return { database: read('database'), handed_on: read('handed_on') };
}

/** Where a service round's time went: before its first page, between its first and last, and after its last. */
async function printCrawlTimeline(db: ReturnType<typeof createDb>, crawlId: string, started: number, seen: number) {
  const crawl = await db.job.findUniqueOrThrow({ where: { id: crawlId }, select: { createdAt: true, completedAt: true } });
  const pages = await db.jobPage.aggregate({ where: { jobId: crawlId }, _min: { createdAt: true }, _max: { createdAt: true } });
  const at = (date: Date | null | undefined) => (date ? `${date.getTime() - started} ms` : 'n/a');
  console.log(
    `  timeline: job row ${at(crawl.createdAt)}, first page ${at(pages._min.createdAt)}, last page ${at(pages._max.createdAt)}, ` +
      `completed ${at(crawl.completedAt)}, seen by the poll ${seen - started} ms`,
  );
}

/** The fields of a crawl's start and status answers the long crawl reads. */
interface CrawlAnswer {
  success?: boolean;
  error?: string;
  id?: string;
  status: string;
  completed: number;
}

/**
 * One crawl of RSS_PAGES pages (a site of its own): the worker's RSS when the crawl has stored
 * RSS_FIRST_MARK pages and when it has stored them all, and at every tenth of the crawl between
 * (the curve tells a heap still growing to its working size from memory kept per page).
 */
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

async function longCrawlRss(api: (path: string, init?: RequestInit) => Promise<CrawlAnswer>, workerPid: number) {
  const site = await benchSite(RSS_PAGES);
  try {
    const started = Date.now();
    const start = await api('/v2/crawl', {
      method: 'POST',
      body: JSON.stringify({ url: `${site.url}/`, limit: RSS_PAGES, sitemap: 'skip', scrapeOptions: SCRAPE_OPTIONS }),
    });
    if (!start.success) throw new Error(`the long crawl did not start: ${start.error}`);
    let atMark: number | undefined;
    const tenth = Math.max(1, Math.floor(RSS_PAGES / 10));
    const curve: string[] = [];
    let status: CrawlAnswer;
    do {
      await new Promise((r) => setTimeout(r, 250));
      status = await api(`/v2/crawl/${start.id}?limit=1`);
      if (atMark === undefined && status.completed >= RSS_FIRST_MARK) atMark = rss(workerPid).own;
      if (status.completed >= (curve.length + 1) * tenth && curve.length < 9) curve.push(`${status.completed}: ${mb(rss(workerPid).own)}`);
    } while (status.status === 'scraping');
    const atEnd = rss(workerPid).own;
    if (status.status !== 'completed' || status.completed !== RSS_PAGES)
      throw new Error(`the long crawl ended ${status.status} with ${status.completed} pages`);
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `one crawl of ${RSS_PAGES} pages (${(RSS_PAGES / seconds).toFixed(2)} pages/s): worker RSS ${mb(atMark ?? atEnd)} at ${RSS_FIRST_MARK} pages, ${mb(atEnd)} at ${RSS_PAGES} (${(((atEnd - (atMark ?? atEnd)) / (atMark ?? atEnd)) * 100).toFixed(1)} %, goal within +-10 %)`,
    );
    console.log(`  worker RSS by pages stored: ${curve.join(', ')}`);
  } finally {
    await site.close();
  }
}

/**
 * A team whose crawl runs 16 pages at a time (two browsers of 8) holds both slots; another team then
 * crawls 5 pages. Both sites' pages are written by script, so they need the browser whatever
 * CRAWL_RENDERING says. Prints when the newcomer's work was queued, when the big crawl gave a
 * browser up, when the newcomer's batch started, its first page and its completion.
 */
async function fairnessFigure(db: ReturnType<typeof createDb>, gateway: string) {
  const bigSite = await benchSite(PAGES, { scripted: true });
  const smallSite = await benchSite(5, { scripted: true });
  try {
    const bigTeam = await createTeam(db, { name: 'bench-big', credits: 1_000_000, concurrencyLimit: 16 });
    const smallTeam = await createTeam(db, { name: 'bench-small', credits: 1_000_000, concurrencyLimit: 4 });
    const keyOf = async (teamId: string) => (await issueApiKey(db, teamId)).key;
    const [bigKey, smallKey] = [await keyOf(bigTeam.id), await keyOf(smallTeam.id)];
    const as = (key: string, path: string, init: RequestInit = {}) =>
      fetch(`${gateway}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }).then((r) => r.json());
    const crawl = (key: string, url: string, limit: number) =>
      as(key, '/v2/crawl', { method: 'POST', body: JSON.stringify({ url: `${url}/`, limit, sitemap: 'skip', scrapeOptions: SCRAPE_OPTIONS }) });
    const leases = (groupId: string) => db.browserLease.count({ where: { groupId, aliveUntil: { gt: new Date() } } });
    const big = await crawl(bigKey, bigSite.url, PAGES);
    await waitFor('the big crawl to hold both browser slots', async () => (await leases(big.id)) >= 2, 120_000, 100);
    const started = Date.now();
    const small = await crawl(smallKey, smallSite.url, 5);
    const at: Partial<Record<'queued' | 'givenUp' | 'started' | 'firstPage' | 'done', number>> = {};
    const mark = (event: keyof typeof at, happened: boolean) => {
      if (happened && at[event] === undefined) at[event] = Date.now() - started;
    };
    await waitFor(
      'the small crawl to finish',
      async () => {
        mark('queued', (await db.browserDemand.count({ where: { groupId: small.id } })) > 0);
        mark('givenUp', (await leases(big.id)) < 2);
        mark('started', (await leases(small.id)) > 0);
        mark('firstPage', (await db.jobPage.count({ where: { jobId: small.id } })) > 0);
        mark('done', (await as(smallKey, `/v2/crawl/${small.id}?limit=1`)).status !== 'scraping');
        return at.done !== undefined;
      },
      300_000,
      50,
    );
    await as(bigKey, `/v2/crawl/${big.id}`, { method: 'DELETE' });
    // Let the cancelled crawl's batches close their browsers before the worker is stopped.
    const until = Date.now() + 60_000;
    while (Date.now() < until && (await db.browserLease.count({ where: { groupId: big.id } })) > 0) await new Promise((r) => setTimeout(r, 200));
    const s = (event: keyof typeof at) => (at[event] === undefined ? 'n/a' : `${(at[event] / 1000).toFixed(1)} s`);
    console.log(
      `fairness (pages written by script): while a 16-pages-at-once crawl held both browsers, another team's 5-page crawl ` +
        `was queued for a browser after ${s('queued')}, a browser was given up after ${s('givenUp')}, its batch started after ${s('started')}, ` +
        `it stored its first page after ${s('firstPage')} (goal 5 s) and completed after ${s('done')} (goal 15 s)`,
    );
  } finally {
    await bigSite.close();
    await smallSite.close();
  }
}

runBench(main);
