// `npm run bench:soak`: issue 39's soak. Three teams (limits 2, 4 and 8) keep
// SOAK_JOBS_PER_KIND (1) jobs of each kind in flight for SOAK_MINUTES (60),
// starting the next as one ends: crawls of the mixed load's static, scripted and
// slow sites with a webhook to a receiver of their own, single scrapes, searches
// of the local index (plain, with scrapeOptions, of web and images) and browser
// sessions with executes. Every job runs on fresh local sites, loads every page
// afresh (maxAge 0), and is checked when it ends (test/support/mixed-load-jobs.ts). The service runs as its real
// processes, a gateway, a worker and a browser host, on scratch PostgreSQL and
// Temporal. Every SOAK_REPORT_MINUTES (5) it prints, per process, the medians and
// maxima of samples taken every SOAK_SAMPLE_SECONDS (10): RSS, open descriptors,
// PostgreSQL connections (by the client port of each backend, as only the job
// feed names its connections); and the API's p50 / p95 per kind of request and
// the jobs that ended. At the end, the first period (the warm-up) against the
// last, the totals, and whether the teams were charged exactly and hold nothing.
// Each period's figures go to SOAK_OUTPUT (a JSON file in the temp dir). Not a test.
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { createDb, type Db } from '../src/platform/db/prisma.ts';
import { createLogger } from '../src/platform/log.ts';
import { LIMIT_REACHED_RETRY_AFTER_SECONDS } from '../src/platform/http/errors.ts';
import { crawlJob, scrapesJob, searchJob, sessionJob, TEAM_LIMITS, type Api, type MixedJob } from '../test/support/mixed-load-jobs.ts';
import { nthNoteWord, startTeamSites } from '../test/support/mixed-load-sites.ts';
import { loadSnapshot, nothingHeld } from '../test/support/load-snapshot.ts';
import { waitFor } from '../test/support/wait-for.ts';
import { benchTeam, type BenchTeam } from './bench-team.ts';
import { openFds, processTree, pss, rss, tcpPortsOf } from './processes.ts';
import { runBench } from './run-bench.ts';
import { startBenchServers, stopProcess, untilReady } from './servers.ts';
import {
  comparePeriods,
  comparisonLines,
  FLAT_WITHIN,
  latencies,
  periodLines,
  processFigures,
  requestKind,
  type Comparison,
  type JobCounts,
  type Period,
  type ProcessSample,
} from './soak-figures.ts';

function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!(value > 0)) throw new Error(`${name} must be a positive number, not "${raw}"`);
  return value;
}

