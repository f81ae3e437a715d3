// `npm run bench:browser`: browser sessions through the whole service (gateway ->
// Temporal -> worker process -> browser host -> Chromium; an execute: the session
// workflow's admission, then the gateway -> the host's relay), on scratch servers.
// Prints p50 / p95 of: session create (POST /v2/browser until the browser is up,
// BENCH_BROWSER_SESSIONS (10) sessions one after another); the execute round trip
// of a trivial snippet per language (node `1`, python `1`, bash `true`, whose own
// time is well under a millisecond, so the figure is the overhead; BENCH_BROWSER_EXECUTES
// (20) each, 1 s apart as an interactive caller sends them; and the sandbox's part of
// it, from the host's "execute timings"); a CDP message
// (Browser.getVersion) through the gateway's proxy and the host's relay beside the
// same message sent to Chromium directly (BENCH_BROWSER_MESSAGES (500)); and the
// memory of an idle session (the proportional set size of its browser's processes,
// averaged over BENCH_BROWSER_IDLE (5) sessions). Not a test: the figures depend on
// the machine.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@temporalio/client';
import { connectTemporal } from '../src/platform/temporal/connection.ts';
import { NativeConnection } from '@temporalio/worker';
import { WebSocket } from 'ws';
import { loadConfig } from '../src/config.ts';
import { freePort } from '../src/platform/process/ports.ts';
import { createDb } from '../src/platform/db/prisma.ts';
import { createApp } from '../src/platform/http/app.ts';
import { attachWebSockets } from '../src/platform/http/websockets.ts';
import { FEATURES } from '../src/features/index.ts';
import { createBrowserHost } from '../src/features/browser-sessions/host/browser-host.ts';
import { createLogger } from '../src/platform/log.ts';
import { createTeam, issueApiKey } from '../src/platform/teams/teams.ts';
import { executeAdmissionsOf, executePhases, updateTimer, type ExecuteTimes } from './execute-phases.ts';
import { processTree } from './processes.ts';
import { startBenchServers, stopProcess, untilReady } from './servers.ts';
import { percentile } from './percentile.ts';
import { taskQueuesOf } from '../src/platform/temporal/config.ts';

const SESSIONS = Number(process.env.BENCH_BROWSER_SESSIONS ?? 10);
const EXECUTES = Number(process.env.BENCH_BROWSER_EXECUTES ?? 20);
const MESSAGES = Number(process.env.BENCH_BROWSER_MESSAGES ?? 500);
const IDLE = Number(process.env.BENCH_BROWSER_IDLE ?? 5);
const SNIPPETS = { node: '1', python: '1', bash: 'true' } as const;
/** Issue 29: an execute's overhead (its API round trip less the code's own time), p50, per language. */
const OVERHEAD_GOAL_MS = 40;

const log = createLogger('warn', { process: 'bench' });

function row(name: string, values: number[], digits = 0): string {
  return `  ${name.padEnd(52)} p50 ${percentile(values, 50).toFixed(digits).padStart(7)} ms   p95 ${percentile(values, 95).toFixed(digits).padStart(7)} ms`;
}

/** Proportional set size (kB) of a process and all its descendants. */
function pssOfTree(root: number): number {
  let total = 0;
  for (const pid of processTree(root)) {
    try {
      total += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // Gone while we looked.
    }
  }
  return total;
}

/** Round trips of one CDP command, one at a time, over a WebSocket. */
async function cdpRoundTrips(url: string, count: number, headers: Record<string, string> = {}): Promise<number[]> {
  const ws = new WebSocket(url, { headers, perMessageDeflate: false });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const times: number[] = [];
  for (let id = 1; id <= count; id++) {
    const started = performance.now();
    const answered = new Promise<void>((resolve) => {
      const onMessage = (data: Buffer) => {
        if ((JSON.parse(data.toString()) as { id?: number }).id === id) {
          ws.off('message', onMessage);
          resolve();
        }
      };
      ws.on('message', onMessage);
    });
    ws.send(JSON.stringify({ id, method: 'Browser.getVersion' }));
    await answered;
    times.push(performance.now() - started);
  }
  ws.close();
  return times;
}

