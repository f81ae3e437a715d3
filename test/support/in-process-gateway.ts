// The gateway's own Express app (createApp with every feature) answering requests
// without sockets, a database or Temporal: requests are handed to it as
// IncomingMessage objects and answers read from the ServerResponse. Everything up to
// the first database or Temporal call is the real code: authentication against a
// stand-in key, the body reader (content types, charsets, encodings, limits), routing
// and path parameters, query strings, the request schemas, and the error envelope.
// Every other database or Temporal call fails with StoreReached: the request passed
// the checks that need neither, and what it is answered then is the store's affair.
import http from 'node:http';
import net from 'node:net';
import type { Client } from '@temporalio/client';
import type { BrowserSession, Job, Team } from '../../src/generated/prisma/client.ts';
import { FEATURES } from '../../src/features/index.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Db } from '../../src/platform/db/prisma.ts';
import { createApp } from '../../src/platform/http/app.ts';
import type { Logger } from '../../src/platform/log.ts';
import { hashApiKey } from '../../src/platform/teams/api-keys.ts';
import type { RouteFixtures, Shot } from './route-requests.ts';

/** A database or Temporal call: the request got past every check that needs neither. */
export class StoreReached extends Error {
  constructor() {
    super('reached the database or Temporal');
  }
}

/**
 * Any property, any call: a call's result is a promise rejected with StoreReached that also answers
 * further properties (`temporal.workflow.getHandle(id).executeUpdate(...)`). `calls` counts the calls.
 */
function unreachableStore(calls: { count: number }): any {
  return new Proxy(() => undefined, {
    get: (_target, prop) => (prop === 'then' ? undefined : unreachableStore(calls)),
    apply: () => {
      calls.count++;
      const failed = Promise.reject(new StoreReached());
      failed.catch(() => {});
      return new Proxy(failed, {
        get: (target, prop) => (prop in target ? (Reflect.get(target, prop, target) as (...args: unknown[]) => unknown).bind(target) : unreachableStore(calls)),
      });
    },
  });
}

export interface InProcessAnswer {
  status: number;
  body: string;
  /** The request called the database or Temporal (beyond the key and the activity log): it passed every check that needs neither. */
  reachedStore: boolean;
}

export interface InProcessGateway {
  fixtures: RouteFixtures;
  config: Config;
  send(s: Shot): Promise<InProcessAnswer>;
}

const API_KEY = 'fc-in-process-test-key';

