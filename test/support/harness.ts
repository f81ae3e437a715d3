// Everything an integration test needs around the shared servers: its own task
// queue, a gateway on a free port, a worker (in this process, or as a child
// process that can be killed), and a fresh team with an API key.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { createInterface } from 'node:readline';
import type { Client } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import express from 'express';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config.ts';
import { createDb, type Db } from '../../src/platform/db/prisma.ts';
import { createApp } from '../../src/platform/http/app.ts';
import { attachWebSockets } from '../../src/platform/http/websockets.ts';
import { createLogger } from '../../src/platform/log.ts';
import { createTeam, issueApiKey } from '../../src/platform/teams/teams.ts';
import { createWorkers } from '../../src/platform/temporal/worker-registry.ts';
import { keepIdleConnections } from '../../src/platform/http/idle-connections.ts';
import { connectTemporal, temporalClient } from '../../src/platform/temporal/connection.ts';
import { temporalEndpoint } from '../../src/platform/temporal/connection-options.ts';
import { createActivities } from '../../activities/index.ts';
import { FEATURES } from '../../src/features/index.ts';
import type { FeatureActivities, WorkerService } from '../../src/platform/feature.ts';
import { freePort } from '../../src/platform/process/ports.ts';
import { createBrowserHost, type BrowserHost } from '../../src/features/browser-sessions/host/browser-host.ts';
import { waitFor } from './wait-for.ts';
import { recordJsonResponses, type RecordedResponse } from './openapi-responses.ts';
import { TYPESCRIPT_NODE_ARGS } from '../../src/platform/process/typescript-runtime.mjs';
import { taskQueuesOf } from '../../src/platform/temporal/config.ts';

export { waitFor };

export interface Harness {
  config: Config;
  db: Db;
  temporal: Client;
  baseUrl: string;
  teamId: string;
  apiKey: string;
  api(path: string, init?: RequestInit & { json?: unknown; key?: string | null }): Promise<Response>;
  newTeam(opts?: Partial<Parameters<typeof createTeam>[1]>): Promise<{ teamId: string; apiKey: string }>;
  startWorker(opts?: { services?: boolean; replace?: ReplacedActivities }): Promise<void>;
  /** Shuts the in-process workers down, as a deploy does, and waits until they stopped. */
  stopWorkers(): Promise<void>;
  /** `output` collects every line the worker prints on stdout and stderr, from its first. */
  /** `env` adds settings (e.g. WORKER_OPS_PORT, or a DATABASE_URL through a proxy). */
  /** `cwd` runs the worker of another copy of the code (a second build, as in a rolling deploy). */
  spawnWorker(opts?: { output?: string[]; env?: Record<string, string>; cwd?: string }): Promise<ChildProcess>;
  /** A browser host in this process (stopped with the harness). */
  startBrowserHost(): Promise<BrowserHost>;
  /** The real browser host entry point in a child process: kill it with SIGKILL to test a lost host. */
  spawnBrowserHost(opts?: { env?: Record<string, string>; output?: string[] }): Promise<ChildProcess>;
  spawnGateway(opts?: { temporalAddress?: string; env?: Record<string, string>; output?: string[] }): Promise<{ child: ChildProcess; baseUrl: string }>;
  stop(): Promise<void>;
}

/** Activities run in place of the real ones of the same name: a fault the test injects. */
export type ReplacedActivities = NonNullable<FeatureActivities['control']>;

export interface HarnessOptions {
  crawl?: Partial<Config['crawl']>;
  /** The gateway listens on 127.0.0.1 at `port` when given (a free port otherwise). */
  gateway?: Partial<Config['gateway']>;
  llm?: Partial<Config['llm']>;
  webhooks?: Partial<Config['webhooks']>;
  worker?: Partial<Config['worker']>;
  search?: Partial<Config['search']>;
  parse?: Partial<Config['parse']>;
  scrape?: Partial<Config['scrape']>;
  /** A Temporal server of the test's own (to kill it); the shared one otherwise. */
  temporalAddress?: string;
  /** A migrated database on a PostgreSQL server of the test's own (to kill it); the shared one otherwise. */
  databaseUrl?: string;
  /** Every JSON answer of the in-process gateway is pushed here (openapi-responses.ts checks them against the contract). */
  recordResponses?: RecordedResponse[];
}

function testQueues() {
  return taskQueuesOf(`test-${randomUUID()}`);
}

