// The stage of the dependency fault suite (test/integration/dependency-faults-*.test.ts):
// a PostgreSQL or Temporal server of the file's own (so it can be killed and stopped
// without touching the suite's shared servers), a TCP proxy in front of it, and the
// service's real processes (worker, browser host, gateway) reaching it only through
// the proxy. Each case injects one fault while a mix of two teams runs (crawls, one
// with a webhook, single scrapes, a batch, a search, a browser session with
// executes), heals it, and holds every answer and every job to the rules:
// no process exited, no answer was a 5xx other than 503, none took longer than its
// deadline plus 2 s, every job ended exact, nothing is left held.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { migrate } from '../../src/platform/db/migrate.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/platform/db/embedded-postgres.ts';
import { createLogger } from '../../src/platform/log.ts';
import { pidAlive } from '../../src/platform/process/detached.ts';
import { freePort } from '../../src/platform/process/ports.ts';
import { startTemporalDevServer, type TemporalDevServer } from '../../src/platform/temporal/dev-server.ts';
import { startHarness, waitFor, type Harness } from './harness.ts';
import { jobsOfTeam, type Api, type JobOutcome, type MixedJob } from './mixed-load-jobs.ts';
import { startTeamSites, type TeamSites } from './mixed-load-sites.ts';
import { loadSnapshot } from './load-snapshot.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';
import { startFixtureSite, treeSite, type FixtureSite } from './fixture-site.ts';

export type Dependency = 'postgres' | 'temporal';

/** The gateway's REQUEST_DEADLINE_MS here: short, so a case sees requests pass it. */
const REQUEST_DEADLINE_MS = 4000;
/** What a request may take beyond its deadline (the bound). */
const DEADLINE_SLACK_MS = 2000;
/** Past its deadline by this much, a request counts as never answered. */
const NO_ANSWER_MS = 20_000;
/** How long a case's fault lasts. */
export const FAULT_MS = 6000;
const CREDITS = 100_000;
/** Pages of the crawl with a webhook, each slow enough that the crawl spans the fault. */
const WEBHOOK_CRAWL_PAGES = 20;
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