async function main() {
  const config = loadConfig();
  if (!config.chromium.path) throw new Error('CHROMIUM_PATH is not set: run `npm run bench:browser`');
  const servers = await startBenchServers('browser', config, log);
  const taskQueue = 'bench';
  const port = await freePort();
  const appConfig = {
    ...config,
    logLevel: 'warn' as const,
    temporal: { ...config.temporal, ...taskQueuesOf(taskQueue), address: servers.temporal.address },
    // The cdpUrl a session answers with must name this gateway.
    gateway: { ...config.gateway, publicBaseUrl: `http://127.0.0.1:${port}` },
  };
  let worker: ChildProcess | undefined;
  let server: Server | undefined;
  const db = createDb(servers.pg.url);
  const native = await NativeConnection.connect({ address: servers.temporal.address });
  // The host's "execute timings" lines give the sandbox's part of each execute.
  const sandboxMs: number[] = [];
  const hostLog = {
    ...log,
    debug: (msg: string, fields?: Record<string, unknown>) => void (msg === 'execute timings' && sandboxMs.push(Number(fields?.sandboxMs))),
  };
  const host = await createBrowserHost({ db, config: appConfig, log: hostLog, connection: native });
  const hostRunning = host.run();
  try {
    const team = await createTeam(db, { name: 'bench', credits: 1_000_000, concurrencyLimit: SESSIONS + IDLE + 2 });
    const { key } = await issueApiKey(db, team.id);
    worker = servers.spawnService('worker', taskQueue, {});
    await untilReady(worker, 'worker');
    const connection = await connectTemporal({ address: servers.temporal.address }, log);
    const timer = updateTimer();
    const deps = { db, temporal: new Client({ connection, interceptors: { workflow: [timer.interceptor] } }), config: appConfig, log };
    const app = createApp(deps, FEATURES);
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(port, '127.0.0.1', () => resolve(s));
    });
    const websockets = attachWebSockets(server, deps, FEATURES);
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const api = async (path: string, method = 'GET', body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = await res.json();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };

    console.log(`bench:browser on ${process.platform}, ${(await import('node:os')).cpus().length} cores`);
    const creates: number[] = [];
    for (let i = 0; i < SESSIONS + 1; i++) {
      const started = performance.now();
      const s = await api('/v2/browser', 'POST', { ttl: 300 });
      // The first start pays for the host's first Chromium and the workflow bundle: not counted.
      if (i > 0) creates.push(performance.now() - started);
      await api(`/v2/browser/${s.id}`, 'DELETE');
    }
    console.log(row(`session create (${SESSIONS} sessions)`, creates));

    const session = await api('/v2/browser', 'POST', { ttl: 600 });
    const overheads: string[] = [];
    for (const [language, code] of Object.entries(SNIPPETS)) {
      await api(`/v2/browser/${session.id}/execute`, 'POST', { code, language });
      const times: number[] = [];
      const calls: ExecuteTimes[] = [];
      sandboxMs.length = 0;
      for (let i = 0; i < EXECUTES; i++) {
        await sleep(1000);
        const started = performance.now();
        calls.push(await timer.record(() => api(`/v2/browser/${session.id}/execute`, 'POST', { code, language })));
        times.push(performance.now() - started);
      }
      console.log(row(`execute ${language} \`${code}\` round trip (${EXECUTES} runs)`, times));
      console.log(row(`  of which in the sandbox`, sandboxMs));
      const history = await deps.temporal.workflow.getHandle(`browser-${session.id}`).fetchHistory();
      for (const [phase, values] of Object.entries(executePhases(calls, executeAdmissionsOf(history.events ?? []), sandboxMs))) {
        console.log(row(`    ${phase}`, values));
      }
      const p50 = percentile(times, 50);
      overheads.push(
        `  ${language.padEnd(6)} p50 ${p50.toFixed(0).padStart(4)} ms  ${p50 <= OVERHEAD_GOAL_MS ? 'meets' : 'misses'} the ${OVERHEAD_GOAL_MS} ms goal`,
      );
    }
    console.log(`execute overhead (round trip of a trivial snippet, whose own time is < 1 ms):`);
    for (const line of overheads) console.log(line);

    const chromiumUrl = host.browserOf(session.id)!.cdpUrl;
    const proxied = await cdpRoundTrips(session.cdpUrl, MESSAGES);
    const straight = await cdpRoundTrips(chromiumUrl, MESSAGES);
    console.log(row(`CDP Browser.getVersion through the proxy (${MESSAGES})`, proxied, 2));
    console.log(row(`CDP Browser.getVersion to Chromium directly (${MESSAGES})`, straight, 2));
    console.log(`  proxy overhead per message: p50 ${(percentile(proxied, 50) - percentile(straight, 50)).toFixed(2)} ms`);
    await api(`/v2/browser/${session.id}`, 'DELETE');

    const idle = [];
    for (let i = 0; i < IDLE; i++) idle.push(await api('/v2/browser', 'POST', { ttl: 300 }));
    await sleep(5000);
    const perSession = idle.map((s) => pssOfTree(host.browserOf(s.id)!.pid));
    console.log(
      `  memory of an idle session (browser processes, PSS)      mean ${(perSession.reduce((a, b) => a + b, 0) / perSession.length / 1024).toFixed(0)} MB   (${perSession.map((k) => (k / 1024).toFixed(0)).join(', ')} MB)`,
    );
    for (const s of idle) await api(`/v2/browser/${s.id}`, 'DELETE');
    websockets.close();
  } finally {
    server?.closeAllConnections();
    server?.close();
    await stopProcess(worker);
    await host.stop();
    await hostRunning;
    await native.close();
    await db.$disconnect();
    await servers.stop();
  }
}

await main();
