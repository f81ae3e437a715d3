// The gateway's limits on hostile or greedy callers: anonymous bodies are never
// read, a key's rate limit is shared by replicas, a team's active crawls are
// capped, header values are not listed back, X-Forwarded-* counts only from
// trusted proxies, old activity is purged, and a webhook whose stored headers
// HTTP cannot carry is failed at once.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import net from 'node:net';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES } from '../../src/features/index.ts';
import { createRetentionActivities } from '../../src/features/retention/activities.ts';
import { createWebhookActivities } from '../../src/jobs/webhooks/activities.ts';
import type { Config } from '../../src/config.ts';
import { createApp } from '../../src/platform/http/app.ts';
import { createLogger } from '../../src/platform/log.ts';
import { hashApiKey } from '../../src/platform/teams/api-keys.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

let h: Harness;
const servers: Server[] = [];
const log = createLogger('error');

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  await h?.stop();
});

/** Another gateway on the same database and Temporal, with some settings changed: a replica. */
async function gateway(overrides: { gateway?: Partial<Config['gateway']>; crawl?: Partial<Config['crawl']> }): Promise<string> {
  const config: Config = { ...h.config, gateway: { ...h.config.gateway, ...overrides.gateway }, crawl: { ...h.config.crawl, ...overrides.crawl } };
  const server = createApp({ db: h.db, temporal: h.temporal, config, log }, FEATURES).listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

function call(base: string, path: string, key: string | null, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  if (key) headers.set('authorization', `Bearer ${key}`);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  return fetch(`${base}${path}`, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
}

/** Reads one HTTP response head from a raw socket, failing after `ms` (the bound the test names). */
function readHead(socket: net.Socket, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      socket.off('data', onData);
      reject(new Error(`no response head within ${ms} ms`));
    }, ms);
    function onData(chunk: Buffer) {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return;
      clearTimeout(timer);
      socket.off('data', onData);
      resolve(text.slice(0, end));
    }
    socket.on('data', onData);
  });
}

