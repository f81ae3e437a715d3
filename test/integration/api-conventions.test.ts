// The conventions every /v2 route shares (docs/api/conventions.md): every error answer has a
// code, keyed answers carry RateLimit-* headers and every 429 a Retry-After, x-idempotency-key
// makes a job-creating POST happen once, activity cursors cannot be forged, every job-creating
// request is listed, and links are built on the configured base, never on the request's Host.
import { once } from 'node:events';
import { request as httpRequest, type Server } from 'node:http';
import type net from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.ts';
import { createApp } from '../../src/platform/http/app.ts';
import { createLogger } from '../../src/platform/log.ts';
import { FEATURES } from '../../src/features/index.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';

let h: Harness;
const servers: Server[] = [];
const log = createLogger('warn', { process: 'test' });

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  for (const s of servers) s.close();
  await h?.stop();
});

/** Another gateway on the harness's database and Temporal, with its own settings. */
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

/** A request with headers fetch() will not send as given (Host). */
function rawCall(base: string, method: string, path: string, headers: Record<string, string>, json?: unknown): Promise<{ status: number; body: any }> {
  const url = new URL(path, base);
  const payload = json === undefined ? undefined : JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: { ...headers, ...(payload && { 'content-type': 'application/json' }) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('error codes', () => {
  it('every error answer of every route family has a code; job not found is NOT_FOUND everywhere', async () => {
    const id = randomUUID();
    const notFound: [string, string][] = [
      ['GET', `/v2/crawl/${id}`],
      ['GET', `/v2/crawl/${id}/errors`],
      ['GET', `/v2/crawl/${id}/webhooks`],
      ['DELETE', `/v2/crawl/${id}`],
      ['GET', `/v2/batch/scrape/${id}`],
      ['GET', `/v2/batch/scrape/${id}/errors`],
      ['DELETE', `/v2/batch/scrape/${id}`],
      ['GET', `/v2/scrape/${id}`],
      ['GET', `/v2/browser/${id}`],
      ['DELETE', `/v2/browser/${id}`],
      ['GET', `/v2/interact/${id}`],
      ['GET', '/v2/no-such-route'],
    ];
    for (const [method, path] of notFound) {
      const res = await h.api(path, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await res.json()).code, `${method} ${path}`).toBe('NOT_FOUND');
    }
    const others: [string, string, unknown, number][] = [
      ['GET', '/v2/crawl/not-a-uuid', undefined, 400],
      ['GET', `/v2/crawl/${id}?limit=x`, undefined, 400],
      ['POST', '/v2/crawl', {}, 400],
      ['POST', '/v2/batch/scrape', {}, 400],
      ['POST', '/v2/scrape', {}, 400],
      ['POST', '/v2/map', {}, 400],
      ['POST', '/v2/search', {}, 400],
      ['POST', '/v2/browser', { ttl: -1 }, 400],
      ['POST', `/v2/browser/${id}/execute`, { code: '1' }, 404],
      ['GET', '/v2/team/activity?cursor=x', undefined, 400],
      ['GET', '/v2/team/activity?endpoint=nope', undefined, 400],
      ['GET', '/v2/team/credit-usage/historical?byApiKey=maybe', undefined, 400],
    ];
    for (const [method, path, json, status] of others) {
      const res = await h.api(path, { method, json });
      expect(res.status, `${method} ${path}`).toBe(status);
      const body = await res.json();
      expect(typeof body.code === 'string' && body.code.length > 0, `${method} ${path}: ${JSON.stringify(body)}`).toBe(true);
    }
    const malformed = await h.api('/v2/crawl', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } });
    expect((await malformed.json()).code).toBe('BAD_REQUEST_INVALID_JSON');
    expect((await (await h.api('/v2/crawl/active', { key: null })).json()).code).toBe('UNAUTHORIZED');
  });
});

