// `npm run bench:scrape`: single-scrape latency through the whole service
// (gateway -> Temporal -> worker process -> Chromium -> PostgreSQL) on a warm
// service: BENCH_WARMUP (5) uncounted scrapes, then BENCH_SCRAPES (30) timed
// ones of distinct pages with maxAge 0, one at a time. Prints p50 / p95 of the
// round trip and its split, from the worker's debug lines: browser (the batch's
// browser from launch to close, less the two below), conversion (HTML to the
// document), storage (page, charge and cache writes), and the rest (Temporal:
// workflow and activity round trips, plan and finish, the gateway). Then the
// round trip for a cached page. Not a test: the figures depend on the machine.
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../src/platform/config.ts';
import { createDb } from '../src/platform/db/prisma.ts';
import { createApp } from '../src/platform/http/app.ts';
import { FEATURES } from '../src/features/index.ts';
import { createLogger } from '../src/platform/log.ts';
import { createTeam, issueApiKey } from '../src/platform/teams/teams.ts';
import { freePort } from '../src/platform/process/ports.ts';
import { startBenchServers, stopWorker } from './servers.ts';
import { benchSite } from './site.ts';
import { waitFor } from '../test/support/wait-for.ts';
import { runBench } from './run-bench.ts';

const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const SCRAPES = Number(process.env.BENCH_SCRAPES ?? 30);

const log = createLogger('warn', { process: 'bench' });

interface Timings {
  browserMs: number;
  convertMs: number;
  storeMs: number;
}

/** What the worker's lines said of one job, by its id (a scrape's id is its job's). */
type Logged = Partial<Timings>;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function row(name: string, values: number[]): string {
  return `  ${name.padEnd(56)} p50 ${percentile(values, 50).toFixed(0).padStart(5)} ms   p95 ${percentile(values, 95).toFixed(0).padStart(5)} ms`;
}

async function main() {
  const config = loadConfig();
  if (!config.chromium.path) throw new Error('CHROMIUM_PATH is not set: run `npm run bench:scrape`');
  const site = await benchSite(WARMUP + SCRAPES + 1);
  const servers = await startBenchServers('scrape', config, log);
  let worker: ChildProcess | undefined;
  try {
    const db = createDb(servers.pg.url);
    const team = await createTeam(db, { name: 'bench', credits: 1_000_000, concurrencyLimit: 4 });
    const { key } = await issueApiKey(db, team.id);
    const taskQueue = 'bench';
    // The address guard stays on, as in production; only the site's address is let through.
    // At debug the worker writes the "page timings" / "batch timings" lines that are the split.
    worker = servers.spawnWorker(taskQueue, { CRAWL_PRIVATE_ADDRESS_ALLOWLIST: '127.0.0.1', LOG_LEVEL: 'debug' }, 'pipe');
    // At debug the Temporal SDK writes a block per task to stderr; only warnings and errors are shown.
    createInterface({ input: worker.stderr! }).on('line', (line) => /\[(WARN|ERROR)\]/.test(line) && process.stderr.write(`[worker] ${line}\n`));
    const timings = new Map<string, Logged>();
    const ready = new Promise<void>((resolve, reject) => {
      createInterface({ input: worker!.stdout! }).on('line', (line) => {
        if (line.includes('"msg":"worker ready"')) resolve();
        if (!line.includes('"msg":"page timings"') && !line.includes('"msg":"batch timings"')) return;
        const { crawlId, ...t } = JSON.parse(line) as Logged & { crawlId: string };
        timings.set(crawlId, { ...timings.get(crawlId), ...t });
      });
      worker!.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
    });
    await ready;
    const connection = await Connection.connect({ address: servers.temporal.address });
    const appConfig = { ...config, temporal: { ...config.temporal, taskQueue }, crawl: { ...config.crawl, privateAddressAllowlist: ['127.0.0.1'] } };
    const app = createApp({ db, temporal: new Client({ connection }), config: appConfig, log }, FEATURES);
    const gatewayPort = await freePort();
    const server = app.listen(gatewayPort, '127.0.0.1');

    const scrape = async (url: string, maxAge?: number): Promise<{ ms: number; id: string }> => {
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${gatewayPort}/v2/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url, formats: ['markdown'], ...(maxAge !== undefined && { maxAge }) }),
      });
      const body = await res.json();
      if (!body.success) throw new Error(`scrape of ${url} failed: ${body.error}`);
      return { ms: performance.now() - started, id: body.data.metadata.scrapeId };
    };
    const pageUrl = (i: number) => (i === 0 ? `${site.url}/` : `${site.url}/page/${i}`);

    console.log(`bench: single scrapes of a local page, ${WARMUP} warm-up + ${SCRAPES} timed, one at a time, ${config.chromium.path}`);
    for (let i = 0; i < WARMUP; i++) await scrape(pageUrl(i), 0);
    const total: number[] = [];
    const split: Timings[] = [];
    for (let i = WARMUP; i < WARMUP + SCRAPES; i++) {
      const { ms, id } = await scrape(pageUrl(i), 0);
      total.push(ms);
      // The worker's lines are written before the workflow ends, so they are in by now (or a moment later).
      const complete = () => timings.get(id)?.browserMs !== undefined && timings.get(id)?.storeMs !== undefined;
      await waitFor(`the page and batch timings of scrape ${id} (is the worker logging at debug?)`, complete, 1_000, 10);
      const t = timings.get(id) as Timings;
      // The page's conversion and storage happen while the batch holds its browser.
      split.push({ ...t, browserMs: t.browserMs - t.convertMs - t.storeMs });
    }
    const rest = total.map((ms, i) => ms - split[i].browserMs - split[i].convertMs - split[i].storeMs);
    console.log(`uncached (maxAge 0), ${SCRAPES} scrapes:`);
    console.log(row('round trip (POST /v2/scrape)', total));
    console.log(
      row(
        'browser (launch, navigate, capture, close)',
        split.map((t) => t.browserMs),
      ),
    );
    console.log(
      row(
        'conversion (HTML -> markdown document)',
        split.map((t) => t.convertMs),
      ),
    );
    console.log(
      row(
        'storage (page, charge, cache)',
        split.map((t) => t.storeMs),
      ),
    );
    console.log(row('Temporal and control (workflow, plan, finish, gateway)', rest));

    const cachedUrl = pageUrl(WARMUP);
    const cached: number[] = [];
    for (let i = 0; i < SCRAPES; i++) cached.push((await scrape(cachedUrl)).ms);
    console.log(`cached (maxAge default, the page stored above), ${SCRAPES} scrapes:`);
    console.log(row('round trip (POST /v2/scrape)', cached));
    server.close();
    await connection.close();
    await db.$disconnect();
  } finally {
    await stopWorker(worker);
    await site.close();
    await servers.stop();
  }
}

runBench(main);
