// The stage of the dependency fault suite (test/integration/dependency-faults-*.test.ts):
// a PostgreSQL or Temporal server of the file's own (so it can be killed and stopped
// without touching the suite's shared servers), a TCP proxy in front of it, and the
// service's real processes (worker, browser host, gateway) reaching it only through
// the proxy. Each case injects one fault while a mix of two teams runs (crawls, one
// with a webhook, single scrapes, a batch, a search, a browser session with
// executes), heals it, and holds every answer and every job to the issue's rules:
// no process exited, no answer was a 5xx other than 503, none took longer than its
// deadline plus 2 s, every job ended exact, nothing is left held.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { processTree } from '../../bench/processes.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { READY_TIMEOUT_MS } from '../../src/features/browser-sessions/gateway/start-session.ts';
import { DEFAULT_EXECUTE_TIMEOUT_SECONDS } from '../../src/features/browser-sessions/protocol/execute-limits.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/platform/db/embedded-postgres.ts';
import { createLogger } from '../../src/platform/log.ts';
import { pidAlive } from '../../src/platform/process/detached.ts';
import { freePort } from '../../src/platform/process/ports.ts';
import { startTemporalDevServer, type TemporalDevServer } from '../../src/platform/temporal/dev-server.ts';
import { startHarness, waitFor, type Harness } from './harness.ts';
import { batchJob, crawlJob, scrapesJob, searchJob, sessionJob, type Api, type JobOutcome, type MixedJob } from './mixed-load-jobs.ts';
import { startTeamSites, type TeamSites } from './mixed-load-sites.ts';
import { loadSnapshot, nothingHeld } from './load-snapshot.ts';
import { jobWorkflowId } from '../../src/jobs/definitions.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';
import { describeActivities } from './activity-history.ts';

export type Dependency = 'postgres' | 'temporal';

/** The gateway's REQUEST_DEADLINE_MS here: short, so a case sees requests pass it. */
const REQUEST_DEADLINE_MS = 4000;
/** How often the gateway's liveness is timed during a case. */
const PING_MS = 250;
/** What a request may take beyond its deadline (the issue's bound). */
const DEADLINE_SLACK_MS = 2000;
/** Past its deadline by this much, a request counts as never answered. */
const NO_ANSWER_MS = 20_000;
/** How long a case's fault lasts: longer than the deadline plus its slack, so a request that hangs for the whole fault fails the case. */
export const FAULT_MS = REQUEST_DEADLINE_MS + DEADLINE_SLACK_MS + 2000;
const CREDITS = 100_000;
/**
 * A case's own timeout: a session start may wait 120 s from its arrival (READY_TIMEOUT_MS) and a
 * repeat of it waits for the first, on top of the mix before and the fault itself.
 */
export const CASE_TIMEOUT_MS = 240_000;
/** A case whose jobs still run this long after they began prints what is still going, before its timeout cuts it short. */
const WATCHDOG_MS = 200_000;
const log = createLogger('warn', { process: 'test' });