export async function startHarness(overrides: HarnessOptions = {}): Promise<Harness> {
  const databaseUrl = overrides.databaseUrl ?? inject('databaseUrl');
  const temporalAddress = overrides.temporalAddress ?? inject('temporalAddress');
  const base = loadConfig();
  const config: Config = {
    ...base,
    logLevel: 'warn',
    database: { ...base.database, url: databaseUrl },
    // Tests make requests faster than any client should; the limits have tests of their own.
    gateway: { ...base.gateway, rateLimit: { perMinute: 1_000_000, burst: 100_000 }, ...overrides.gateway },
    temporal: { ...base.temporal, address: temporalAddress, workflowBundlePath: inject('workflowBundlePath'), ...testQueues() },
    // The fixture sites live on 127.0.0.1, which the address guard refuses by default.
    crawl: { ...base.crawl, heartbeatTimeoutMs: 5000, allowPrivateAddresses: true, maxActivePerTeam: 1000, ...overrides.crawl },
    llm: { ...base.llm, ...overrides.llm },
    worker: { ...base.worker, ...overrides.worker },
    search: { ...base.search, ...overrides.search },
    parse: { ...base.parse, ...overrides.parse },
    scrape: { ...base.scrape, ...overrides.scrape },
    // Quick retries, so tests see several attempts in seconds.
    webhooks: { ...base.webhooks, retryInitialMs: 200, retryMaxIntervalMs: 2000, pollIntervalMs: 100, ...overrides.webhooks },
  };
  const log = createLogger('warn', { process: 'test' });
  const db = createDb(databaseUrl);
  const endpoint = temporalEndpoint(temporalAddress, config.temporal);
  const connection = await connectTemporal(endpoint, log);
  const temporal = temporalClient(connection, config.temporal.namespace, log);
  const gatewayDeps = { db, temporal, config, log };
  const gateway = createApp(gatewayDeps, FEATURES);
  const app = overrides.recordResponses ? express().use(recordJsonResponses(overrides.recordResponses), gateway) : gateway;
  const server: Server = await new Promise((resolve) => {
    const s = keepIdleConnections(app.listen(overrides.gateway?.port ?? 0, '127.0.0.1', () => resolve(s)));
  });
  const websockets = attachWebSockets(server, gatewayDeps, FEATURES);
  const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  // Links point at this gateway, as they do at the address `npm start` prints; the port is known only now.
  if (overrides.gateway?.publicBaseUrl === undefined) config.gateway.publicBaseUrl = baseUrl;
  const workers: { workers: Worker[]; services: WorkerService[]; running: Promise<unknown>; connection: NativeConnection }[] = [];
  const children: ChildProcess[] = [];
  const hosts: { host: BrowserHost; running: Promise<void>; connection: NativeConnection }[] = [];

  const newTeam: Harness['newTeam'] = async (opts) => {
    const team = await createTeam(db, { name: `test-${randomUUID()}`, credits: 100_000, concurrencyLimit: 4, ...opts });
    const { key } = await issueApiKey(db, team.id);
    return { teamId: team.id, apiKey: key };
  };
  const { teamId, apiKey } = await newTeam();

  return {
    config,
    db,
    temporal,
    baseUrl,
    teamId,
    apiKey,
    newTeam,
    api(path, init = {}) {
      const { json, key, ...rest } = init;
      const headers = new Headers(rest.headers);
      const auth = key === undefined ? apiKey : key;
      if (auth !== null) headers.set('authorization', `Bearer ${auth}`);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(`${baseUrl}${path}`, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
    async startWorker(opts = {}) {
      const nativeConnection = await NativeConnection.connect(endpoint);
      const activities = await createActivities({ db, config, log, temporal });
      for (const [name, fn] of Object.entries(opts.replace ?? {})) {
        const cls = (['control', 'browser', 'io'] as const).find((c) => name in activities[c]);
        if (!cls) throw new Error(`no activity ${name} to replace`);
        activities[cls][name] = fn;
      }
      const started = await createWorkers(nativeConnection, config, activities);
      // Background services (the crawl start reconciler) act on every team's rows, so only tests that need them run them.
      const services = opts.services ? FEATURES.flatMap((f) => f.workerServices?.({ db, config, log, temporal }) ?? []) : [];
      workers.push({ workers: started, services, running: Promise.all(started.map((w) => w.run())), connection: nativeConnection });
    },
    async stopWorkers() {
      for (const w of workers.splice(0)) {
        for (const worker of w.workers) worker.shutdown();
        await w.running;
        await Promise.all(w.services.map((s) => s.stop()));
        await w.connection.close();
      }
    },
    /** The real worker entry point in a child process: kill it with SIGKILL to test crashes. */
    async spawnWorker(opts = {}) {
      const child = spawn(process.execPath, [...TYPESCRIPT_NODE_ARGS, 'src/entry/worker.ts'], {
        cwd: opts.cwd,
        env: {
          ...process.env,
          // Another copy of the code bundles its own workflows.
          ...(opts.cwd === undefined && { TEMPORAL_WORKFLOW_BUNDLE: config.temporal.workflowBundlePath }),
          DATABASE_URL: databaseUrl,
          TEMPORAL_ADDRESS: temporalAddress,
          TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
          TEMPORAL_BROWSER_TASK_QUEUE: config.temporal.browserTaskQueue,
          TEMPORAL_SCRAPE_TASK_QUEUE: config.temporal.scrapeTaskQueue,
          TEMPORAL_WEBHOOK_TASK_QUEUE: config.temporal.webhookTaskQueue,
          WEBHOOK_RETRY_INITIAL_MS: String(config.webhooks.retryInitialMs),
          WEBHOOK_RETRY_MAX_INTERVAL_MS: String(config.webhooks.retryMaxIntervalMs),
          WEBHOOK_POLL_INTERVAL_MS: String(config.webhooks.pollIntervalMs),
          WEBHOOK_TIMEOUT_MS: String(config.webhooks.timeoutMs),
          CRAWL_HEARTBEAT_TIMEOUT_MS: String(config.crawl.heartbeatTimeoutMs),
          CRAWL_ALLOW_PRIVATE_ADDRESSES: String(config.crawl.allowPrivateAddresses),
          CRAWL_RENDERING: config.crawl.rendering,
          LOG_LEVEL: 'info',
          ...opts.env,
        },
        stdio: ['ignore', 'pipe', opts.output ? 'pipe' : 'inherit'],
      });
      children.push(child);
      await readyLine(child, 'worker ready', 'worker', opts.output);
      return child;
    },
    async startBrowserHost() {
      const nativeConnection = await NativeConnection.connect(endpoint);
      const host = await createBrowserHost({ db, config, log, connection: nativeConnection });
      hosts.push({ host, running: host.run(), connection: nativeConnection });
      return host;
    },
    async spawnBrowserHost(opts = {}) {
      const child = spawn(process.execPath, [...TYPESCRIPT_NODE_ARGS, 'src/entry/browser-host.ts'], {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          TEMPORAL_ADDRESS: temporalAddress,
          TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
          CRAWL_ALLOW_PRIVATE_ADDRESSES: String(config.crawl.allowPrivateAddresses),
          LOG_LEVEL: 'info',
          ...opts.env,
        },
        stdio: ['ignore', 'pipe', opts.output ? 'pipe' : 'inherit'],
      });
      children.push(child);
      await readyLine(child, 'browser host ready', 'browser-host', opts.output);
      return child;
    },
    /** The real gateway entry point in a child process, on a free port; `temporalAddress` puts e.g. a proxy in between, `env` adds settings, `output` collects its lines. */
    async spawnGateway(opts = {}) {
      const port = opts.env?.PORT ? Number(opts.env.PORT) : await freePort();
      const child = spawn(process.execPath, [...TYPESCRIPT_NODE_ARGS, 'src/entry/gateway.ts'], {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          TEMPORAL_ADDRESS: opts.temporalAddress ?? temporalAddress,
          TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
          CRAWL_ALLOW_PRIVATE_ADDRESSES: String(config.crawl.allowPrivateAddresses),
          API_KEY_RATE_LIMIT_PER_MINUTE: String(config.gateway.rateLimit.perMinute),
          API_KEY_RATE_LIMIT_BURST: String(config.gateway.rateLimit.burst),
          TEAM_MAX_ACTIVE_CRAWLS: String(config.crawl.maxActivePerTeam),
          HOST: '127.0.0.1',
          PORT: String(port),
          LOG_LEVEL: 'info',
          ...opts.env,
        },
        stdio: ['ignore', 'pipe', opts.output ? 'pipe' : 'inherit'],
      });
      children.push(child);
      await readyLine(child, 'gateway listening', 'gateway', opts.output);
      return { child, baseUrl: `http://127.0.0.1:${port}` };
    },
    async stop() {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      for (const h of hosts) {
        await h.host.stop();
        await h.running;
        await h.connection.close();
      }
      for (const w of workers) {
        for (const worker of w.workers) worker.shutdown();
        await w.running;
        await Promise.all(w.services.map((s) => s.stop()));
        await w.connection.close();
      }
      await new Promise<void>((resolve) => {
        websockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await connection.close();
      await db.$disconnect();
    },
  };
}

function readyLine(child: ChildProcess, message: string, name: string, output?: string[]): Promise<void> {
  if (output && child.stderr) {
    createInterface({ input: child.stderr }).on('line', (line) => {
      output.push(line);
      process.stderr.write(`${line}\n`);
    });
  }
  return new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output?.push(line);
      if (line.includes(`"msg":"${message}"`)) resolve();
      if (/"level":"(warn|error)"/.test(line)) process.stderr.write(`[${name}] ${line}\n`);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
  });
}

/** Polls GET /v2/crawl/{id} until the crawl leaves `scraping`; returns the final body. */
export async function waitForCrawl(
  h: Harness,
  id: string,
  timeoutMs = 120_000,
  key?: string,
): Promise<Record<string, unknown> & { status: string; data: any[] }> {
  return waitFor(
    `crawl ${id} to finish`,
    async () => {
      const body = await (await h.api(`/v2/crawl/${id}?limit=1000`, { key })).json();
      return body.status !== 'scraping' ? body : undefined;
    },
    timeoutMs,
  );
}
