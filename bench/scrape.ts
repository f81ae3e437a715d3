// `npm run bench:scrape`: single-scrape latency through the whole service
// (gateway -> Temporal -> worker process -> HTTP or Chromium -> PostgreSQL) on a
// warm service, for a static page (CRAWL_RENDERING=auto takes it over HTTP) and a
// script-rendered one (auto sends it on to Chromium). Each kind: BENCH_WARMUP (5)
// uncounted scrapes, then BENCH_SCRAPES (30) timed ones of distinct pages with
// maxAge 0, one at a time. Before every timed scrape the bench itself fetches the
// same page and converts it with the service's own conversion (convertHtml): the
// floor, measured in the same process and run, so the ratio holds under any load.
// Prints p50 / p95 of the round trip against the floor, and the split from the worker's debug
// lines: browser (from opening the batch's browser to closing it, less the two below),
// conversion, storage (page, charge and cache writes), and the rest. Each kind's round trip is
// also split step by step (scrape-split.ts: the gateway's Server-Timing, the workflow's history,
// the worker's page line). Then the round trip of a cached page (answered by the gateway alone,
// its own split), then BENCH_CONCURRENT_ROUNDS (3) rounds of 20 static scrapes in flight at once
// from 5 teams (scrape-concurrent.ts), and the goals of issue 44, each met or not, against figures
// of this run. BENCH_SCRAPE_TIMELINE=1 also prints the history of each kind's median scrape.
// Not a test: the figures depend on the machine.
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client } from '@temporalio/client';
import { connectTemporal } from '../src/platform/temporal/connection.ts';
import protos from '@temporalio/proto';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/platform/db/prisma.ts';
import { createApp } from '../src/platform/http/app.ts';
import { FEATURES } from '../src/features/index.ts';
import { createLogger } from '../src/platform/log.ts';
import { createTeam, issueApiKey } from '../src/platform/teams/teams.ts';
import { freePort } from '../src/platform/process/ports.ts';
import { convertHtml } from '../src/page/conversion/html-conversion.ts';
import { scrapeRequestOptions, scrapeRequestSchema } from '../src/page/scrape-request.ts';
import { newJobWorkflowId } from '../src/jobs/definitions.ts';
import { startBenchServers, stopProcess, untilReady } from './servers.ts';
import { benchSite } from './site.ts';
import { waitFor } from '../test/support/wait-for.ts';
import { runBench } from './run-bench.ts';
import { concurrentScrapes } from './scrape-concurrent.ts';
import { availableParallelism, loadavg } from 'node:os';
import { percentile } from './percentile.ts';
import { CACHED_STEPS, cachedSplit, parseServerTiming, workflowSplit, WORKFLOW_STEPS, type PageTimings, type TimedScrape } from './scrape-split.ts';
import { taskQueuesOf } from '../src/platform/temporal/config.ts';
import { cpu } from './processes.ts';

const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const SCRAPES = Number(process.env.BENCH_SCRAPES ?? 30);
const TIMELINE = process.env.BENCH_SCRAPE_TIMELINE === '1';

const CONCURRENT = { teams: 5, perTeam: 4, rounds: Number(process.env.BENCH_CONCURRENT_ROUNDS ?? 3) };

/** The goals of issue 44. */
const GOALS = { cachedP50: 15, staticP50: 60, staticP95: 120, renderedP50: 200, concurrentP95Ratio: 2 };

const log = createLogger('warn', { process: 'bench' });

/** What the worker's debug lines said of one job, by its id (a scrape's id is its job's). */
type Logged = PageTimings;

function row(name: string, values: number[]): string {
  return `  ${name.padEnd(56)} p50 ${percentile(values, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(values, 95).toFixed(1).padStart(7)} ms`;
}

/** The same conversion the service runs on a page fetched over HTTP (markdown, script check). */
const floorOptions = scrapeRequestOptions(scrapeRequestSchema.parse({ url: 'http://127.0.0.1/', formats: ['markdown'] }));

/** A bare fetch of the page plus the service's HTML -> markdown conversion, in this process. */
async function floorOf(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url);
  const rawHtml = await res.text();
  const out = convertHtml({
    load: { finalUrl: res.url, statusCode: res.status, contentType: res.headers.get('content-type') ?? undefined, rawHtml },
    so: floorOptions,
    sourceURL: url,
    checkScripted: true,
  });
  if (!('built' in out) && !('needsBrowser' in out)) throw new Error('conversion gave nothing');
  return performance.now() - started;
}

