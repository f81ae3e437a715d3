// The service bench:scale measures, as its real processes: a gateway and a worker
// (and for browser sessions a browser host) on scratch PostgreSQL, with
// pg_stat_statements preloaded, and a Temporal dev server persisted to its SQLite
// file as npm start runs it (in memory it would grow with every workflow).
import type { ChildProcess } from 'node:child_process';
import { Client } from '@temporalio/client';
import type { Config } from '../src/config.ts';
import { createDb, type Db } from '../src/platform/db/prisma.ts';
import type { Logger } from '../src/platform/log.ts';
import { connectTemporal } from '../src/platform/temporal/connection.ts';
import { benchTeam, type BenchTeam, type Timed } from './bench-team.ts';
import { startBenchServers, stopProcess, untilReady } from './servers.ts';

export const SCALE_TASK_QUEUE = 'scale';

export interface ScaleService {
  db: Db;
  temporal: Client;
  base: string;
  children: Record<string, ChildProcess>;
  /** CPU seconds so far per process: gateway, worker, (browser host,) postgres, temporal. */
  cpu(): Record<string, number>;
  team(name: string, concurrencyLimit: number, timed?: Timed): Promise<BenchTeam>;
  close(): Promise<void>;
}

export async function startScaleService(config: Config, log: Logger, { browserHost = false } = {}): Promise<ScaleService> {
  const servers = await startBenchServers('scale', config, log, {
    persistTemporal: true,
    pgSettings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' },
  });
  // CRAWL_RENDERING=auto: the generated pages have no script, so every page takes the HTTP path.
  const env = { CRAWL_PRIVATE_ADDRESS_ALLOWLIST: '127.0.0.1', LOG_LEVEL: 'info', CRAWL_RENDERING: 'auto' };
  const children: Record<string, ChildProcess> = { worker: servers.spawnService('worker', SCALE_TASK_QUEUE, env) };
  if (browserHost) children['browser host'] = servers.spawnService('browser-host', SCALE_TASK_QUEUE, env);
  const gateway = await servers.spawnGateway(SCALE_TASK_QUEUE, env);
  children.gateway = gateway.child;
  const db = createDb(servers.pg.url);
  const stop = async () => {
    await Promise.all(Object.values(children).map((c) => stopProcess(c)));
    await db.$disconnect();
    await servers.stop();
  };
  try {
    await Promise.all([
      untilReady(children.worker!, 'worker'),
      untilReady(gateway.child, 'gateway'),
      ...(browserHost ? [untilReady(children['browser host']!, 'browser-host')] : []),
    ]);
    await db.$executeRawUnsafe('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const connection = await connectTemporal({ address: servers.temporal.address }, log);
    return {
      db,
      temporal: new Client({ connection }),
      base: gateway.base,
      children,
      cpu: () => servers.cpuSeconds(children),
      team: (name, concurrencyLimit, timed) => benchTeam(db, gateway.base, { name, concurrencyLimit, credits: 100_000_000 }, timed),
      async close() {
        await connection.close();
        await stop();
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