async function ownPostgres(): Promise<OwnServer & { url: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crawl-fault-pg-'));
  const port = await freePort();
  const start = () => startEmbeddedPostgres({ dataDir, port, database: 'crawl', log });
  let pg: EmbeddedPostgres = await start();
  await migrate(pg.url, log);
  return {
    url: pg.url,
    address: `127.0.0.1:${port}`,
    signal: (signal) => process.kill(-pg.pid!, signal),
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
  inject(): void | Promise<void>;
  heal(): void | Promise<void>;
}

/** The faults of the issue, each on the connection (through the proxy) or on the server itself. */
export function faultsOf(stage: FaultStage): Fault[] {
  const { proxy, server } = stage;
  return [
    { name: 'cut (connections reset, new ones refused)', inject: () => (proxy.refuse(true), proxy.reset()), heal: () => proxy.refuse(false) },
    { name: 'reset of every open connection', inject: () => proxy.reset(), heal: () => undefined },
    { name: 'black hole (accepted, never answered)', inject: () => proxy.hold(), heal: () => proxy.release() },
    { name: 'slow (300 ms each way)', inject: () => proxy.delay(300), heal: () => proxy.delay(0) },
    { name: 'SIGKILL of the server', inject: () => server.signal('SIGKILL'), heal: () => server.restart() },
    { name: 'SIGSTOP of the server', inject: () => server.signal('SIGSTOP'), heal: () => server.signal('SIGCONT') },
  ];
}

export interface FaultStage {
  dependency: Dependency;
  h: Harness;
  proxy: TcpProxy;
  server: OwnServer;
  gatewayUrl: string;
  processes: { name: string; child: ChildProcess }[];
  receiver: WebhookReceiver;
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
  const worker = await h.spawnWorker({ env });
  const host = await h.spawnBrowserHost({ env });
  const gateway = await h.spawnGateway({ env: { ...env, REQUEST_DEADLINE_MS: String(REQUEST_DEADLINE_MS) }, temporalAddress: env.TEMPORAL_ADDRESS });
  const receiver = await startWebhookReceiver();
  return {
    dependency,
    h,
    proxy,
    server,
    gatewayUrl: gateway.baseUrl,
    receiver,
    processes: [
      { name: 'worker', child: worker },
      { name: 'browser host', child: host },
      { name: 'gateway', child: gateway.child },
    ],
    async stop() {
      proxy.release();
      proxy.refuse(false);
      proxy.delay(0);
      await receiver.close();
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
}

/** An API of one team through the spawned gateway that records every answer and sends a 503'd request again, as a client told Retry-After would. */
function recordingApi(stage: FaultStage, apiKey: string, answers: Answer[]): Api {
  return async (path, init = {}) => {
    const method = init.method ?? 'GET';
    // A job start sent again after a 503 must not start a second job.
    const key = method === 'POST' ? randomUUID() : undefined;
    const timeout = (init.json as { timeout?: number } | undefined)?.timeout;
    const deadlineMs = path === '/v2/scrape' && timeout !== undefined ? timeout : REQUEST_DEADLINE_MS;
    for (;;) {
      const startedAt = Date.now();
      // A request the gateway never answers is the failure this suite looks for: named, not waited out.
      const res = await fetch(`${stage.gatewayUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...(key && { 'x-idempotency-key': key }) },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
        signal: AbortSignal.timeout(deadlineMs + NO_ANSWER_MS),
      }).catch((err: unknown) => {
        throw new Error(`${method} ${path}: no answer after ${Date.now() - startedAt} ms (${(err as Error).message})`);
      });
      const body = await res.json().catch(() => undefined);
      answers.push({ method, path: path.split('?')[0]!, status: res.status, startedAt, ms: Date.now() - startedAt, deadlineMs });
      if (res.status !== 503) return { status: res.status, body };
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
}

/** The crawl of the mix that reports each page to a webhook: every page once, one delivery per page event. */
function webhookCrawl(site: FixtureSite, receiver: WebhookReceiver): MixedJob & { crawlId?: string } {
  const job: MixedJob & { crawlId?: string } = {
    name: 'crawl with a webhook',
    async run(api, _sites, deadline) {
      const started = await api('/v2/crawl', {
        method: 'POST',
        json: { url: `${site.url}/`, limit: 100, webhook: { url: receiver.url } },
      });
      if (started.status !== 200) throw new Error(`crawl start: ${started.status} ${JSON.stringify(started.body)}`);
      const id = started.body.id as string;
      job.crawlId = id;
      let status: any;
      await waitFor(
        `crawl ${id} to end`,
        async () => (status = (await api(`/v2/crawl/${id}?limit=1000`)).body)?.status !== 'scraping',
        Math.max(0, deadline - Date.now()),
        250,
      );
      const urls = Object.keys(treeSite(WEBHOOK_CRAWL_PAGES)).map((p) => `${site.url}${p}`);
      const got = (status.data as any[]).map((d) => d.metadata.sourceURL as string).sort();
      if (status.status !== 'completed' || got.join('\n') !== [...urls].sort().join('\n'))
        throw new Error(`crawl ${id}: ${status.status}, ${got.length} of ${urls.length} pages`);
      return { stored: [{ jobId: id, urls }], credits: urls.length };
    },
  };
  return job;
}

export interface CaseFigures {
  fault: string;
  /** From the heal to the gateway's /health/ready 200 and a read answered 200. */
  recoverySeconds: number;
  answered503: number;
  requests: number;
  /** Pages of the mix's sites fetched more than once (a batch retried after the fault). */
  pagesFetchedTwice: number;
}

/**
 * Runs the mix of two fresh teams, injects `fault` once the jobs are under way, heals it
 * FAULT_MS later, and checks everything the issue asks of a dependency fault.
 */
export async function runFaultCase(stage: FaultStage, fault: Fault): Promise<CaseFigures> {
  const { h } = stage;
  const teams = await Promise.all([0, 1].map(() => h.newTeam({ concurrencyLimit: 4, credits: CREDITS })));
  const sites: TeamSites[] = await Promise.all(teams.map(() => startTeamSites()));
  const webhookSite = await startFixtureSite(treeSite(WEBHOOK_CRAWL_PAGES), { delayMs: () => 300 });
  const answers: Answer[] = [];
  const hook = webhookCrawl(webhookSite, stage.receiver);
  // Team 0: crawls of the static and slow sites, single scrapes, a search; team 1: a batch, a session with executes, the webhook crawl.
  const [team0, team1] = [jobsOfTeam(0), jobsOfTeam(2)];
  const mix: { team: number; job: MixedJob }[] = [
    ...[team0[0]!, team0[2]!, team0[3]!, team0[4]!].map((job) => ({ team: 0, job })),
    ...[jobsOfTeam(1)[3]!, team1[3]!].map((job) => ({ team: 1, job })),
    { team: 1, job: hook },
  ];
  try {
    const apis = teams.map((t) => recordingApi(stage, t.apiKey, answers));
    const deadline = Date.now() + 100_000;
    const runs = mix.map(({ team, job }) => job.run(apis[team]!, sites[team]!, deadline));
    for (const r of runs) r.catch(() => undefined);
    await waitFor('the mix under way', () => answers.length >= 10 && webhookSite.hits.size >= 2, 30_000, 50);
    const faultStart = Date.now();
    console.log('STEP inject', new Date().toISOString());
    await fault.inject();
    await new Promise((resolve) => setTimeout(resolve, FAULT_MS));
    console.log('STEP heal', new Date().toISOString());
    await fault.heal();
    const healed = Date.now();
    console.log('STEP healed', new Date().toISOString());
    await waitFor('the gateway ready again', async () => (await fetch(`${stage.gatewayUrl}/health/ready`)).status === 200, 60_000, 100);
    await waitFor('a read answered again', async () => (await apis[0]!('/v2/team/credit-usage')).status === 200, 60_000, 100);
    const recoverySeconds = (Date.now() - healed) / 1000;
    console.log('STEP recovered', new Date().toISOString());

    const settled = await Promise.allSettled(runs);
    const failures = settled.flatMap((s, i) => (s.status === 'rejected' ? [`${mix[i]!.job.name}: ${(s.reason as Error).message}`] : []));
    const teamIds = teams.map((t) => t.teamId);
    if (failures.length > 0)
      throw new Error(`${fault.name}: ${failures.length} job(s) did not end as they must:\n${failures.join('\n')}\n${await loadSnapshot(h.db, teamIds)}`);

    // No process of the service exited.
    for (const p of stage.processes)
      expect({ name: p.name, exitCode: p.child.exitCode, signal: p.child.signalCode }).toEqual({ name: p.name, exitCode: null, signal: null });
    // No 5xx but 503, and none later than its deadline plus the slack.
    expect(answers.filter((a) => a.status >= 500 && a.status !== 503).map((a) => `${a.method} ${a.path} ${a.status}`)).toEqual([]);
    const late = answers.filter((a) => a.startedAt < healed && a.startedAt + a.ms > faultStart && a.ms > a.deadlineMs + DEADLINE_SLACK_MS);
    expect(late.map((a) => `${a.method} ${a.path} ${a.status} after ${a.ms} ms (deadline ${a.deadlineMs})`)).toEqual([]);

    // Every job exact: its pages once, charged once, one webhook delivery per page.
    const outcomes = settled.map((s) => (s as PromiseFulfilledResult<JobOutcome>).value);
    for (const { jobId, urls } of outcomes.flatMap((o) => o.stored)) {
      const rows = await h.db.crawlPage.findMany({ where: { crawlId: jobId }, select: { url: true } });
      expect(rows.map((r) => r.url).sort(), jobId).toEqual([...urls].sort());
    }
    for (const [i, team] of teams.entries()) {
      const expected = outcomes.filter((_, k) => mix[k]!.team === i).reduce((sum, o) => sum + o.credits, 0);
      const { _sum } = await h.db.usageEntry.aggregate({ where: { teamId: team.teamId }, _sum: { credits: true } });
      expect(_sum.credits, `ledger of team ${i}`).toBe(expected);
    }
    await waitFor(
      'the completed webhook',
      () => stage.receiver.acknowledged().some((d) => d.payload.id === hook.crawlId && d.payload.type === 'crawl.completed'),
      60_000,
      100,
    );
    const pageEvents = stage.receiver.acknowledged().filter((d) => d.payload.id === hook.crawlId && d.payload.type === 'crawl.page');
    const deliveredUrls = pageEvents.flatMap((d) => (d.payload.data as { metadata: { sourceURL: string } }[]).map((p) => p.metadata.sourceURL));
    expect(new Set(deliveredUrls).size, 'pages delivered').toBe(WEBHOOK_CRAWL_PAGES);
    expect(deliveredUrls.length, 'page deliveries').toBe(WEBHOOK_CRAWL_PAGES);

    // Nothing is left running or held.
    const released = async () =>
      (await h.db.crawl.count({ where: { teamId: { in: teamIds }, status: 'scraping' } })) === 0 &&
      (await h.db.teamSlot.count({ where: { teamId: { in: teamIds }, holder: { not: null } } })) === 0 &&
      (await h.db.browserLease.count({ where: { teamId: { in: teamIds } } })) === 0 &&
      (await h.db.browserDemand.count({ where: { teamId: { in: teamIds } } })) === 0 &&
      (await h.db.crawlUrl.count({ where: { crawl: { teamId: { in: teamIds } }, claimedBy: { not: null }, state: { not: 'done' } } })) === 0 &&
      (await h.db.browserSession.count({ where: { teamId: { in: teamIds }, status: { in: ['starting', 'active'] } } })) === 0;
    await waitFor('every job to let go of what it held', released, 30_000).catch(async (err) => {
      throw new Error(`${(err as Error).message}\n${await loadSnapshot(h.db, teamIds)}`);
    });

    const allSites = [...sites.flatMap((s) => [s.static.site, s.scripted.site, s.slow.site, s.scrape]), webhookSite];
    const figures: CaseFigures = {
      fault: fault.name,
      recoverySeconds,
      answered503: answers.filter((a) => a.status === 503).length,
      requests: answers.length,
      pagesFetchedTwice: allSites.reduce((n, site) => n + [...site.hits.values()].filter((c) => c > 1).length, 0),
    };
    console.log(`[fault] ${stage.dependency}: ${JSON.stringify(figures)}`);
    return figures;
  } finally {
    await Promise.all(sites.map((s) => s.close()));
    await webhookSite.close();
  }
}
