// `npm run bench:load`: the mixed load of test/integration/mixed-load.test.ts
// (three teams with limits 2, 4 and 8: crawls of a static, a script-rendered and
// a slow site each, a batch scrape, single scrapes, a browser session, searches)
// through the real processes: a worker process, a browser host and a gateway on
// scratch PostgreSQL and Temporal. After an uncounted warm-up, each job runs alone (a fresh team and
// fresh sites each time, so no page cache helps), then all of them at once on
// fresh teams. Prints each job's time alone and in the mix, the time to the last
// completion against the sum of the times alone, and their ratio (below 1: the
// mix overlaps its jobs; a wedge never prints, it fails with a snapshot of what is
// held). Not a test: the figures depend on the machine.
import type { ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { Client } from '@temporalio/client';
import { connectTemporal } from '../src/platform/temporal/connection.ts';
import { NativeConnection } from '@temporalio/worker';
import { loadConfig } from '../src/config.ts';
import { createDb, type Db } from '../src/platform/db/prisma.ts';
import { createApp } from '../src/platform/http/app.ts';
import { FEATURES } from '../src/features/index.ts';
import { createBrowserHost } from '../src/features/browser-sessions/host/browser-host.ts';
import { createLogger } from '../src/platform/log.ts';
import { jobsOfTeam, TEAM_LIMITS, type MixedJob } from '../test/support/mixed-load-jobs.ts';
import { startTeamSites, type TeamSites } from '../test/support/mixed-load-sites.ts';
import { loadSnapshot } from '../test/support/load-snapshot.ts';
import { startBenchServers, stopProcess, untilReady } from './servers.ts';
import { runBench } from './run-bench.ts';
import { benchTeam, type BenchTeam } from './bench-team.ts';
import { taskQueuesOf } from '../src/platform/temporal/config.ts';

/** However long a job may take, alone or in the mix, before the bench calls it wedged. */
const JOB_DEADLINE_MS = 600_000;

const log = createLogger('warn', { process: 'bench' });

interface Timed {
  name: string;
  seconds: number;
}

/** Runs jobs side by side (one alone, or the whole mix) and times each; a job that fails fails the bench with where the teams stand. */
async function timeJobs(db: Db, runs: { job: MixedJob; team: BenchTeam; sites: TeamSites }[]): Promise<Timed[]> {
  const started = Date.now();
  const deadline = started + JOB_DEADLINE_MS;
  const settled = await Promise.allSettled(
    runs.map(async ({ job, team, sites }) => {
      await job.run(team.api, sites, deadline);
      return { name: job.name, seconds: (Date.now() - started) / 1000 };
    }),
  );
  const failures = settled.flatMap((s, i) => (s.status === 'rejected' ? [`${runs[i]!.job.name}: ${(s.reason as Error).message}`] : []));
  if (failures.length > 0) throw new Error(`${failures.join('\n')}\n${await loadSnapshot(db, [...new Set(runs.map((r) => r.team.id))])}`);
  return settled.map((s) => (s as PromiseFulfilledResult<Timed>).value);
}

async function main() {
  const config = loadConfig();
  if (!config.chromium.path) throw new Error('CHROMIUM_PATH is not set: run `npm run bench:load`');
  const servers = await startBenchServers('load', config, log);
  const taskQueue = 'bench';
  const appConfig = {
    ...config,
    logLevel: 'warn' as const,
    temporal: { ...config.temporal, ...taskQueuesOf(taskQueue), address: servers.temporal.address },
    // The address guard stays on, as in production; only the fixture sites' address is let through.
    crawl: { ...config.crawl, privateAddressAllowlist: ['127.0.0.1'] },
    // Every job polls its status several times a second; the key's rate limit is not what is measured.
    gateway: { ...config.gateway, rateLimit: { perMinute: 1_000_000, burst: 100_000 } },
  };
  const db = createDb(servers.pg.url);
  const native = await NativeConnection.connect({ address: servers.temporal.address });
  const host = await createBrowserHost({ db, config: appConfig, log, connection: native });
  const hostRunning = host.run();
  let worker: ChildProcess | undefined;
  let server: Server | undefined;
  const opened: TeamSites[] = [];
  try {
    worker = servers.spawnService('worker', taskQueue, { CRAWL_PRIVATE_ADDRESS_ALLOWLIST: '127.0.0.1', LOG_LEVEL: 'info' });
    await untilReady(worker, 'worker');
    const connection = await connectTemporal({ address: servers.temporal.address }, log);
    const app = createApp({ db, temporal: new Client({ connection }), config: appConfig, log }, FEATURES);
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

    const newTeam = (limit: number) => benchTeam(db, base, { name: `bench-load-${limit}`, credits: 1_000_000, concurrencyLimit: limit });
    const freshSites = async () => {
      const sites = await startTeamSites();
      opened.push(sites);
      return sites;
    };

    console.log(
      `bench:load: ${TEAM_LIMITS.length} teams (limits ${TEAM_LIMITS.join(', ')}), CRAWL_RENDERING=${config.crawl.rendering}, WORKER_BROWSER_SLOTS=${config.worker.browserSlots}`,
    );
    // A fresh worker's first job of each kind also pays for loading and compiling code: one uncounted round of the first team's jobs.
    for (const job of jobsOfTeam(0)) await timeJobs(db, [{ job, team: await newTeam(TEAM_LIMITS[0]), sites: await freshSites() }]);
    const alone: Timed[] = [];
    for (const [i, limit] of TEAM_LIMITS.entries()) {
      for (const job of jobsOfTeam(i)) {
        const [timed] = await timeJobs(db, [{ job, team: await newTeam(limit), sites: await freshSites() }]);
        alone.push(timed!);
        console.log(`  alone: ${timed!.name.padEnd(52)} ${timed!.seconds.toFixed(1).padStart(6)} s`);
      }
    }

    const teams = await Promise.all(TEAM_LIMITS.map((limit) => newTeam(limit)));
    const teamSites = await Promise.all(teams.map(() => freshSites()));
    const mix = teams.flatMap((team, i) => jobsOfTeam(i).map((job) => ({ job, team, sites: teamSites[i]! })));
    const together = await timeJobs(db, mix);
    for (const t of together) console.log(`  in the mix: ${t.name.padEnd(47)} ${t.seconds.toFixed(1).padStart(6)} s`);
    const sumAlone = alone.reduce((s, t) => s + t.seconds, 0);
    const last = Math.max(...together.map((t) => t.seconds));
    console.log(`sum of the ${alone.length} jobs run alone: ${sumAlone.toFixed(1)} s; all at once: last completion after ${last.toFixed(1)} s`);
    console.log(`ratio last completion together / sum alone: ${(last / sumAlone).toFixed(2)}`);
  } finally {
    server?.close();
    await stopProcess(worker);
    await host.stop();
    await hostRunning;
    await native.close();
    await Promise.all(opened.map((s) => s.close()));
    await db.$disconnect();
    await servers.stop();
  }
}

runBench(main);