/** A server of the file's own that can be killed, restarted, stopped and continued. */
interface OwnServer {
  /** host:port */
  address: string;
  /** The processes to signal: the server and, for PostgreSQL, its backends (one process group). */
  signal(signal: NodeJS.Signals): void;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function signalTree(pid: number, signal: NodeJS.Signals): void {
  for (const p of processTree(pid)) {
    try {
      process.kill(p, signal);
    } catch {
      // Gone meanwhile.
    }
  }
}

async function ownPostgres(): Promise<OwnServer & { url: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crawl-fault-pg-'));
  const port = await freePort();
  const start = () => startEmbeddedPostgres({ dataDir, port, database: 'crawl', log });
  let pg: EmbeddedPostgres = await start();
  await migrate(pg.url, log);
  return {
    url: pg.url,
    address: `127.0.0.1:${port}`,
    // PostgreSQL's backends are process groups of their own (setsid): each is signalled, or a stop would only stop new connections.
    signal: (signal) => signalTree(pg.pid!, signal),
    async restart() {
      await waitFor('PostgreSQL to be gone', () => !pidAlive(pg.pid!), 10_000, 50);
      pg = await start();
    },
    async stop() {
      await pg.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function ownTemporal(): Promise<OwnServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crawl-fault-temporal-'));
  const port = await freePort();
  const start = () => startTemporalDevServer({ cliPath: process.env.TEMPORAL_CLI_PATH!, dataDir, port, namespace: 'default', persist: true, log });
  let server: TemporalDevServer = await start();
  const pid = () => Number(readFileSync(join(dataDir, 'temporal.pid'), 'utf8'));
  return {
    address: server.address,
    signal: (signal) => process.kill(-pid(), signal),
    async restart() {
      const old = pid();
      await waitFor('Temporal to be gone', () => !pidAlive(old), 10_000, 50);
      server = await start();
    },
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Fault {
  name: string;
  inject(stage: FaultStage): void | Promise<void>;
  heal(stage: FaultStage): void | Promise<void>;
}

/** The faults of the issue, each on the connections (through the proxy) or on the server itself. */
export const FAULTS: Fault[] = [
  {
    name: 'cut (connections reset, new ones refused)',
    inject: ({ proxy }) => (proxy.refuse(true), proxy.reset()),
    heal: ({ proxy }) => proxy.refuse(false),
  },
  { name: 'reset of every open connection', inject: ({ proxy }) => proxy.reset(), heal: () => undefined },
  { name: 'black hole (accepted, never answered)', inject: ({ proxy }) => proxy.hold(), heal: ({ proxy }) => proxy.release() },
  { name: 'slow (300 ms each way)', inject: ({ proxy }) => proxy.delay(300), heal: ({ proxy }) => proxy.delay(0) },
  { name: 'SIGKILL of the server', inject: ({ server }) => server.signal('SIGKILL'), heal: ({ server }) => server.restart() },
  { name: 'SIGSTOP of the server', inject: ({ server }) => server.signal('SIGSTOP'), heal: ({ server }) => server.signal('SIGCONT') },
];

export interface FaultStage {
  dependency: Dependency;
  h: Harness;
  proxy: TcpProxy;
  server: OwnServer;
  gatewayUrl: string;
  processes: { name: string; child: ChildProcess; output: string[] }[];
  stop(): Promise<void>;
}

export async function startFaultStage(dependency: Dependency): Promise<FaultStage> {
  const pg = dependency === 'postgres' ? await ownPostgres() : undefined;
  const temporal = dependency === 'temporal' ? await ownTemporal() : undefined;
  const server = (pg ?? temporal)!;
  const proxy = await startTcpProxy(server.address);
  const h = await startHarness({ databaseUrl: pg?.url, temporalAddress: temporal?.address });
  const env: Record<string, string> = { WORKER_SHUTDOWN_GRACE_MS: '60000' };
  if (pg) {
    const url = new URL(pg.url);
    url.host = proxy.address;
    env.DATABASE_URL = url.toString();
  } else {
    env.TEMPORAL_ADDRESS = proxy.address;
  }
  const output = { worker: [] as string[], host: [] as string[], gateway: [] as string[] };
  const worker = await h.spawnWorker({ env, output: output.worker });
  const host = await h.spawnBrowserHost({ env, output: output.host });
  const gateway = await h.spawnGateway({
    env: { ...env, REQUEST_DEADLINE_MS: String(REQUEST_DEADLINE_MS) },
    temporalAddress: env.TEMPORAL_ADDRESS,
    output: output.gateway,
  });
  return {
    dependency,
    h,
    proxy,
    server,
    gatewayUrl: gateway.baseUrl,
    processes: [
      { name: 'worker', child: worker, output: output.worker },
      { name: 'browser host', child: host, output: output.host },
      { name: 'gateway', child: gateway.child, output: output.gateway },
    ],
    async stop() {
      proxy.release();
      proxy.refuse(false);
      proxy.delay(0);
      await h.stop();
      await proxy.close();
      await server.stop();
    },
  };
}

interface Answer {
  method: string;
  path: string;
  status: number;
  startedAt: number;
  ms: number;
  /** The request's deadline from its arrival. */
  deadlineMs: number;
  /** An error answer's code and message, for the report. */
  error?: string;
}

/**
 * A request's deadline: REQUEST_DEADLINE_MS, or the wait the route itself documents when it waits
 * for work of its own (a scrape its `timeout`; a session start for its browser; an execute its run).
 * A repeat of a start with the same x-idempotency-key waits for the first, so it has the first's.
 * A search's own work (its `timeout`) may outlast the deadline while the dependencies answer, slowly
 * or not (the gateway lets it go on), so its answer has that long; a 503 of it still has the deadline.
 */
function deadlineOf(method: string, path: string, body: { timeout?: number } | undefined, status?: number): number {
  if (method !== 'POST') return REQUEST_DEADLINE_MS;
  if (path === '/v2/scrape') return body?.timeout ?? REQUEST_DEADLINE_MS;
  if (path === '/v2/search' && status !== 503) return Math.max(REQUEST_DEADLINE_MS, body?.timeout ?? 0);
  if (path === '/v2/browser') return READY_TIMEOUT_MS;
  if (/^\/v2\/browser\/[^/]+\/execute$/.test(path)) return (body?.timeout ?? DEFAULT_EXECUTE_TIMEOUT_SECONDS) * 1000;
  return REQUEST_DEADLINE_MS;
}

/** An API of one team through the spawned gateway that records every answer and sends a 503'd request again, as a client told Retry-After would. */
function recordingApi(stage: FaultStage, apiKey: string, answers: Answer[], inFlight: Set<string>): Api {
  return async (path, init = {}) => {
    const method = init.method ?? 'GET';
    // A job start sent again after a 503 must not start a second job.
    const key = method === 'POST' ? randomUUID() : undefined;
    const request = init.json as { timeout?: number } | undefined;
    const deadlineMs = deadlineOf(method, path, request);
    for (;;) {
      const startedAt = Date.now();
      const flight = `${method} ${path} sent at ${new Date(startedAt).toISOString()}`;
      inFlight.add(flight);
      // A request the gateway never answers is the failure this suite looks for: named, not waited out.
      const res = await fetch(`${stage.gatewayUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...(key && { 'x-idempotency-key': key }) },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
        signal: AbortSignal.timeout(deadlineMs + NO_ANSWER_MS),
      })
        .catch((err: unknown) => {
          throw new Error(`${method} ${path}: no answer after ${Date.now() - startedAt} ms (${(err as Error).message})`);
        })
        .finally(() => inFlight.delete(flight));
      const body = await res.json().catch(() => undefined);
      answers.push({
        method,
        path: path.split('?')[0]!,
        status: res.status,
        startedAt,
        ms: Date.now() - startedAt,
        deadlineMs: deadlineOf(method, path, request, res.status),
        ...(res.status >= 400 && { error: `${body?.code ?? ''} ${String(body?.error ?? '').slice(0, 200)}` }),
      });
      if (res.status !== 503) return { status: res.status, body };
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
}

/** How long the gateway's /health/live (which needs no dependency) takes to answer, every PING_MS until stopped. */
function pingLiveness(gatewayUrl: string): { pings: { sentAt: number; ms: number }[]; stop: () => Promise<void> } {
  const pings: { sentAt: number; ms: number }[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const sentAt = Date.now();
      await fetch(`${gatewayUrl}/health/live`, { signal: AbortSignal.timeout(60_000) }).then(
        (res) => res.arrayBuffer(),
        () => undefined,
      );
      pings.push({ sentAt, ms: Date.now() - sentAt });
      await new Promise((resolve) => setTimeout(resolve, PING_MS));
    }
  })();
  return {
    pings,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/** A gateway's line of an answered request (a client's poll, a success): noise next to what the worker said of a job. */
const answeredRequest = /"msg":"request".*"status":[23]\d\d/;

/** What the processes said since `since` of the jobs of these teams that have not ended, and every warning and error: where a job is stuck. */
async function linesOfUnendedJobs(stage: FaultStage, ids: string[], since: number): Promise<string> {
  const sinceIso = new Date(since).toISOString();
  const lines = stage.processes.flatMap(({ name, output }) =>
    output
      .filter((line) => (line.match(/"time":"([^"]+)"/)?.[1] ?? '') >= sinceIso)
      .filter((line) => /"level":"(warn|error)"/.test(line) || (ids.some((id) => line.includes(id)) && !answeredRequest.test(line)))
      .map((line) => `  [${name}] ${line.slice(0, 600)}`),
  );
  return `process lines since the fault of the ${ids.length} unended job(s) and every warning (${lines.length}, the last 100):\n${lines.slice(-100).join('\n')}`;
}

/** What Temporal holds of each unended crawl: its status, the activities it waits on (attempt, last failure, last heartbeat) and those it ran. */
async function workflowsOfUnendedJobs(stage: FaultStage, ids: string[]): Promise<string> {
  const described = await Promise.all(
    ids.map(async (id) => {
      const row = await stage.h.db.job.findUnique({ where: { id }, select: { id: true, workflowId: true } });
      const handle = stage.h.temporal.workflow.getHandle(jobWorkflowId(row ?? { id, workflowId: null }));
      const d = await handle.describe().catch((err: unknown) => err as Error);
      if (d instanceof Error) return `  crawl ${id}: ${d.message}`;
      const history = await handle.fetchHistory().catch((err: unknown) => err as Error);
      const activities = history instanceof Error ? [history.message] : describeActivities(history.events ?? []);
      const pending = (d.raw.pendingActivities ?? []).map(
        (a) =>
          `    ${a.activityType?.name} state ${a.state} attempt ${a.attempt} scheduled ${String(a.scheduledTime?.seconds ?? '')}` +
          ` last heartbeat ${String(a.lastHeartbeatTime?.seconds ?? '')} last failure ${a.lastFailure?.message ?? '-'}`,
      );
      return (
        `  crawl ${id}: workflow ${d.status.name}, history ${d.historyLength} events, ${pending.length} pending activities\n${pending.join('\n')}\n` +
        `    its activities (the last attempt of each):\n${activities.map((a) => `      ${a}`).join('\n')}`
      );
    }),
  );
  return `the unended crawls in Temporal:\n${described.join('\n')}`;
}

/** Why a case's jobs did not end, its summary last: a run's log is often read from its end. */
async function unendedReport(stage: FaultStage, fault: Fault, failures: string[], teamIds: string[], faultStart: number): Promise<string> {
  const running = await stage.h.db.job.findMany({ where: { teamId: { in: teamIds }, status: 'scraping' }, select: { id: true } });
  const ids = running.map((c) => c.id);
  const summary = `${fault.name}: ${failures.length} job(s) did not end as they must:\n${failures.join('\n')}`;
  return [
    summary,
    await linesOfUnendedJobs(stage, ids, faultStart),
    await loadSnapshot(stage.h.db, teamIds),
    await workflowsOfUnendedJobs(stage, ids),
    summary,
  ].join('\n');
}

export interface CaseFigures {
  fault: string;
  /** From the heal to the gateway's /health/ready 200 and a read answered 200. */
  recoverySeconds: number;
  answered503: number;
  requests: number;
  /** Pages of the mix's crawls fetched more than once (a batch retried after the fault). */
  pagesFetchedTwice: number;
  /** Of the requests the fault overlapped, the least time left before its due time when answered (negative: late). */
  leastMarginMs: number;
}

/**
 * Runs the mix of two fresh teams, injects `fault` once the jobs are under way, heals it
 * FAULT_MS later, and checks everything the issue asks of a dependency fault.
 */
export async function runFaultCase(stage: FaultStage, fault: Fault): Promise<CaseFigures> {
  const { h } = stage;
  const teams = await Promise.all([0, 1].map(() => h.newTeam({ concurrencyLimit: 4, credits: CREDITS })));
  const sites: TeamSites[] = await Promise.all(teams.map(() => startTeamSites()));
  const answers: Answer[] = [];
  // Each team crawls its slow site (team 0 with a webhook); team 0 also scrapes and searches, team 1 runs a batch and a
  // session with executes. The static site's PDF and images are left to the mixed load: they cost CPU, not coverage here.
  const mix: { team: number; job: MixedJob }[] = [
    { team: 0, job: crawlJob('crawl of the slow site with a webhook', (s) => s.slow, { webhook: true, throughFaults: true }) },
    { team: 0, job: scrapesJob('single scrapes') },
    { team: 0, job: searchJob('search', {}) },
    { team: 1, job: crawlJob('crawl of the slow site', (s) => s.slow, { throughFaults: true }) },
    { team: 1, job: batchJob('batch scrape') },
    { team: 1, job: sessionJob('browser session') },
  ];
  const { pings, stop: stopPings } = pingLiveness(stage.gatewayUrl);
  try {
    const inFlight = new Set<string>();
    const apis = teams.map((t) => recordingApi(stage, t.apiKey, answers, inFlight));
    const deadline = Date.now() + 100_000;
    const pending = new Set(mix.map((m) => m.job.name));
    const runs = mix.map(({ team, job }) => job.run(apis[team]!, sites[team]!, deadline).finally(() => pending.delete(job.name)));
    for (const r of runs) r.catch(() => undefined);
    // Before the test's own timeout cuts it short: what is still going, for the report.
    const watchdog = setTimeout(() => {
      console.log(`[fault] ${fault.name}: still running after ${WATCHDOG_MS / 1000} s: ${[...pending].join(', ')}; requests open: ${[...inFlight].join('; ')}`);
    }, WATCHDOG_MS).unref();
    await waitFor('the mix under way', () => answers.length >= 10 && sites[0]!.slow.site.hits.size >= 2, 30_000, 50);
    const faultStart = Date.now();
    await fault.inject(stage);
    await new Promise((resolve) => setTimeout(resolve, FAULT_MS));
    await fault.heal(stage);
    const healed = Date.now();
    await waitFor('the gateway ready again', async () => (await fetch(`${stage.gatewayUrl}/health/ready`)).status === 200, 60_000, 100);
    await waitFor('a read answered again', async () => (await apis[0]!('/v2/team/credit-usage')).status === 200, 60_000, 100);
    const recoverySeconds = (Date.now() - healed) / 1000;

    const settled = await Promise.allSettled(runs);
    clearTimeout(watchdog);
    await stopPings();
    const failures = settled.flatMap((s, i) => (s.status === 'rejected' ? [`${mix[i]!.job.name}: ${(s.reason as Error).message}`] : []));
    const teamIds = teams.map((t) => t.teamId);
    if (failures.length > 0) throw new Error(await unendedReport(stage, fault, failures, teamIds, faultStart));

    // No process of the service exited.
    for (const p of stage.processes)
      expect({ name: p.name, exitCode: p.child.exitCode, signal: p.child.signalCode }).toEqual({ name: p.name, exitCode: null, signal: null });
    // No 5xx but 503, and none later than its deadline plus the slack.
    expect(answers.filter((a) => a.status >= 500 && a.status !== 503).map((a) => `${a.method} ${a.path} ${a.status}`)).toEqual([]);
    // A gateway starved of CPU by the machine (a loaded test run) answers everything late, its liveness too: that
    // delay is the machine's, not a wait on the dependency, and is allowed on top of the slack.
    const starvedMs = (a: Answer) => Math.max(0, ...pings.filter((p) => p.sentAt < a.startedAt + a.ms && p.sentAt + p.ms > a.startedAt).map((p) => p.ms));
    // A request whose deadline passed before the fault was doing work of its own, which the gateway lets go on: from the
    // fault's start it too has the slack to be answered.
    const dueAt = (a: Answer) => Math.max(a.startedAt + a.deadlineMs, faultStart) + DEADLINE_SLACK_MS + starvedMs(a);
    const overlapped = answers.filter((a) => a.startedAt < healed && a.startedAt + a.ms > faultStart);
    const marginOf = (a: Answer) => dueAt(a) - (a.startedAt + a.ms);
    const late = overlapped.filter((a) => marginOf(a) < 0);
    const describe = (a: Answer) =>
      `${a.method} ${a.path} ${a.status} after ${a.ms} ms, sent ${a.startedAt - faultStart} ms after the fault's start, ${marginOf(a)} ms before its due time ` +
      `(deadline ${a.deadlineMs}, liveness answered within ${starvedMs(a)} ms meanwhile${a.error ? `; ${a.error}` : ''})`;
    const tightest = [...overlapped].sort((a, b) => marginOf(a) - marginOf(b)).slice(0, 3);
    console.log(`[fault] ${stage.dependency}, ${fault.name}: the answers closest to their due time:\n  ${tightest.map(describe).join('\n  ')}`);
    expect(late.map(describe)).toEqual([]);

    // Every job exact: its pages once, charged once, one webhook delivery per page.
    const outcomes = settled.map((s) => (s as PromiseFulfilledResult<JobOutcome>).value);
    for (const { jobId, urls } of outcomes.flatMap((o) => o.stored)) {
      const rows = await h.db.jobPage.findMany({ where: { jobId: jobId }, select: { url: true } });
      expect(rows.map((r) => r.url).sort(), jobId).toEqual([...urls].sort());
    }
    for (const [i, team] of teams.entries()) {
      const expected = outcomes.filter((_, k) => mix[k]!.team === i).reduce((sum, o) => sum + o.credits, 0);
      const entries = await h.db.usageEntry.findMany({ where: { teamId: team.teamId }, select: { endpoint: true, jobId: true, itemKey: true, credits: true } });
      const charged = entries.reduce((sum, e) => sum + e.credits, 0);
      const lines = entries.map((e) => `${e.endpoint} ${e.jobId} ${e.itemKey}: ${e.credits}`).join('; ');
      expect(charged, `ledger of team ${i} (${lines})`).toBe(expected);
    }
    // Nothing is left running or held.
    const released = async () =>
      // A release lost with its connection is made again once the database is back (team-slot-store.ts, host-gate.ts), not left to lapse.
      (await nothingHeld(h.db, teamIds)) &&
      (await h.db.jobUrl.count({ where: { job: { teamId: { in: teamIds } }, claimedBy: { not: null }, state: { not: 'done' } } })) === 0;
    await waitFor('every job to let go of what it held', released, 30_000).catch(async (err) => {
      throw new Error(`${(err as Error).message}\n${await loadSnapshot(h.db, teamIds)}`);
    });

    // The crawls' sites: each of their pages is fetched once when nothing fails (the scrapes and the batch share an item by design).
    const crawlSites = sites.map((s) => s.slow.site);
    const figures: CaseFigures = {
      fault: fault.name,
      recoverySeconds,
      answered503: answers.filter((a) => a.status === 503).length,
      requests: answers.length,
      pagesFetchedTwice: crawlSites.reduce((n, site) => n + [...site.hits.values()].filter((c) => c > 1).length, 0),
      leastMarginMs: Math.min(...overlapped.map(marginOf)),
    };
    console.log(`[fault] ${stage.dependency}: ${JSON.stringify(figures)}`);
    return figures;
  } finally {
    await stopPings();
    await Promise.all(sites.map((s) => s.close()));
  }
}