export function inProcessGateway(): InProcessGateway {
  const now = Date.now();
  const uuid = () => crypto.randomUUID();
  const fixtures: RouteFixtures = {
    apiKey: API_KEY,
    crawlIds: [uuid(), uuid(), uuid()],
    batchIds: [uuid(), uuid()],
    scrapeIds: [uuid(), uuid()],
    sessionIds: [uuid(), uuid(), uuid()],
  };
  const team = {
    id: uuid(),
    name: 'in-process',
    concurrencyLimit: 10,
    creditBalance: 0,
    planCredits: null,
    flagIgnoreRobotsTxt: false,
    flagRobotsUserAgent: false,
    flagZeroDataRetention: false,
    flagSearchAnon: false,
    flagSearchZdr: false,
    webhookSigningSecret: null,
    createdAt: new Date(now),
  } satisfies Team;
  const jobs = new Map<string, { kind: string; status: string }>([
    [fixtures.crawlIds[0], { kind: 'crawl', status: 'completed' }],
    [fixtures.crawlIds[1], { kind: 'crawl', status: 'scraping' }],
    [fixtures.crawlIds[2], { kind: 'crawl', status: 'failed' }],
    [fixtures.batchIds[0], { kind: 'batch_scrape', status: 'completed' }],
    [fixtures.batchIds[1], { kind: 'batch_scrape', status: 'scraping' }],
    [fixtures.scrapeIds[0], { kind: 'scrape', status: 'completed' }],
    [fixtures.scrapeIds[1], { kind: 'scrape', status: 'scraping' }],
  ]);
  const sessions = new Map(fixtures.sessionIds.map((id, i) => [id, ['destroyed', 'error', 'active'][i]]));
  const calls = { count: 0 };
  const store = unreachableStore(calls);
  /** The store, but with `method` of a model answered by `impl`. */
  const answering = (method: string, impl: (args: any) => Promise<unknown>) =>
    new Proxy(store, { get: (_target, name) => (name === method ? impl : store[name]) });
  // Without the idempotency key, which no route fuzzed here reads of a found crawl.
  const crawlRow = (id: string, kind: string, status: string): Omit<Job, 'idempotencyKey'> => ({
    id,
    teamId: team.id,
    apiKeyId: null,
    url: 'http://example.com/',
    options: { url: 'http://example.com/' },
    status,
    error: status === 'failed' ? 'boom' : null,
    createdAt: new Date(now),
    completedAt: status === 'scraping' ? null : new Date(now),
    expiresAt: status === 'scraping' ? null : new Date(now + 86_400_000),
    robotsTxt: null,
    warning: null,
    workflowStartedAt: new Date(now),
    workflowId: null,
    taskQueue: null,
    kind,
    resumeKey: null,
    resumableUntil: null,
    pausedAt: null,
    pausedBy: null,
    answeredFromCacheAt: null,
  });
  const sessionRow = (id: string, status: string): BrowserSession => {
    const live = status === 'active';
    return {
      id,
      teamId: team.id,
      apiKeyId: null,
      status,
      ttlSeconds: 600,
      activityTtlSeconds: 300,
      streamWebView: true,
      profileName: null,
      profileSave: false,
      hostId: null,
      cdpToken: 'c',
      viewToken: 'v',
      interactiveToken: 'i',
      createdAt: new Date(now),
      expiresAt: new Date(now + 600_000),
      lastActivityAt: new Date(now),
      endedAt: live ? null : new Date(now),
      endReason: live ? null : 'deleted',
      durationMs: live ? null : 1000,
      creditsBilled: live ? null : 2,
      scrapeId: null,
    };
  };
  const models: Record<string, unknown> = {
    // Authentication's one statement (src/platform/http/auth.ts): the key joined with its team.
    $queryRaw: (sql: TemplateStringsArray, ...values: unknown[]) =>
      sql.join('').includes('FROM api_key k JOIN team t')
        ? Promise.resolve(values.includes(hashApiKey(API_KEY)) ? [{ apiKeyId: uuid(), revoked: false, ...team }] : [])
        : store.$queryRaw(sql, ...values),
    // Written after the answer is ready, for every job-creating request: not a sign of a valid one.
    activityLog: answering('create', async () => ({})),
    // The id routes find the fixtures' rows; what they then read is the store's.
    job: answering('findFirst', async ({ where }) => {
      const job = jobs.get(where.id);
      // A kind, or `{ in: kinds }` (the /v1 routes read crawls and batches alike).
      const kindMatches = job && (typeof where.kind === 'string' ? job.kind === where.kind : (where.kind?.in as string[] | undefined)?.includes(job.kind));
      return job && kindMatches && where.teamId === team.id ? crawlRow(where.id, job.kind, job.status) : null;
    }),
    browserSession: answering('findUnique', async ({ where }) => {
      const status = sessions.get(where.id);
      return status ? sessionRow(where.id, status) : null;
    }),
  };
  const db = new Proxy(store, { get: (_target, model: string) => models[model] ?? store[model] }) as Db;
  const base = loadConfig();
  const config: Config = {
    ...base,
    // The limit is a database statement with tests of its own.
    gateway: { ...base.gateway, rateLimit: { perMinute: 0, burst: 0 } },
    // As the harness's gateway: no DNS lookups for the generated hosts.
    crawl: { ...base.crawl, allowPrivateAddresses: true },
  };
  const quiet = () => undefined;
  const log: Logger = { debug: quiet, info: quiet, warn: quiet, error: quiet, child: () => log };
  const app = createApp({ db, temporal: store as Client, config, log }, FEATURES);

  return {
    fixtures,
    config,
    // One request at a time: the store's call count tells which request called it.
    send(s) {
      const callsBefore = calls.count;
      return new Promise((resolve, reject) => {
        const req = new http.IncomingMessage(new net.Socket());
        req.method = s.method;
        req.url = s.path;
        req.httpVersion = '1.1';
        req.httpVersionMajor = 1;
        req.httpVersionMinor = 1;
        const framing = s.body && (s.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(s.body.length) });
        const headers = Object.entries({ ...s.headers, ...framing });
        req.headers = Object.fromEntries(headers.map(([name, value]) => [name.toLowerCase(), value]));
        req.rawHeaders = headers.flat();
        if (s.body && s.chunked) {
          const half = Math.floor(s.body.length / 2);
          req.push(s.body.subarray(0, half));
          req.push(s.body.subarray(half));
        } else if (s.body) req.push(s.body);
        req.push(null);
        const res = new http.ServerResponse(req);
        const chunks: Buffer[] = [];
        res.write = ((chunk: unknown) => {
          if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as string));
          return true;
        }) as typeof res.write;
        res.end = ((chunk: unknown) => {
          if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as string));
          // What a socket would do once the answer is written: the request log and metrics listen for it.
          res.emit('finish');
          resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString(), reachedStore: calls.count > callsBefore });
          return res;
        }) as typeof res.end;
        (app as unknown as (rq: typeof req, rs: typeof res, done: (err?: unknown) => void) => void)(req, res, (err) =>
          reject(err instanceof Error ? err : new Error(`${s.method} ${s.path} fell through the app`)),
        );
      });
    },
  };
}