async function main() {
  const config = loadConfig();
  if (!config.chromium.path) throw new Error('CHROMIUM_PATH is not set: run `npm run bench:scrape`');
  const n = WARMUP + SCRAPES + 1;
  const sites = { static: await benchSite(n, { scripted: false }), rendered: await benchSite(n, { scripted: true }) };
  const servers = await startBenchServers('scrape', config, log);
  let worker: ChildProcess | undefined;
  try {
    const db = createDb(servers.pg.url);
    const team = await createTeam(db, { name: 'bench', credits: 1_000_000, concurrencyLimit: 4 });
    const { key } = await issueApiKey(db, team.id);
    const taskQueue = 'bench';
    // The address guard stays on, as in production; only the sites' address is let through.
    // At debug the worker writes the "page timings" / "batch timings" lines that are the split.
    worker = servers.spawnService('worker', taskQueue, { CRAWL_PRIVATE_ADDRESS_ALLOWLIST: '127.0.0.1', LOG_LEVEL: 'debug' }, 'pipe');
    // At debug the Temporal SDK writes a block per task to stderr; only warnings and errors are shown.
    createInterface({ input: worker.stderr! }).on('line', (line) => /\[(WARN|ERROR)\]/.test(line) && process.stderr.write(`[worker] ${line}\n`));
    const timings = new Map<string, Logged>();
    await untilReady(worker, 'worker', (line) => {
      if (!/"msg":"(page|batch|open) timings"/.test(line)) return;
      const { crawlId, ...t } = JSON.parse(line) as Logged & { crawlId: string };
      timings.set(crawlId, { ...timings.get(crawlId), ...t });
    });
    const connection = await connectTemporal({ address: servers.temporal.address }, log);
    const temporal = new Client({ connection });
    // As `npm start` runs it: the gateway knows its database's URL (its job feed listens there).
    const appConfig = {
      ...config,
      database: { ...config.database, url: servers.pg.url },
      temporal: { ...config.temporal, ...taskQueuesOf(taskQueue) },
      crawl: { ...config.crawl, privateAddressAllowlist: ['127.0.0.1'] },
    };
    const app = createApp({ db, temporal, config: appConfig, log }, FEATURES);
    const gatewayPort = await freePort();
    const server = app.listen(gatewayPort, '127.0.0.1');

    const scrape = async (url: string, maxAge?: number): Promise<TimedScrape & { ms: number }> => {
      const sentAt = performance.timeOrigin + performance.now();
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${gatewayPort}/v2/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url, formats: ['markdown'], ...(maxAge !== undefined && { maxAge }) }),
      });
      const body = await res.json();
      const ms = performance.now() - started;
      if (!body.success) throw new Error(`scrape of ${url} failed: ${body.error}`);
      const timing = parseServerTiming(res.headers.get('server-timing'));
      return { ms, id: body.data.metadata.scrapeId, sentAt, answeredAt: sentAt + ms, timing };
    };
    const pageUrl = (base: string, i: number) => (i === 0 ? `${base}/` : `${base}/page/${i}`);

    /** The median scrape's workflow history, each event at its time since the request was sent. */
    const printTimeline = async (id: string, sentAt: number, ms: number) => {
      const history = await temporal.workflow.getHandle(newJobWorkflowId('scrape', id)).fetchHistory();
      console.log(`  timeline of scrape ${id} (${ms.toFixed(0)} ms; times since the request was sent):`);
      for (const e of history.events ?? []) {
        const at = Number(e.eventTime!.seconds) * 1000 + e.eventTime!.nanos! / 1e6 - sentAt;
        const detail = e.activityTaskScheduledEventAttributes?.activityType?.name ?? e.markerRecordedEventAttributes?.markerName ?? '';
        console.log(`    +${at.toFixed(0).padStart(5)} ms  ${protos.temporal.api.enums.v1.EventType[e.eventType!].replace(/^EVENT_TYPE_/, '')} ${detail}`);
      }
    };

    /** Each timed scrape's steps, once its workflow ended (the caller may have had its page before). */
    const splitOf = async (run: TimedScrape): Promise<number[] | undefined> => {
      const handle = temporal.workflow.getHandle(newJobWorkflowId('scrape', run.id));
      await handle.result();
      return workflowSplit(run, await handle.fetchHistory(), timings.get(run.id) ?? {});
    };
    const printSplit = (names: readonly string[], splits: (number[] | undefined)[]) => {
      const complete = splits.filter((s): s is number[] => s !== undefined);
      console.log(`  step by step (${complete.length} of ${splits.length} scrapes had every mark; each step on its own):`);
      names.forEach((name, i) =>
        console.log(
          row(
            name,
            complete.map((p) => p[i]),
          ),
        ),
      );
    };

    /** CPU seconds so far: the worker (its Chromiums included), Temporal, PostgreSQL, and this process (gateway, client, sites). */
    const cpuNow = () => ({ ...servers.cpuSeconds({ worker: worker! }), 'gateway, client and sites': cpu('self').own });
    /** The CPU a scrape cost each process between two snapshots: where a run of many at once is bounded by the cores. */
    const printCpu = (before: Record<string, number>, scrapes: number, note = '') => {
      const after = cpuNow();
      const perScrape = Object.entries(after).map(([name, s]) => [name, ((s - (before[name] ?? 0)) * 1000) / scrapes] as const);
      const total = perScrape.reduce((sum, [, ms]) => sum + ms, 0);
      console.log(`  CPU a scrape${note}: ${perScrape.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ')}; total ${total.toFixed(1)} ms`);
      return total;
    };

    const results: Record<string, { p50: number; p95: number; floor: number }> = {};
    console.log(
      `load average at the start: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`,
    );
    console.log(
      `bench: single scrapes of local pages, ${WARMUP} warm-up + ${SCRAPES} timed per kind, one at a time, CRAWL_RENDERING=${config.crawl.rendering}, ${config.chromium.path}`,
    );
    for (const kind of ['static', 'rendered'] as const) {
      const base = sites[kind].url;
      for (let i = 0; i < WARMUP; i++) {
        await floorOf(pageUrl(base, i));
        await scrape(pageUrl(base, i), 0);
      }
      const total: number[] = [];
      const floor: number[] = [];
      const logged: Logged[] = [];
      const runs: (TimedScrape & { ms: number })[] = [];
      const cpuBefore = cpuNow();
      for (let i = WARMUP; i < WARMUP + SCRAPES; i++) {
        floor.push(await floorOf(pageUrl(base, i)));
        const run = await scrape(pageUrl(base, i), 0);
        total.push(run.ms);
        runs.push(run);
        // The worker's lines are written before the workflow ends, so they are in by now (or a moment later).
        const complete = () => timings.get(run.id)?.storeMs !== undefined && (kind === 'static' || timings.get(run.id)?.browserMs !== undefined);
        await waitFor(`the timings of scrape ${run.id} (is the worker logging at debug?)`, complete, 1_000, 10);
        logged.push(timings.get(run.id)!);
      }
      const convertMs = logged.map((t) => t.convertMs ?? 0);
      const storeMs = logged.map((t) => t.storeMs ?? 0);
      // The page's conversion and storage happen while the batch holds its browser.
      const browserMs = logged.map((t, i) => (t.browserMs === undefined ? 0 : t.browserMs - convertMs[i] - storeMs[i]));
      const rest = total.map((ms, i) => ms - browserMs[i] - convertMs[i] - storeMs[i]);
      const p50 = percentile(total, 50);
      const floorP50 = percentile(floor, 50);
      results[kind] = { p50, p95: percentile(total, 95), floor: floorP50 };
      console.log(`${kind} page (maxAge 0), ${SCRAPES} scrapes:`);
      console.log(row('round trip (POST /v2/scrape)', total));
      console.log(row('floor (bare fetch + conversion, this process)', floor));
      console.log(`  ${'ratio of p50s (round trip / floor)'.padEnd(56)} ${(p50 / floorP50).toFixed(1)}x`);
      if (kind === 'rendered') console.log(row('browser (open, navigate, capture, close)', browserMs));
      console.log(row('conversion (HTML -> markdown document)', convertMs));
      console.log(row('storage (page, charge, cache)', storeMs));
      console.log(row('Temporal, control and gateway (the rest)', rest));
      printCpu(cpuBefore, SCRAPES, ' (this process also ran the floor)');
      printSplit(WORKFLOW_STEPS, await Promise.all(runs.map(splitOf)));
      if (TIMELINE) {
        const median = [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)];
        await printTimeline(median.id, median.sentAt, median.ms);
      }
    }

    const cachedUrl = pageUrl(sites.static.url, WARMUP);
    const cachedRuns: TimedScrape[] = [];
    const cached: number[] = [];
    for (let i = 0; i < SCRAPES; i++) {
      const run = await scrape(cachedUrl);
      cached.push(run.ms);
      cachedRuns.push(run);
    }
    console.log(`cached (maxAge default, a static page stored above), ${SCRAPES} scrapes:`);
    console.log(row('round trip (POST /v2/scrape)', cached));
    // Answered by the gateway alone (its marks say so), or through a workflow like the pages above.
    const inGateway = cachedRuns.filter((r) => cachedSplit(r) !== undefined);
    if (inGateway.length > 0) printSplit(CACHED_STEPS, inGateway.map(cachedSplit));
    const throughWorkflow = cachedRuns.filter((r) => cachedSplit(r) === undefined);
    if (throughWorkflow.length > 0) {
      await waitFor('the page lines of the cached scrapes', () => throughWorkflow.every((r) => timings.get(r.id)?.storedAt !== undefined), 5_000, 10);
      printSplit(WORKFLOW_STEPS, await Promise.all(throughWorkflow.map(splitOf)));
    }

    // Pages no scrape above loaded, so every one is fetched.
    const concurrentSite = await benchSite(CONCURRENT.teams * CONCURRENT.perTeam * CONCURRENT.rounds, { scripted: false });
    let concurrent: number[];
    const cpuBefore = cpuNow();
    try {
      concurrent = await concurrentScrapes(db, `http://127.0.0.1:${gatewayPort}`, (i) => pageUrl(concurrentSite.url, i), CONCURRENT);
    } finally {
      await concurrentSite.close();
    }
    const inFlight = CONCURRENT.teams * CONCURRENT.perTeam;
    console.log(`static pages (maxAge 0), ${inFlight} in flight from ${CONCURRENT.teams} teams, ${CONCURRENT.rounds} rounds:`);
    console.log(row('round trip (POST /v2/scrape)', concurrent));
    const cpuMs = printCpu(cpuBefore, concurrent.length);
    // However the work is spread, a round's scrapes cannot end before the cores did their CPU.
    console.log(
      `  ${`${inFlight} scrapes' CPU over ${availableParallelism()} cores (a lower bound of a round)`.padEnd(56)} ${((cpuMs * inFlight) / availableParallelism()).toFixed(0)} ms`,
    );

    const s = results.static;
    const r = results.rendered;
    const c50 = percentile(cached, 50);
    const c95 = percentile(concurrent, 95);
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    console.log(
      `goals (issue 44), this run; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')} at the end:`,
    );
    console.log(`  cached:     p50 ${c50.toFixed(1)} ms <= ${GOALS.cachedP50} ms: ${verdict(c50 <= GOALS.cachedP50)}`);
    console.log(
      `  static:     p50 ${s.p50.toFixed(1)} ms <= ${GOALS.staticP50} ms: ${verdict(s.p50 <= GOALS.staticP50)} (floor ${s.floor.toFixed(1)} ms, ${(s.p50 / s.floor).toFixed(1)}x)`,
    );
    console.log(`              p95 ${s.p95.toFixed(1)} ms <= ${GOALS.staticP95} ms: ${verdict(s.p95 <= GOALS.staticP95)}`);
    console.log(`  rendered:   p50 ${r.p50.toFixed(1)} ms <= ${GOALS.renderedP50} ms: ${verdict(r.p50 <= GOALS.renderedP50)}`);
    console.log(
      `  concurrent: p95 ${c95.toFixed(1)} ms <= ${GOALS.concurrentP95Ratio}x the one-at-a-time static p95 (${(GOALS.concurrentP95Ratio * s.p95).toFixed(1)} ms): ` +
        `${verdict(c95 <= GOALS.concurrentP95Ratio * s.p95)} (${(c95 / s.p95).toFixed(2)}x)`,
    );
    server.close();
    await connection.close();
    await db.$disconnect();
  } finally {
    await stopProcess(worker);
    await sites.static.close();
    await sites.rendered.close();
    await servers.stop();
  }
}

runBench(main);