describe('rate-limit headers', () => {
  it('give the burst, the whole tokens left and the seconds until the bucket is full on every keyed answer, errors too', async () => {
    // One token a minute: the bucket refills by a negligible amount while the test runs.
    const base = await gateway({ gateway: { rateLimit: { perMinute: 1, burst: 3 } } });
    const { apiKey } = await h.newTeam();
    const headers = (res: Response) => ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map((n) => res.headers.get(n));

    const first = await call(base, '/v2/team/credit-usage', apiKey);
    expect(first.status).toBe(200);
    expect(headers(first)).toEqual(['3', '2', '60']);
    const second = await call(base, `/v2/crawl/${randomUUID()}`, apiKey);
    expect(second.status).toBe(404);
    const [limit, remaining, reset] = headers(second);
    expect([limit, remaining]).toEqual(['3', '1']);
    expect(Number(reset)).toBeGreaterThan(60);
    expect(Number(reset)).toBeLessThanOrEqual(120);
    expect(headers(await call(base, '/v2/team/credit-usage', apiKey)).slice(0, 2)).toEqual(['3', '0']);

    const limited = await call(base, '/v2/team/credit-usage', apiKey);
    expect(limited.status).toBe(429);
    expect((await limited.json()).code).toBe('RATE_LIMITED');
    expect(headers(limited).slice(0, 2)).toEqual(['3', '0']);
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('Retry-After'))).toBeLessThanOrEqual(60);

    // An anonymous answer has no bucket to describe.
    const anonymous = await call(base, '/v2/team/credit-usage', null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('RateLimit-Limit')).toBeNull();
  });

  it('Retry-After is on the team-cap 429 too', async () => {
    const base = await gateway({ crawl: { maxActivePerTeam: 1 } });
    const { apiKey } = await h.newTeam();
    const start = () => call(base, '/v2/crawl', apiKey, { method: 'POST', json: { url: 'http://127.0.0.1:9/', limit: 1 } });
    expect((await start()).status).toBe(200);
    const capped = await start();
    expect(capped.status).toBe(429);
    expect((await capped.json()).code).toBe('ACTIVE_CRAWL_LIMIT');
    expect(capped.headers.get('Retry-After')).toBe('30');
  });
});

