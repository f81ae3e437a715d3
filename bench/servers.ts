// What every benchmark runs the service on: a temporary embedded PostgreSQL
// (migrated) and Temporal dev server in a scratch folder, and the real worker
// entry point as a child process. stop() removes all of it.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../src/platform/config.ts';
import { withMallocArenas } from '../src/platform/process/malloc-arenas.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded-postgres.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import type { Logger } from '../src/platform/log.ts';
import { startTemporalDevServer } from '../src/platform/temporal/dev-server.ts';
import { scratchDataDir } from '../src/platform/process/data-dir.ts';
import { freePort } from '../src/platform/process/ports.ts';

export async function startBenchServers(name: string, config: Config, log: Logger) {
  const dir = scratchDataDir(`${name}-bench-`);
  const [pg, temporal] = await Promise.all([
    freePort().then((port) => startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port, database: 'bench', log })),
    freePort().then((port) =>
      startTemporalDevServer({ cliPath: config.temporal.cliPath, dataDir: join(dir, 'temporal'), port, namespace: 'default', persist: false, log }),
    ),
  ]);
  await migrate(pg.url, log);
  return {
    pg,
    temporal,
    /** The scratch folder: PostgreSQL's and Temporal's command lines name it. */
    dir,
    /** The worker entry point on these servers; `env` adds settings. Its stdout is piped for the caller to read. */
    spawnWorker(taskQueue: string, env: Record<string, string>, stderr: 'inherit' | 'pipe' = 'inherit'): ChildProcess {
      // BENCH_WORKER_CPU_PROFILE=<dir>: the worker writes a V8 CPU profile there when it stops.
      const profile = process.env.BENCH_WORKER_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WORKER_CPU_PROFILE}`] : [];
      return spawn(process.execPath, [...profile, '--import', 'tsx', 'src/entry/worker.ts'], {
        // The worker's allocator as npm start and the image run it.
        env: { ...withMallocArenas(process.env), DATABASE_URL: pg.url, TEMPORAL_ADDRESS: temporal.address, TEMPORAL_TASK_QUEUE: taskQueue, ...env },
        stdio: ['ignore', 'pipe', stderr],
      });
    },
    async stop() {
      await temporal.stop();
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Stops a worker started by spawnWorker and waits for it to exit. */
export async function stopWorker(worker: ChildProcess | undefined): Promise<void> {
  if (!worker || worker.exitCode !== null) return;
  worker.kill('SIGTERM');
  await new Promise((r) => worker.once('exit', r));
}