const MINUTES = setting('SOAK_MINUTES', 60);
const REPORT_MINUTES = setting('SOAK_REPORT_MINUTES', 5);
const SAMPLE_SECONDS = setting('SOAK_SAMPLE_SECONDS', 10);
const JOBS_PER_KIND = Math.round(setting('SOAK_JOBS_PER_KIND', 1));
const OUTPUT = process.env.SOAK_OUTPUT || join(tmpdir(), `bench-soak-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
/** However long one job may take before it counts as incorrect (wedged). */
const JOB_DEADLINE_MS = 600_000;
/** The ledger and the team slots are settled when the last job has answered; a little slack for the workflows' last writes. */
const SETTLE_MS = 30_000;
/** Error lines of a process echoed as they come; past that they are only counted. */
const ECHOED_ERRORS = 20;
const TASK_QUEUE = 'soak';
const FLAT_PERCENT = FLAT_WITHIN * 100;
const ALLOWLIST = '127.0.0.1';

const log = createLogger('warn', { process: 'bench' });

/** The kinds of job each team keeps in flight; a kind with several jobs takes them in turn. */
const KINDS: Record<string, (prefix: string) => MixedJob[]> = {
  crawl: (prefix) =>
    (['static', 'scripted', 'slow'] as const).map((site) => crawlJob(`${prefix} crawl of the ${site} site`, (s) => s[site], { webhook: true })),
  scrape: (prefix) => [scrapesJob(`${prefix} single scrapes`)],
  search: (prefix) => [
    searchJob(`${prefix} search`, {}),
    searchJob(`${prefix} search with scrapeOptions`, { scrapeOptions: { formats: ['markdown'] } }),
    searchJob(`${prefix} search of web and images`, { sources: ['web', 'images'] }),
  ],
  session: (prefix) => [sessionJob(`${prefix} browser session`)],
};

interface Watched {
  pid: number;
  /** node: one process (its Chromiums as its tree); postgres: the postmaster and its backends; temporal: the dev server. */
  kind: 'node' | 'postgres' | 'temporal';
}

/** Client backends per process (by the local port of each of its TCP sockets), and all of them. */
async function connectionsOf(db: Db, pids: number[]): Promise<{ byPid: Map<number, number>; total: number }> {
  const rows = await db.$queryRawUnsafe<{ port: number | null }[]>(
    `SELECT client_port AS port FROM pg_stat_activity WHERE backend_type = 'client backend' AND datname = current_database()`,
  );
  const ports = tcpPortsOf(pids);
  const byPid = new Map(pids.map((pid) => [pid, rows.filter((r) => r.port !== null && ports.get(pid)!.has(r.port)).length]));
  return { byPid, total: rows.length };
}

async function sample(db: Db, watched: Record<string, Watched>): Promise<Record<string, ProcessSample>> {
  const nodePids = Object.values(watched).flatMap((w) => (w.kind === 'node' ? [w.pid] : []));
  const connections = await connectionsOf(db, nodePids);
  const out: Record<string, ProcessSample> = {};
  for (const [name, { pid, kind }] of Object.entries(watched)) {
    const tree = processTree(pid);
    if (kind === 'postgres') {
      const parts = tree.map(pss);
      out[name] = {
        rss: parts.reduce((sum, p) => sum + p.pss - p.shmem, 0),
        sharedMemory: parts.reduce((sum, p) => sum + p.shmem, 0),
        fds: tree.reduce((sum, p) => sum + openFds(p), 0),
        connections: connections.total,
        procs: tree.length,
      };
    } else {
      const { own, tree: treeRss } = rss(pid);
      // The dev server is one process: its tree is itself.
      out[name] = { rss: own, fds: openFds(pid), procs: tree.length, ...(kind === 'node' && { connections: connections.byPid.get(pid), treeRss }) };
    }
  }
  return out;
}

/** A 429 CONCURRENCY_LIMIT: the team is at its limit, which is the right answer then, not an incorrect job. */
class AtTeamLimit extends Error {}

function refusedAtLimit(api: Api): Api {
  return async (path, init) => {
    const res = await api(path, init);
    if (res.status === 429 && res.body?.code === 'CONCURRENCY_LIMIT') throw new AtTeamLimit(res.body.error);
    return res;
  };
}

/**
 * Every load of a job is fresh (maxAge 0; the page cache is still written). The sites of a job are
 * new, but over an hour their ports come round again, and a team's cache would then answer a new
 * site's URL with an old site's page (82 of 5,007 jobs the first time).
 */
function uncached(api: Api): Api {
  return (path, init) => {
    const body = init?.json as Record<string, unknown> | undefined;
    if (init?.method !== 'POST' || !body) return api(path, init);
    if (path === '/v2/scrape' || path === '/v2/batch/scrape') return api(path, { ...init, json: { ...body, maxAge: 0 } });
    const scrapeOptions = body.scrapeOptions as Record<string, unknown> | undefined;
    if (path === '/v2/crawl' || (path === '/v2/search' && scrapeOptions))
      return api(path, { ...init, json: { ...body, scrapeOptions: { ...scrapeOptions, maxAge: 0 } } });
    return api(path, init);
  };
}

function sumCounts(counts: JobCounts[]): JobCounts {
  return counts.reduce((s, c) => ({ ok: s.ok + c.ok, incorrect: s.incorrect + c.incorrect, refused: s.refused + c.refused }), {
    ok: 0,
    incorrect: 0,
    refused: 0,
  });
}

/** What a period gathers until its report. */
function newBucket(names: string[]) {
  return {
    samples: new Map<string, ProcessSample[]>(names.map((n) => [n, []])),
    latency: new Map<string, number[]>(),
    jobs: Object.fromEntries(Object.keys(KINDS).map((k) => [k, { ok: 0, incorrect: 0, refused: 0 }])) as Record<string, JobCounts>,
    incorrect: [] as string[],
    logged: Object.fromEntries(names.map((n) => [n, { warn: 0, error: 0 }])),
  };
}

async function main() {
  const config = loadConfig();
  if (!config.chromium.path) throw new Error('CHROMIUM_PATH is not set: run `npm run bench:soak`');
  // In memory, the dev server would grow with every workflow of the hour; npm start persists it too.
  const servers = await startBenchServers('soak', config, log, { persistTemporal: true });
  const db = createDb(servers.pg.url, 2);
  const children: Record<string, ChildProcess> = {};
  const names = ['gateway', 'worker', 'browser host'];
  let bucket = newBucket([...names, 'postgres', 'temporal']);
  let recording = true;
  const echoed: Record<string, number> = {};
  const onLine = (name: string) => (line: string) => {
    const level = /"level":"(warn|error)"/.exec(line)?.[1] as 'warn' | 'error' | undefined;
    if (!level || !recording) return;
    bucket.logged[name]![level]++;
    if (level === 'error' && (echoed[name] = (echoed[name] ?? 0) + 1) <= ECHOED_ERRORS) process.stderr.write(`[${name}] ${line.slice(0, 600)}\n`);
  };
  const loops: Promise<void>[] = [];
  /** Set when no job is to start any more: the time is up, or the bench was interrupted. */
  let stopping = false;
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  let wasInterrupted = false;
  let interrupted: () => void = () => undefined;
  const interruption = new Promise<void>((resolve) => (interrupted = resolve));
  const stopNow = () => {
    console.log('bench:soak: interrupted; reporting what was measured');
    stopping = wasInterrupted = true;
    stop();
    interrupted();
  };
  process.once('SIGINT', stopNow);
  process.once('SIGTERM', stopNow);
  try {
    const env = { CRAWL_PRIVATE_ADDRESS_ALLOWLIST: ALLOWLIST, LOG_LEVEL: 'info' };
    children.worker = servers.spawnService('worker', TASK_QUEUE, env);
    children['browser host'] = servers.spawnService('browser-host', TASK_QUEUE, env);
    // Every crawl polls its status several times a second; the gateway has no key rate limit.
    const gateway = await servers.spawnGateway(TASK_QUEUE, env);
    children.gateway = gateway.child;
    const base = gateway.base;
    await Promise.all([
      untilReady(children.worker, 'worker', onLine('worker')),
      untilReady(children['browser host'], 'browser-host', onLine('browser host')),
      untilReady(children.gateway, 'gateway', onLine('gateway')),
    ]);
    const watched: Record<string, Watched> = {
      ...Object.fromEntries(names.map((n) => [n, { pid: children[n]!.pid!, kind: 'node' as const }])),
      postgres: { pid: servers.pg.pid!, kind: 'postgres' },
      temporal: { pid: servers.temporal.pid, kind: 'temporal' },
    };

    const timed = (method: string, path: string, status: number, ms: number) => {
      if (!recording) return;
      const kind = requestKind(method, path, status);
      bucket.latency.set(kind, [...(bucket.latency.get(kind) ?? []), ms]);
    };
    const teams: BenchTeam[] = await Promise.all(
      TEAM_LIMITS.map((limit, i) => benchTeam(db, base, { name: `soak team ${i + 1}`, concurrencyLimit: limit, credits: 100_000_000 }, timed)),
    );
    /** Credits each team's correct jobs account for. */
    const owed = teams.map(() => 0);
    const incorrectOf = teams.map(() => 0);
    let words = 0;
    const keepBusy = async (team: number, kind: string, jobs: MixedJob[], offset: number) => {
      for (let n = offset; !stopping; n++) {
        const job = jobs[n % jobs.length]!;
        const sites = await startTeamSites({ noteWord: nthNoteWord(words++) });
        let refused = false;
        try {
          const outcome = await job.run(refusedAtLimit(uncached(teams[team]!.api)), sites, Date.now() + JOB_DEADLINE_MS);
          if (!recording) return;
          bucket.jobs[kind]!.ok++;
          owed[team]! += outcome.credits;
        } catch (err) {
          if (!recording) return;
          if ((refused = err instanceof AtTeamLimit)) {
            bucket.jobs[kind]!.refused++;
            continue;
          }
          bucket.jobs[kind]!.incorrect++;
          incorrectOf[team]!++;
          const why = `${job.name}: ${(err as Error).message}`;
          bucket.incorrect.push(why);
          console.log(`INCORRECT ${why}`);
        } finally {
          await sites.close();
          // As the 429's Retry-After asks (a limit, not a rate: nothing says when a place frees).
          if (refused) await Promise.race([new Promise((r) => setTimeout(r, LIMIT_REACHED_RETRY_AFTER_SECONDS * 1000)), stopped]);
        }
      }
    };

    const kinds = Object.keys(KINDS);
    console.log(
      `bench:soak: ${teams.length} teams (limits ${TEAM_LIMITS.join(', ')}), each keeping ${JOBS_PER_KIND} of each kind in flight (${kinds.join(', ')}); ` +
        `${MINUTES} min, a report every ${REPORT_MINUTES} min of samples every ${SAMPLE_SECONDS} s; CRAWL_RENDERING=${config.crawl.rendering}, WORKER_BROWSER_SLOTS=${config.worker.browserSlots}`,
    );
    console.log(
      `  processes: ${Object.entries(watched)
        .map(([n, w]) => `${n} ${w.pid}`)
        .join(', ')}; figures to ${OUTPUT}`,
    );
    const started = Date.now();
    const end = started + MINUTES * 60_000;
    for (const [t, prefix] of TEAM_LIMITS.map((limit, i) => [i, `team ${i + 1} (limit ${limit})`] as const)) {
      for (const kind of kinds) {
        for (let slot = 0; slot < JOBS_PER_KIND; slot++) loops.push(keepBusy(t, kind, KINDS[kind]!(prefix), t + slot));
      }
    }

    let sampling = Promise.resolve();
    const takeSample = () =>
      (sampling = sampling.then(async () => {
        for (const [name, s] of Object.entries(await sample(db, watched))) bucket.samples.get(name)!.push(s);
      }));
    const sampler = setInterval(() => void takeSample().catch((err: Error) => console.error(`sample failed: ${err.message}`)), SAMPLE_SECONDS * 1000);
    const periods: Period[] = [];
    const result: Record<string, unknown> = {
      startedAt: new Date(started).toISOString(),
      settings: { minutes: MINUTES, reportMinutes: REPORT_MINUTES, sampleSeconds: SAMPLE_SECONDS, jobsPerKind: JOBS_PER_KIND, teamLimits: TEAM_LIMITS },
      pids: Object.fromEntries(Object.entries(watched).map(([n, w]) => [n, w.pid])),
      periods,
    };
    const save = () => writeFileSync(OUTPUT, `${JSON.stringify(result, null, 2)}\n`);
    try {
      for (let index = 1; ; index++) {
        const periodEnd = Math.min(end, started + index * REPORT_MINUTES * 60_000);
        await Promise.race([new Promise((r) => setTimeout(r, Math.max(0, periodEnd - Date.now()))), interruption]);
        await takeSample();
        const closed = bucket;
        bucket = newBucket([...closed.samples.keys()]);
        const period: Period = {
          index,
          startMinute: (index - 1) * REPORT_MINUTES,
          endMinute: (Date.now() - started) / 60_000,
          processes: Object.fromEntries([...closed.samples].map(([n, s]) => [n, processFigures(s)])),
          latency: latencies(closed.latency),
          jobs: closed.jobs,
          incorrect: closed.incorrect,
          logged: closed.logged,
        };
        periods.push(period);
        for (const line of periodLines(period)) console.log(line);
        save();
        if (periodEnd >= end || stopping) break;
      }
    } finally {
      clearInterval(sampler);
      await sampling;
    }

    stopping = true;
    stop();
    let drained: Record<string, JobCounts> | undefined;
    const drainStarted = Date.now();
    await Promise.race([Promise.all(loops), interruption]);
    if (!wasInterrupted) {
      drained = bucket.jobs;
      const count = sumCounts(Object.values(drained));
      console.log(
        `after the last period: the jobs in flight ended within ${((Date.now() - drainStarted) / 1000).toFixed(0)} s: ${count.ok} ok, ${count.incorrect} incorrect, ${count.refused} refused at the team's limit`,
      );
    }
    const finished = drained !== undefined;
    recording = false;

    const totals = Object.fromEntries(kinds.map((k) => [k, sumCounts([...periods.map((p) => p.jobs[k]!), ...(drained ? [drained[k]!] : [])])]));
    const { ok, incorrect, refused } = sumCounts(Object.values(totals));

    // Charged exactly: each team's ledger holds what its correct jobs cost (a team with an incorrect job may have been charged for part of it).
    const ledger: string[] = [];
    let ledgerWrong = 0;
    if (finished) {
      for (const [i, team] of teams.entries()) {
        const { _sum } = await db.usageEntry.aggregate({ where: { teamId: team.id }, _sum: { credits: true } });
        const charged = Number(_sum.credits ?? 0);
        const exact = charged === owed[i];
        if (!exact && incorrectOf[i] === 0) ledgerWrong++;
        ledger.push(
          `team ${i + 1}: charged ${charged} credits, its correct jobs cost ${owed[i]}: ${exact ? 'exact' : incorrectOf[i] ? `not compared (${incorrectOf[i]} incorrect jobs)` : 'WRONG'}`,
        );
      }
    }
    const teamIds = teams.map((t) => t.id);
    const held = finished
      ? await waitFor('the teams to hold nothing', () => nothingHeld(db, teamIds), SETTLE_MS).then(
          () => undefined,
          async () => loadSnapshot(db, teamIds),
        )
      : undefined;

    const comparisons: Comparison[] = periods.length > 1 ? comparePeriods(periods[0]!, periods.at(-1)!) : [];
    // The goal: memory, descriptors and p95 flat after the warm-up, every job correct. A figure
    // that fell is no leak (the warm-up's p95s include compiling everything once): only growth fails it.
    const grew = comparisons.filter((c) => !c.notJudged && !c.flat && c.ratio > 1);
    const goalMet = finished && periods.length > 1 && grew.length === 0 && incorrect === 0 && ledgerWrong === 0 && held === undefined;
    Object.assign(result, {
      finished,
      drained,
      drainedIncorrect: finished ? bucket.incorrect : [],
      totals,
      comparisons,
      ledger,
      held: held ?? 'nothing',
      goalMet,
    });
    save();

    console.log(`\nsummary: ${((Date.now() - started) / 60_000).toFixed(1)} min, ${periods.length} periods of ${REPORT_MINUTES} min`);
    if (periods.length > 1) {
      console.log(`  period 1 (the warm-up) -> period ${periods.length}, medians of each period's samples; flat: within ±${FLAT_PERCENT} %`);
      for (const line of comparisonLines(comparisons)) console.log(line);
      console.log(`  grew more than ${FLAT_PERCENT} % (judged: RSS, descriptors, p95): ${grew.length ? grew.map((c) => c.what).join('; ') : 'none'}`);
    } else {
      console.log('  one period only: no warm-up to compare the last period with (SOAK_MINUTES must exceed SOAK_REPORT_MINUTES)');
    }
    console.log(
      `  jobs: ${ok} correct, ${incorrect} incorrect, ${refused} refused at the team's limit (correct/incorrect/refused: ${kinds.map((k) => `${k} ${totals[k]!.ok}/${totals[k]!.incorrect}/${totals[k]!.refused}`).join(', ')})`,
    );
    for (const line of ledger) console.log(`  ledger of ${line}`);
    console.log(`  held after the last job: ${finished ? (held ?? 'nothing') : 'not checked (interrupted)'}`);
    console.log(
      `  goal (memory, descriptors and p95 within +${FLAT_PERCENT} % of the warm-up's, every job correct, charged exactly, nothing held): ${goalMet ? 'met' : 'NOT met'}`,
    );
    console.log(`  figures of every period: ${OUTPUT}`);
  } finally {
    stopping = true;
    recording = false;
    await Promise.all(Object.values(children).map((c) => stopProcess(c)));
    await db.$disconnect();
    await servers.stop();
  }
}

runBench(main);