describe('x-idempotency-key', () => {
  const crawl = (apiKey: string, key: string, url = 'http://127.0.0.1:9/') =>
    h.api('/v2/crawl', { method: 'POST', key: apiKey, json: { url, limit: 1 }, headers: { 'x-idempotency-key': key } });

  it('makes one crawl of a repeated key and answers every repeat with the first answer', async () => {
    const { teamId, apiKey } = await h.newTeam();
    const first = await crawl(apiKey, 'crawl-once');
    expect(first.status).toBe(200);
    const answer = await first.json();
    expect(answer).toEqual({ success: true, id: expect.any(String), url: `${h.baseUrl}/v2/crawl/${answer.id}` });
    const again = await crawl(apiKey, 'crawl-once');
    expect(again.status).toBe(200);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await again.json()).toEqual(answer);
    expect(await h.db.job.count({ where: { teamId } })).toBe(1);

    // Keys are per team: another team's same key is its own.
    const other = await h.newTeam();
    expect((await (await crawl(other.apiKey, 'crawl-once')).json()).id).not.toBe(answer.id);
  });

  it('makes exactly one job of concurrent requests with one key', async () => {
    const { teamId, apiKey } = await h.newTeam();
    const answers = await Promise.all(Array.from({ length: 8 }, () => crawl(apiKey, 'together').then((r) => r.json())));
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    expect(await h.db.job.count({ where: { teamId } })).toBe(1);
  });

  it('refuses the same key with another body, and a key past its bound', async () => {
    const { teamId, apiKey } = await h.newTeam();
    expect((await crawl(apiKey, 'reused')).status).toBe(200);
    const reused = await crawl(apiKey, 'reused', 'http://127.0.0.1:9/other');
    expect(reused.status).toBe(409);
    const body = await reused.json();
    expect(body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(body.error).toContain('different request');
    // Another endpoint with the same key is another request too.
    const map = await h.api('/v2/map', { method: 'POST', key: apiKey, json: { url: 'http://127.0.0.1:9/' }, headers: { 'x-idempotency-key': 'reused' } });
    expect(map.status).toBe(409);
    const long = await crawl(apiKey, 'k'.repeat(257));
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_INVALID', error: 'x-idempotency-key must be 1 to 256 characters, got 257' });
    expect((await crawl(apiKey, 'k'.repeat(256))).status).toBe(200);
    expect(await h.db.job.count({ where: { teamId } })).toBe(2);
  });

  it('takes keys in another order as the same body, and a body nested deeper than any stack as a 400', async () => {
    const { teamId, apiKey } = await h.newTeam();
    const first = await h.api('/v2/crawl', {
      method: 'POST',
      key: apiKey,
      body: '{"url":"http://127.0.0.1:9/","limit":1}',
      headers: { 'x-idempotency-key': 'order', 'content-type': 'application/json' },
    });
    const swapped = await h.api('/v2/crawl', {
      method: 'POST',
      key: apiKey,
      body: '{"limit":1,"url":"http://127.0.0.1:9/"}',
      headers: { 'x-idempotency-key': 'order', 'content-type': 'application/json' },
    });
    const answer = await first.json();
    expect(answer, JSON.stringify(answer)).toMatchObject({ success: true });
    expect((await swapped.json()).id).toBe(answer.id);
    // The fingerprint is taken before the schema refuses the body: it must not recurse.
    const deep = `{"url":"http://127.0.0.1:9/","a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const refused = await h.api('/v2/crawl', {
      method: 'POST',
      key: apiKey,
      body: deep,
      headers: { 'x-idempotency-key': 'deep', 'content-type': 'application/json' },
    });
    expect(refused.status).toBe(400);
    expect(await h.db.job.count({ where: { teamId } })).toBe(1);
  });

  it('frees a key whose first request failed, and forgets a key after IDEMPOTENCY_KEY_WINDOW_HOURS', async () => {
    const { teamId, apiKey } = await h.newTeam();
    const refused = await h.api('/v2/crawl', { method: 'POST', key: apiKey, json: { url: 'nope', limit: 1 }, headers: { 'x-idempotency-key': 'retry' } });
    expect(refused.status).toBe(400);
    // Freed as the refusal goes out, not before it (idempotency.ts): a busy machine may read it first.
    await waitFor('the refused request to free its key', async () => (await h.db.idempotencyKey.count({ where: { teamId } })) === 0);
    const { id } = await (await crawl(apiKey, 'retry')).json();
    await h.db.idempotencyKey.updateMany({ where: { teamId }, data: { createdAt: new Date(Date.now() - (h.config.idempotency.windowHours + 1) * 3_600_000) } });
    expect((await (await crawl(apiKey, 'retry')).json()).id).not.toBe(id);
  });

  it('serves batch scrape through the same mechanism', async () => {
    const { teamId, apiKey } = await h.newTeam();
    const send = (urls: string[]) => h.api('/v2/batch/scrape', { method: 'POST', key: apiKey, json: { urls }, headers: { 'x-idempotency-key': 'batch' } });
    const first = await (await send(['http://127.0.0.1:9/a'])).json();
    expect(await (await send(['http://127.0.0.1:9/a'])).json()).toEqual(first);
    expect((await send(['http://127.0.0.1:9/b'])).status).toBe(409);
    expect(await h.db.job.count({ where: { teamId } })).toBe(1);
  });
});

describe('activity cursor', () => {
  it('refuses every one-character change and every truncation of a real cursor, and pages with the real one', async () => {
    const { apiKey } = await h.newTeam();
    for (let i = 0; i < 3; i++) {
      expect((await h.api('/v2/crawl', { method: 'POST', key: apiKey, json: { url: `http://127.0.0.1:9/${i}`, limit: 1 } })).status).toBe(200);
    }
    const activity = (query: string) => h.api(`/v2/team/activity${query}`, { key: apiKey });
    const first = await (await activity('?limit=1')).json();
    expect(first.data.map((r: { target: string }) => r.target)).toEqual(['http://127.0.0.1:9/2']);
    const cursor: string = first.cursor;
    const second = await (await activity(`?limit=1&cursor=${cursor}`)).json();
    expect(second.data.map((r: { target: string }) => r.target)).toEqual(['http://127.0.0.1:9/1']);

    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    const tampered = new Set<string>();
    for (let i = 0; i < cursor.length; i++) {
      // Every other character at the ends of the two parts (where base64url has spare bits), a few elsewhere.
      const ends = i === cursor.length - 1 || cursor[i + 1] === '.' || cursor[i] === '.';
      const subs = ends
        ? [...alphabet]
        : [alphabet[(alphabet.indexOf(cursor[i]) + 1) % alphabet.length], alphabet[(alphabet.indexOf(cursor[i]) + 33) % alphabet.length]];
      for (const c of subs) if (c !== cursor[i]) tampered.add(cursor.slice(0, i) + c + cursor.slice(i + 1));
      tampered.add(cursor.slice(0, i));
      tampered.add(cursor.slice(0, i) + cursor.slice(i + 1));
    }
    tampered.delete('');
    for (const bad of tampered) {
      const res = await activity(`?limit=1&cursor=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect((await res.json()).error, bad).toBe('Invalid cursor.');
    }
  });
});

describe('activity log', () => {
  it('lists job-creating requests whose target or query holds U+0000', async () => {
    const { apiKey } = await h.newTeam();
    // Refused (no job row could hold the URL as sent), and still listed.
    const crawl = await h.api('/v2/crawl', { method: 'POST', key: apiKey, json: { url: 'http://127.0.0.1:9/a\u0000b', limit: 1 } });
    expect(crawl.status).toBe(400);
    expect((await crawl.json()).error).toBe('url: holds U+0000 or a lone UTF-16 surrogate, which this service cannot store; remove it');
    const scrape = await h.api('/v2/scrape', { method: 'POST', key: apiKey, json: { url: 'http://127.0.0.1:9/c\u0000d', timeout: 1000 } });
    expect(scrape.status).toBe(400);
    await h.api('/v2/search', { method: 'POST', key: apiKey, json: { query: 'nul\u0000query', limit: 1 } });
    const listed = await (await h.api('/v2/team/activity', { key: apiKey })).json();
    expect(listed.data.map((r: { endpoint: string; target: string }) => [r.endpoint, r.target])).toEqual([
      ['search', 'nulquery'],
      ['scrape', 'http://127.0.0.1:9/cd'],
      ['crawl', 'http://127.0.0.1:9/ab'],
    ]);
  });

  it('refuses U+0000 or a lone surrogate anywhere in a body with a 400 naming the field, never a 500 from the insert', async () => {
    const { apiKey } = await h.newTeam();
    const webhook = { url: 'http://127.0.0.1:9/h', metadata: { k: 'v\u0000' } };
    const cases: [string, unknown, string][] = [
      ['/v2/crawl', { url: 'http://127.0.0.1:9/', includePaths: ['a\u0000'], limit: 1 }, 'includePaths.0'],
      ['/v2/crawl', { url: 'http://127.0.0.1:9/', webhook }, 'webhook.metadata.k'],
      ['/v2/batch/scrape', { urls: ['http://127.0.0.1:9/'], webhook: { ...webhook, metadata: { ['\ud800']: 'x' } } }, 'webhook.metadata.\ud800'],
      ['/v2/map', { url: 'http://127.0.0.1:9/', search: 'a\u0000b' }, 'search'],
      ['/v2/scrape', { url: 'http://127.0.0.1:9/', actions: [{ type: 'write', text: 'a\udc00' }] }, 'actions.0.text'],
    ];
    for (const [path, json, field] of cases) {
      const res = await h.api(path, { method: 'POST', key: apiKey, json });
      expect(res.status, path).toBe(400);
      expect((await res.json()).error, path).toBe(`${field}: holds U+0000 or a lone UTF-16 surrogate, which this service cannot store; remove it`);
    }
    const listed = await (await h.api('/v2/team/activity', { key: apiKey })).json();
    expect(listed.data).toHaveLength(cases.length);
  });
});

describe('links', () => {
  const hostile = { host: 'attacker.example', 'x-forwarded-host': 'attacker.example', 'x-forwarded-proto': 'https' };
  // What a deployment that sets no PUBLIC_BASE_URL links to: the address `npm start` prints.
  const defaultBase = loadConfig().gateway.publicBaseUrl;
  let base: string;

  beforeAll(async () => {
    base = await gateway({ gateway: { publicBaseUrl: defaultBase } });
  });

  it('default to the address `npm start` prints', () => {
    expect(defaultBase).toBe('http://localhost:3002');
  });

  it('of crawl start, crawl status next and batch scrape are on the configured base, whatever Host says', async () => {
    const auth = { authorization: `Bearer ${h.apiKey}` };
    const started = await rawCall(base, 'POST', '/v2/crawl', { ...hostile, ...auth }, { url: 'http://127.0.0.1:9/', limit: 1 });
    expect(started.status).toBe(200);
    expect(started.body.url).toBe(`${defaultBase}/v2/crawl/${started.body.id}`);
    const status = await rawCall(base, 'GET', `/v2/crawl/${started.body.id}?limit=1`, { ...hostile, ...auth });
    expect(status.body.next).toBe(`${defaultBase}/v2/crawl/${started.body.id}?skip=0&limit=1`);
    const batch = await rawCall(base, 'POST', '/v2/batch/scrape', { ...hostile, ...auth }, { urls: ['http://127.0.0.1:9/'] });
    expect(batch.body.url).toBe(`${defaultBase}/v2/batch/scrape/${batch.body.id}`);
    const batchStatus = await rawCall(base, 'GET', `/v2/batch/scrape/${batch.body.id}?limit=1`, { ...hostile, ...auth });
    expect(batchStatus.body.next).toBe(`${defaultBase}/v2/batch/scrape/${batch.body.id}?skip=0&limit=1`);

    const configured = await gateway({ gateway: { publicBaseUrl: 'https://api.example.com/' } });
    const elsewhere = await rawCall(configured, 'POST', '/v2/crawl', { ...hostile, ...auth }, { url: 'http://127.0.0.1:9/', limit: 1 });
    expect(elsewhere.body.url).toBe(`https://api.example.com/v2/crawl/${elsewhere.body.id}`);
  });

  it('of a browser session (cdpUrl, live views) are on the configured base, and its concurrency 429 has Retry-After', async () => {
    await h.startWorker();
    await h.startBrowserHost();
    const { apiKey } = await h.newTeam({ concurrencyLimit: 1 });
    const auth = { authorization: `Bearer ${apiKey}` };
    const created = await rawCall(base, 'POST', '/v2/browser', { ...hostile, ...auth }, { ttl: 60, streamWebView: true });
    expect(created.status).toBe(200);
    const { id, cdpUrl, liveViewUrl, interactiveLiveViewUrl } = created.body;
    expect(cdpUrl.startsWith(`ws://localhost:3002/v2/browser/${id}/cdp?token=`)).toBe(true);
    expect(liveViewUrl.startsWith(`${defaultBase}/v2/browser/${id}/live?token=`)).toBe(true);
    expect(interactiveLiveViewUrl.startsWith(`${defaultBase}/v2/browser/${id}/live?token=`)).toBe(true);
    const listed = await rawCall(base, 'GET', '/v2/browser', { ...hostile, ...auth });
    expect(listed.body.sessions[0].cdpUrl).toBe(cdpUrl);

    const second = await call(base, '/v2/browser', apiKey, { method: 'POST', json: { ttl: 60 } });
    expect(second.status).toBe(429);
    expect((await second.json()).code).toBe('CONCURRENCY_LIMIT');
    expect(second.headers.get('Retry-After')).toBe('30');
    expect((await call(base, `/v2/browser/${id}`, apiKey, { method: 'DELETE' })).status).toBe(200);
  });
});
