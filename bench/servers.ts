// What every benchmark runs the service on: a temporary embedded PostgreSQL
// (migrated) and Temporal dev server in a scratch folder, and the real entry
// points (worker, gateway, browser host) as child processes. stop() removes the
// servers and their folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Config } from '../src/config.ts';
import { withMallocArenas } from '../src/platform/process/malloc-arenas.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded-postgres.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import type { Logger } from '../src/platform/log.ts';
import { startTemporalDevServer } from '../src/platform/temporal/dev-server.ts';
import { scratchDataDir } from '../src/platform/process/data-dir.ts';
import { freePort } from '../src/platform/process/ports.ts';
import { TYPESCRIPT_NODE_ARGS } from '../src/platform/process/typescript-runtime.mjs';
import { cpu, cpuOfTrees } from './processes.ts';

/**
 * `persistTemporal`: the dev server keeps its histories in a SQLite file, as npm start runs it, instead of in its memory.
 * `pgSettings`: PostgreSQL server settings of the bench (e.g. pg_stat_statements preloaded).
 */
export async function startBenchServers(
  name: string,
  config: Config,
  log: Logger,
  { persistTemporal = false, pgSettings = {} as Record<string, string> } = {},
) {
  const dir = scratchDataDir(`${name}-bench-`);
  const [pg, temporal] = await Promise.all([
    freePort().then((port) => startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port, database: 'bench', log, settings: pgSettings })),
    freePort().then((port) =>
      startTemporalDevServer({
        cliPath: config.temporal.cliPath,
        dataDir: join(dir, 'temporal'),
        port,
        namespace: 'default',
        persist: persistTemporal,
        log,
      }),
    ),
  ]);
  await migrate(pg.url, log);
  /** An entry point of the service on these servers; `env` adds settings. Its stdout is piped for the caller to read. */
  const spawnService = (entry: ServiceEntry, taskQueue: string, env: Record<string, string>, stderr: 'inherit' | 'pipe' = 'inherit'): ChildProcess => {
    // BENCH_WORKER_CPU_PROFILE=<dir>: the worker writes a V8 CPU profile there when it stops.
    const profile = entry === 'worker' && process.env.BENCH_WORKER_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WORKER_CPU_PROFILE}`] : [];
    return spawn(process.execPath, [...profile, ...TYPESCRIPT_NODE_ARGS, `src/entry/${entry}.ts`], {
      // The allocator as npm start and the image run the service's processes.
      env: { ...withMallocArenas(process.env), DATABASE_URL: pg.url, TEMPORAL_ADDRESS: temporal.address, TEMPORAL_TASK_QUEUE: taskQueue, ...env },
      stdio: ['ignore', 'pipe', stderr],
    });
  };
  /** A gateway process on a free port of 127.0.0.1, without the key rate limit (the benches poll often), and its base URL. */
  const spawnGateway = async (taskQueue: string, env: Record<string, string>) => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = spawnService('gateway', taskQueue, {
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_BASE_URL: base,
      API_KEY_RATE_LIMIT_PER_MINUTE: '1000000',
      API_KEY_RATE_LIMIT_BURST: '100000',
    });
    return { child, base };
  };
  /**
   * CPU seconds so far of each named child (its exited children included: a worker's Chromiums), and of
   * PostgreSQL's and the Temporal dev server's process trees.
   */
  const cpuSeconds = (children: Record<string, ChildProcess>): Record<string, number> => {
    // The dev server's command line names its port, not the scratch folder (it keeps its state in memory).
    const trees = cpuOfTrees({ postgres: `${dir}/pg`, temporal: `--port ${temporal.address.split(':').pop()} ` });
    const own = Object.entries(children).map(([name, child]) => {
      const c = cpu(child.pid!);
      return [name, c.own + c.reaped] as const;
    });
    return { ...Object.fromEntries(own), postgres: trees.postgres!, temporal: trees.temporal! };
  };
  return {
    pg,
    temporal,
    /** The scratch folder: PostgreSQL's and Temporal's command lines name it. */
    dir,
    spawnService,
    spawnGateway,
    cpuSeconds,
    async stop() {
      await temporal.stop();
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type ServiceEntry = 'worker' | 'gateway' | 'browser-host';

/** The log message each entry point prints once it serves. */
const READY_MESSAGE: Record<ServiceEntry, string> = { worker: 'worker ready', gateway: 'gateway listening', 'browser-host': 'browser host ready' };

/**
 * Resolves once a spawned entry point logs that it is ready (its LOG_LEVEL must show info lines);
 * rejects if it exits first. Its stdout is read to the end, each line handed to `onLine`, so a
 * long run never fills the pipe.
 */
export function untilReady(child: ChildProcess, entry: ServiceEntry, onLine?: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes(`"msg":"${READY_MESSAGE[entry]}"`)) resolve();
      onLine?.(line);
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}`)));
  });
}

/** Stops a process started by spawnService and waits for it to exit. */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}