describe('a body is read only after authentication', () => {
  it('answers an anonymous request 401 before its body has arrived, and the connection stays usable', async () => {
    const port = Number(new URL(h.baseUrl).port);
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    try {
      const length = 1_000_000;
      const start = '{"url":"http://a.test","prompt":"';
      socket.write(`POST /v2/crawl HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${start}`);
      const head = await readHead(socket, 10_000);
      expect(head).toMatch(/^HTTP\/1\.1 401 /);
      // The rest of the body is discarded by Node, and the next request on the connection is served.
      socket.write('x'.repeat(length - start.length));
      const next = readHead(socket, 10_000);
      socket.write('GET /v2/nothing HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(await next).toMatch(/^HTTP\/1\.1 401 /);
    } finally {
      socket.destroy();
    }
  });

  it('answers 401, not 400 or 413, to anonymous malformed or oversized bodies', async () => {
    for (const key of [null, 'fc-not-a-real-key']) {
      const malformed = await call(h.baseUrl, '/v2/crawl', key, { method: 'POST', body: '{"url": ', headers: { 'content-type': 'application/json' } });
      expect(malformed.status).toBe(401);
      const huge = await call(h.baseUrl, '/v2/crawl', key, { method: 'POST', json: { url: 'http://a.test', prompt: 'x'.repeat(11 * 1024 * 1024) } });
      expect(huge.status).toBe(401);
    }
  });

  it('still parses the body of an authenticated request', async () => {
    const res = await h.api('/v2/crawl', { method: 'POST', body: '{"url": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('BAD_REQUEST_INVALID_JSON');
  });
});

describe('requests that cannot be read', () => {
  it('are answered 400, not 500: an undecodable path parameter, a body that does not decompress', async () => {
    const param = await h.api('/v2/crawl/%zz');
    expect(param.status).toBe(400);
    expect(await param.json()).toEqual({
      success: false,
      code: 'BAD_REQUEST',
      error: "Failed to decode param '%zz'",
      requestId: param.headers.get('x-request-id'),
    });
    const gzip = await h.api('/v2/crawl', {
      method: 'POST',
      body: '{"url":"http://a.test"}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(gzip.status).toBe(400);
    expect((await gzip.json()).code).toBe('BAD_REQUEST');
  });
});

describe('rate limit per API key', () => {
  it('answers 429 with Retry-After once the bucket is empty, across replicas, and refills with time', async () => {
    const settings = { rateLimit: { perMinute: 60, burst: 3 } };
    const [a, b] = [await gateway({ gateway: settings }), await gateway({ gateway: settings })];
    const { apiKey } = await h.newTeam();
    const other = await h.newTeam();
    const statuses = [];
    for (const base of [a, b, a]) statuses.push((await call(base, '/v2/crawl/active', apiKey)).status);
    expect(statuses).toEqual([200, 200, 200]);

    const limited = await call(b, '/v2/crawl', apiKey, { method: 'POST', body: '{"not json', headers: { 'content-type': 'application/json' } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toEqual({
      success: false,
      code: 'RATE_LIMITED',
      error: expect.stringMatching(
        /^Rate limit exceeded: an API key may make 60 requests a minute, 3 at once \(API_KEY_RATE_LIMIT_PER_MINUTE, API_KEY_RATE_LIMIT_BURST\)\. Retry after \d+ s\.$/,
      ),
      requestId: limited.headers.get('x-request-id'),
    });
    expect((await call(a, '/v2/crawl/active', apiKey)).status).toBe(429);
    expect((await call(a, '/v2/crawl/active', other.apiKey)).status).toBe(200);

    // Two seconds later, at one token a second, two more requests fit.
    const keyRow = await h.db.apiKey.findUniqueOrThrow({ where: { keyHash: hashApiKey(apiKey) } });
    await h.db.$executeRaw`UPDATE api_key_rate SET updated_at = updated_at - interval '2 seconds' WHERE api_key_id = ${keyRow.id}::uuid`;
    expect([(await call(a, '/v2/crawl/active', apiKey)).status, (await call(b, '/v2/crawl/active', apiKey)).status]).toEqual([200, 200]);
    expect((await call(a, '/v2/crawl/active', apiKey)).status).toBe(429);
  });
});

describe('active crawls per team', () => {
  it('starts at most TEAM_MAX_ACTIVE_CRAWLS at once, even when they are requested together, and makes room as one ends', async () => {
    const base = await gateway({ crawl: { maxActivePerTeam: 2 } });
    const { teamId, apiKey } = await h.newTeam();
    const start = () => call(base, '/v2/crawl', apiKey, { method: 'POST', json: { url: 'http://127.0.0.1:9/', limit: 1 } });
    const answers = await Promise.all(Array.from({ length: 5 }, start));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 429, 429, 429]);
    const refusal = answers.find((r) => r.status === 429)!;
    const refused = await refusal.json();
    expect(refused).toEqual({
      success: false,
      code: 'ACTIVE_CRAWL_LIMIT',
      error:
        'Too many active crawls: this team has 2 crawls running or waiting and may have at most 2 at once (TEAM_MAX_ACTIVE_CRAWLS). Start this one when another has finished, or cancel one.',
      requestId: refusal.headers.get('x-request-id'),
    });
    expect(await h.db.job.count({ where: { teamId } })).toBe(2);

    const [first] = await Promise.all(answers.filter((r) => r.status === 200).map((r) => r.json()));
    expect((await call(base, `/v2/crawl/${first.id}`, apiKey, { method: 'DELETE' })).status).toBe(200);
    expect((await start()).status).toBe(200);
  });
});

describe('GET /v2/crawl/active', () => {
  it('lists header names with their values redacted', async () => {
    const { apiKey } = await h.newTeam();
    const res = await h.api('/v2/crawl', {
      method: 'POST',
      key: apiKey,
      json: {
        url: 'http://127.0.0.1:9/',
        limit: 1,
        scrapeOptions: { headers: { Cookie: 'session=s3cret', 'X-Api-Key': 'k3y' } },
        webhook: { url: 'http://127.0.0.1:9/hook', headers: { Authorization: 'Bearer t0ken' } },
      },
    });
    expect(res.status).toBe(200);
    const text = await (await h.api('/v2/crawl/active', { key: apiKey })).text();
    for (const secret of ['s3cret', 'k3y', 't0ken']) expect(text).not.toContain(secret);
    const [crawl] = JSON.parse(text).crawls;
    expect(crawl.options.scrapeOptions.headers).toEqual({ Cookie: '[redacted]', 'X-Api-Key': '[redacted]' });
    expect(crawl.options.webhook).toBeUndefined();
  });
});

describe('links handed out', () => {
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.test' };
  const startUrl = async (base: string) => {
    const res = await call(base, '/v2/crawl', h.apiKey, { method: 'POST', headers: forwarded, json: { url: 'http://127.0.0.1:9/', limit: 1 } });
    expect(res.status).toBe(200);
    const { id, url } = await res.json();
    return { id, url };
  };

  it('ignore X-Forwarded-Proto and -Host', async () => {
    const { id, url } = await startUrl(h.baseUrl);
    expect(url).toBe(`${h.baseUrl}/v2/crawl/${id}`);
  });

  it('use PUBLIC_BASE_URL over anything the request says', async () => {
    const base = await gateway({ gateway: { publicBaseUrl: 'https://api.example.com/' } });
    const { id, url } = await startUrl(base);
    expect(url).toBe(`https://api.example.com/v2/crawl/${id}`);
  });
});

describe('activity log retention', () => {
  it('purges rows older than ACTIVITY_LOG_RETENTION_HOURS and keeps newer ones', async () => {
    const { teamId } = await h.newTeam();
    const row = (hoursAgo: number) => ({
      id: randomUUID(),
      teamId,
      endpoint: 'crawl',
      apiVersion: 'v2',
      method: 'GET',
      path: '/v2/crawl/active',
      createdAt: new Date(Date.now() - hoursAgo * 3_600_000),
    });
    const [old, recent] = [row(25), row(23)];
    await h.db.activityLog.createMany({ data: [old, recent] });
    const config = { ...h.config, activityLog: { retentionHours: 24 } };
    const result = await createRetentionActivities({ db: h.db, config, log }).purgeExpired();
    expect(result.activityLogRows).toBeGreaterThanOrEqual(1);
    expect((await h.db.activityLog.findMany({ where: { teamId } })).map((r) => r.id)).toEqual([recent.id]);
  });
});

describe('webhook delivery', () => {
  it('fails an event whose stored headers HTTP cannot carry at the first attempt, with the reason, sending nothing', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { teamId } = await h.newTeam();
      const crawlId = randomUUID();
      const eventId = randomUUID();
      await h.db.job.create({ data: { id: crawlId, teamId, url: 'http://127.0.0.1:9/', options: {}, status: 'completed', completedAt: new Date() } });
      // As a row written before headers were validated could hold it.
      await h.db.webhookEvent.create({
        data: { id: eventId, crawlId, type: 'crawl.completed', itemKey: '', url: receiver.url, headers: { 'X-Token': 'a\r\nX-Injected: 1' }, body: '{}' },
      });
      const { deliverCrawlWebhooks } = createWebhookActivities({ db: h.db, config: h.config, log });
      const result = await new MockActivityEnvironment().run(deliverCrawlWebhooks, { crawlId, roundMs: 10_000 });
      expect(result).toEqual({ drained: true, delivered: 0, failed: 1 });
      const event = await h.db.webhookEvent.findUniqueOrThrow({ where: { id: eventId } });
      expect(event).toMatchObject({ state: 'failed', attempts: 1 });
      expect(event.lastError).toMatch(/^The webhook request cannot be built: Header "X-Token" has a value with a character HTTP does not allow/);
      expect(receiver.deliveries).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
