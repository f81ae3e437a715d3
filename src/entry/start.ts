// `npm start`: the whole service on one machine. Brings up PostgreSQL (embedded
// unless DATABASE_URL is set), applies migrations, the Temporal dev server
// (unless TEMPORAL_ADDRESS is set), then one worker, a browser host and the gateway as child
// processes, restarting either if it dies. Ctrl-C / SIGTERM stops everything in
// reverse order: the gateway stops accepting, the worker drains, servers stop.
// A start that fails or is stopped midway stops what it had already started.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../platform/db/embedded-postgres.ts';
import { migrate } from '../platform/db/migrate.ts';
import { createDb } from '../platform/db/prisma.ts';
import { createLogger } from '../platform/log.ts';
import { ensureDefaultTeam } from '../platform/teams/teams.ts';
import { connectTemporal } from '../platform/temporal/connection.ts';
import { temporalEndpoint } from '../platform/temporal/connection-options.ts';
import { startTemporalDevServer, type TemporalDevServer } from '../platform/temporal/dev-server.ts';
import { ensureSearchAttributes } from '../platform/temporal/search-attributes.ts';
import { runMain } from './process-helpers.ts';
import { publicBase } from '../platform/http/public-url.ts';
import { freePort } from '../platform/process/ports.ts';
import { withMallocArenas } from '../platform/process/malloc-arenas.ts';
import { pidAlive, tail } from '../platform/process/detached.ts';
import { watchServer, type ServerWatch } from '../platform/process/server-watch.ts';
import { TYPESCRIPT_NODE_ARGS } from '../platform/process/typescript-runtime.mjs';

/** Where this machine reaches a listener bound to `host` (any-address binds are reached on loopback). */
const localUrl = (host: string, port: number) => `http://${['0.0.0.0', '::'].includes(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${port}`;

