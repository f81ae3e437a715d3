// The Temporal dev server (`temporal server start-dev`) used when
// TEMPORAL_ADDRESS is unset: persisted to a SQLite file, Web UI included,
// search attributes registered by flags.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log.ts';
import { ensureDataDir, keepPrivate } from '../process/data-dir.ts';
import { pidAlive, portOpen, spawnDetached, stopPid, waitForReady, waitUntil } from '../process/detached.ts';
import { devServerSearchAttributeFlags } from './search-attributes.ts';

export interface TemporalDevServer {
  address: string;
  /** True when the server was left running by an earlier, killed start and reused. */
  adopted: boolean;
  uiUrl?: string;
  /** The server's process (started or adopted). */
  pid: number;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  cliPath: string;
  dataDir: string;
  port: number;
  uiPort?: number;
  /**
   * The HTTP API (every workflow as JSON, no key) and the metrics endpoint. Random free ports when
   * unset; `npm start` pins them so the address guard can refuse them (service-endpoints.ts).
   */
  httpPort?: number;
  metricsPort?: number;
  namespace: string;
  /** In memory when false: for tests. */
  persist: boolean;
  log: Logger;
  extraArgs?: string[];
}

export async function startTemporalDevServer(opts: DevServerOptions): Promise<TemporalDevServer> {
  ensureDataDir(opts.dataDir);
  const address = `127.0.0.1:${opts.port}`;
  const uiUrl = opts.uiPort ? `http://localhost:${opts.uiPort}` : undefined;
  const pidFile = join(opts.dataDir, 'temporal.pid');
  const logPath = join(opts.dataDir, 'temporal.log');
  const dbPath = join(opts.dataDir, 'temporal.db');
  // Workflow histories hold crawl data: owner only (older versions left them world-readable).
  keepPrivate(logPath, pidFile, dbPath, `${dbPath}-wal`, `${dbPath}-shm`);

  const leftover = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : undefined;
  let pid: number;
  const adopted = leftover !== undefined && pidAlive(leftover);
  if (adopted) {
    opts.log.info('adopting the Temporal dev server left running by an earlier start', { pid: leftover });
    await waitUntil(() => portOpen(opts.port), 30_000, 'the running Temporal dev server');
    pid = leftover!;
  } else {
    if (await portOpen(opts.port)) {
      throw new Error(`port ${opts.port} is already in use by another program; stop it, or set TEMPORAL_DEV_PORT, or point TEMPORAL_ADDRESS at that server`);
    }
    if (opts.uiPort && (await portOpen(opts.uiPort))) {
      throw new Error(`port ${opts.uiPort} (the Temporal Web UI) is already in use by another program; stop it, or set TEMPORAL_UI_PORT to a free port`);
    }
    for (const [port, setting] of [
      [opts.httpPort, 'TEMPORAL_DEV_HTTP_PORT'],
      [opts.metricsPort, 'TEMPORAL_DEV_METRICS_PORT'],
    ] as const) {
      if (port && (await portOpen(port))) throw new Error(`port ${port} is already in use by another program; stop it, or set ${setting} to a free port`);
    }
    const args = [
      'server',
      'start-dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(opts.port),
      '--namespace',
      opts.namespace,
      '--log-level',
      'warn',
      ...(opts.persist ? ['--db-filename', dbPath] : []),
      ...(opts.uiPort ? ['--ui-port', String(opts.uiPort)] : ['--headless']),
      ...(opts.httpPort ? ['--http-port', String(opts.httpPort)] : []),
      ...(opts.metricsPort ? ['--metrics-port', String(opts.metricsPort)] : []),
      ...devServerSearchAttributeFlags(),
      // Task-queue fairness: among browser tasks of equal priority, teams (the fairness key) take turns.
      '--dynamic-config-value',
      'matching.enableFairness=true',
      ...(opts.extraArgs ?? []),
    ];
    const proc = spawnDetached(opts.cliPath, args, { logPath, umask: 0o077 });
    writeFileSync(pidFile, String(proc.pid), { mode: 0o600 });
    try {
      await waitForReady(proc, () => portOpen(opts.port), { timeoutMs: 60_000, what: 'the Temporal dev server', logPath });
    } catch (err) {
      rmSync(pidFile, { force: true });
      throw err;
    }
    pid = proc.pid;
  }
  return {
    address,
    adopted,
    uiUrl,
    pid,
    async stop() {
      await stopPid(pid, 'SIGTERM', 30_000, 'the Temporal dev server');
      rmSync(pidFile, { force: true });
    },
  };
}