/** Polls until `url` answers 200 (true) or the child is gone (false). */
async function waitUntilReady(url: string, gone: () => boolean): Promise<boolean> {
  while (!gone()) {
    const status = await fetch(url, { signal: AbortSignal.timeout(3000) }).then(
      (res) => {
        void res.body?.cancel();
        return res.status;
      },
      () => 0,
    );
    if (status === 200) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

const progress = (line: string) => process.stderr.write(`[start] ${line}\n`);
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** A signal arrived during start-up: what started is stopped, and the process ends normally. */
class StartStopped extends Error {}

interface Supervised {
  name: string;
  script: string;
  /** Answers 200 once the child serves (its /ready or the gateway's /health/ready). */
  readyUrl: string;
  child?: ChildProcess;
  restarts: number[];
}

runMain('start', async () => {
  const t0 = Date.now();
  const config = loadConfig();
  const log = createLogger(config.logLevel, { process: 'start' });
  let pg: EmbeddedPostgres | undefined;
  let temporalServer: TemporalDevServer | undefined;
  const pgOptions = { dataDir: config.dataDir, port: config.database.embeddedPort, database: 'crawl', log };
  const temporalOptions = {
    cliPath: config.temporal.cliPath,
    dataDir: config.dataDir,
    port: config.temporal.devPort,
    uiPort: config.temporal.devUiPort,
    httpPort: config.temporal.devHttpPort,
    metricsPort: config.temporal.devMetricsPort,
    namespace: config.temporal.namespace,
    persist: true,
    log,
  };
  const serverWatches: ServerWatch[] = [];
  let phase: 'starting' | 'running' | 'stopping' = 'starting';
  let stopRequested = false;
  // Not a port another setting names: those servers may not be listening yet.
  const named = [
    config.database.embeddedPort,
    config.temporal.devPort,
    config.temporal.devUiPort,
    config.temporal.devHttpPort,
    config.temporal.devMetricsPort,
    config.gateway.port,
    config.ops.workerPort,
    config.ops.browserHostPort,
    config.ops.gatewayPort,
  ].filter((port): port is number => typeof port === 'number' && port > 0);
  const workerOpsPort = config.ops.workerPort || (await freePort(named));
  const browserHostOpsPort = config.ops.browserHostPort || (await freePort([...named, workerOpsPort]));
  const gatewayOpsPort = config.ops.gatewayPort || (await freePort([...named, workerOpsPort, browserHostOpsPort]));
  const metricsUrl = (port: number) => `${localUrl(config.ops.bind, port)}/metrics`;
  const children: Supervised[] = [
    { name: 'worker', script: '../entry/worker.ts', readyUrl: `${localUrl(config.ops.bind, workerOpsPort)}/ready`, restarts: [] },
    { name: 'browser-host', script: '../entry/browser-host.ts', readyUrl: `${localUrl(config.ops.bind, browserHostOpsPort)}/ready`, restarts: [] },
    { name: 'gateway', script: '../entry/gateway.ts', readyUrl: `${localUrl(config.gateway.host, config.gateway.port)}/health/ready`, restarts: [] },
  ];

  /** Everything started so far, in reverse order of start. */
  async function stopAll() {
    for (const watch of serverWatches) watch.stop();
    for (const name of ['gateway', 'browser-host', 'worker']) {
      const c = children.find((x) => x.name === name)?.child;
      if (c && c.exitCode === null && c.signalCode === null) {
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, config.worker.shutdownGraceMs + 15_000))]);
      }
    }
    await temporalServer?.stop();
    await pg?.stop();
  }

  async function shutdown(code: number) {
    if (phase === 'stopping') return;
    phase = 'stopping';
    progress('shutting down: gateway, then worker (draining), then Temporal and PostgreSQL ...');
    await stopAll();
    progress('stopped');
    process.exit(code);
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (phase !== 'starting') return void shutdown(0);
      // A server being started cannot be stopped halfway; the start-up stops after the current step.
      if (!stopRequested) progress(`${signal}: stopping after the current start-up step ...`);
      stopRequested = true;
    });
  }
  /** Between start-up steps, after what a step started is recorded for stopAll. */
  const step = async <T>(work: Promise<T>): Promise<T> => {
    const value = await work;
    checkpoint();
    return value;
  };
  const checkpoint = () => {
    if (stopRequested) throw new StartStopped();
  };

  try {
    await startAll();
    phase = 'running';
    watchServers();
  } catch (err) {
    phase = 'stopping';
    await stopAll();
    if (err instanceof StartStopped) {
      progress('stopped');
      return;
    }
    throw err;
  }
  await new Promise(() => undefined);

  async function startAll() {
    let databaseUrl = config.database.url;
    if (databaseUrl) {
      progress('PostgreSQL: using DATABASE_URL');
    } else {
      const t = Date.now();
      pg = await startEmbeddedPostgres(pgOptions);
      checkpoint();
      databaseUrl = pg.url;
      const how = pg.adopted ? 'adopted the embedded server an earlier start left running' : 'embedded server';
      progress(`PostgreSQL: ${how} on 127.0.0.1:${config.database.embeddedPort}, data in ${config.dataDir}/postgres (${seconds(t)})`);
    }
    const applied = await step(migrate(databaseUrl, log));
    progress(applied.length ? `migrations applied: ${applied.join(', ')}` : 'migrations: up to date');

    let address = config.temporal.address;
    let uiUrl = config.temporal.uiUrl;
    if (address) {
      progress(`Temporal: using TEMPORAL_ADDRESS=${address}${config.temporal.tls ? ' over TLS' : ''}`);
    } else {
      const t = Date.now();
      temporalServer = await startTemporalDevServer(temporalOptions);
      checkpoint();
      address = temporalServer.address;
      uiUrl ??= temporalServer.uiUrl;
      const how = temporalServer.adopted ? 'adopted the dev server an earlier start left running' : 'dev server';
      progress(`Temporal: ${how} on ${address}, history in ${config.dataDir}/temporal.db (${seconds(t)})`);
    }
    const connection = await connectTemporal(temporalEndpoint(address, config.temporal), log).catch((err: Error) => {
      if (!temporalServer) throw err;
      const state = pidAlive(temporalServer.pid) ? 'is running but does not answer' : 'has exited';
      throw new Error(
        `${err.message}; the dev server (pid ${temporalServer.pid}) ${state}; last lines of ${config.dataDir}/temporal.log:\n${tail(join(config.dataDir, 'temporal.log'))}`,
      );
    });
    const added = await step(ensureSearchAttributes(connection, config.temporal.namespace, log).finally(() => connection.close()));
    if (added.length) progress(`Temporal: registered search attributes ${added.join(', ')}`);

    const db = createDb(databaseUrl, 2);
    const team = await step(ensureDefaultTeam(db, config.defaultTeam).finally(() => db.$disconnect()));

    const childEnv = {
      ...withMallocArenas(process.env),
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: address,
      WORKER_OPS_PORT: String(workerOpsPort),
      BROWSER_HOST_OPS_PORT: String(browserHostOpsPort),
      GATEWAY_OPS_PORT: String(gatewayOpsPort),
      SUPERVISED_BY_PID: String(process.pid),
    };
    const t = Date.now();
    await step(Promise.all(children.map((s) => launch(s, childEnv))));
    progress(`worker, browser host and gateway ready (${seconds(t)})`);

    const apiBase = publicBase(config);
    const lines = [
      '',
      `  API:          ${apiBase}/v2   (health: ${apiBase}/health)`,
      `  Temporal UI:  ${uiUrl ?? '(external Temporal: see your cluster UI)'}`,
      `  Metrics:      gateway ${metricsUrl(gatewayOpsPort)}`,
      `                worker ${metricsUrl(workerOpsPort)}`,
      `                browser host ${metricsUrl(browserHostOpsPort)}`,
    ];
    if (team.key) {
      lines.push(`  API key:      ${team.key}`, '                (created for team "default"; shown only this once, stored as a hash)');
    } else {
      lines.push('  API key:      use the key printed on first start, or `npm run cli -- key create --team default`');
    }
    lines.push(`  ready in ${seconds(t0)}. Ctrl-C stops everything; data stays in ${config.dataDir}.`, '');
    process.stderr.write(`${lines.join('\n')}\n`);
  }

  /** PostgreSQL and the Temporal dev server, when this start runs them, are started again if they die. */
  function watchServers() {
    const giveUp = (why: string) => {
      progress(`${why}; stopping everything`);
      void shutdown(1);
    };
    if (pg?.pid !== undefined) {
      serverWatches.push(
        watchServer({
          name: 'PostgreSQL',
          isAlive: () => pg?.pid !== undefined && pidAlive(pg.pid),
          restart: async () => {
            pg = await startEmbeddedPostgres(pgOptions);
          },
          report: progress,
          giveUp,
        }),
      );
    }
    if (temporalServer) {
      serverWatches.push(
        watchServer({
          name: 'the Temporal dev server',
          isAlive: () => temporalServer !== undefined && pidAlive(temporalServer.pid),
          restart: async () => {
            temporalServer = await startTemporalDevServer(temporalOptions);
          },
          report: progress,
          giveUp,
        }),
      );
    }
  }

  function launch(s: Supervised, env: NodeJS.ProcessEnv): Promise<void> {
    return new Promise((resolve, reject) => {
      const script = fileURLToPath(new URL(s.script, import.meta.url));
      // Own process group: a terminal Ctrl-C reaches only this supervisor, which stops children in order.
      const child = spawn(process.execPath, [...TYPESCRIPT_NODE_ARGS, script], { env, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
      s.child = child;
      let ready = false;
      let exited = false;
      createInterface({ input: child.stdout! }).on('line', (line) => process.stdout.write(`${line}\n`));
      void waitUntilReady(s.readyUrl, () => exited).then((answered) => {
        if (!answered) return;
        ready = true;
        resolve();
      });
      child.once('exit', (code, signal) => {
        exited = true;
        if (phase === 'stopping') return;
        if (!ready) return reject(new Error(`${s.name} exited during start-up (${signal ?? `code ${code}`}); see its messages above`));
        const now = Date.now();
        s.restarts = [...s.restarts.filter((t) => now - t < 60_000), now];
        if (s.restarts.length > 5) {
          progress(`${s.name} keeps dying (${s.restarts.length} times in a minute); giving up`);
          void shutdown(1);
          return;
        }
        progress(`${s.name} exited (${signal ?? `code ${code}`}); restarting it`);
        launch(s, env).catch((err) => {
          progress(`${s.name} could not be restarted: ${(err as Error).message}`);
          void shutdown(1);
        });
      });
    });
  }
});
