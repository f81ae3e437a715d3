// A POST /v2/scrape that outlives its timeout: its 408 says the work goes on, both official SDKs
// wait and send the identical request again, and that request is answered by the same scrape.
// The fixture pages are held until the test lets them answer, so every 408 is certain; each path
// is fetched by its own scrape, so the site's hit counts show how often a page was fetched.
import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES } from '../../src/features/index.ts';
import { createApp } from '../../src/platform/http/app.ts';
import { createLogger } from '../../src/platform/log.ts';
import { page, startFixtureSite, type FixtureResponse, type FixtureSite } from '../support/fixture-site.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';
import { runPythonSdk } from '../support/python-sdk.ts';

let h: Harness;
let site: FixtureSite;
let client: Firecrawl;
const recorded: RecordedResponse[] = [];

/** A page that answers once released; released by the test, or at the end. */
function heldPage(title: string, failWith?: 'hangUp') {
  let release!: () => void;
  const until = new Promise<void>((resolve) => (release = resolve));
  const answer = (): FixtureResponse =>
    failWith ? { hangUp: true, until } : { body: page(title, `<main><h1>${title}</h1><p>Finished late.</p></main>`), until };
  return { answer, release };
}

const pages = {
  jsAuto: heldPage('JS auto'),
  jsManual: heldPage('JS manual'),
  pyManual: heldPage('Py manual'),
  pyAuto: heldPage('Py auto'),
  shared: heldPage('Shared'),
  window: heldPage('Window'),
  fails: heldPage('Fails', 'hangUp'),
  zdr: heldPage('ZDR'),
};

beforeAll(async () => {
  h = await startHarness({ recordResponses: recorded });
  await h.startWorker();
  site = await startFixtureSite({
    '/js-auto': pages.jsAuto.answer,
    '/js-manual': pages.jsManual.answer,
    '/py-manual': pages.pyManual.answer,
    '/py-auto': pages.pyAuto.answer,
    '/shared': pages.shared.answer,
    '/window': pages.window.answer,
    '/fails': pages.fails.answer,
    '/zdr': pages.zdr.answer,
    '/fresh': page('Fresh', '<main><h1>Fresh</h1></main>'),
    '/lost-answer': page('Lost answer', '<main><h1>Lost answer</h1></main>'),
  });
  client = new Firecrawl({ apiKey: h.apiKey, apiUrl: h.baseUrl });
});

afterAll(async () => {
  for (const held of Object.values(pages)) held.release();
  await site?.close();
  await h?.stop();
});

/** The scrape of `path` once a 408 of it was answered (its row marked resumable before the 408 leaves). */
const timedOut = (path: string) =>
  waitFor(`the 408 of ${path}`, () => h.db.job.findFirst({ where: { url: `${site.url}${path}`, resumableUntil: { not: null } } }), 30_000, 50);

const ended = (id: string) =>
  waitFor(`scrape ${id} to end`, async () => (await h.db.job.findUniqueOrThrow({ where: { id } })).status !== 'scraping', 60_000, 100);

const charges = (jobId: string) => h.db.usageEntry.findMany({ where: { jobId }, select: { endpoint: true, credits: true } });

const post = (json: unknown, key?: string) => h.api('/v2/scrape', { method: 'POST', json, key });

describe('the JS SDK (@mendable/firecrawl-js)', () => {
  it('resumes a scrape that outlived its timeout and returns the finished document: one fetch, one charge', async () => {
    const before = await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } });
    const scraping = client.scrape(`${site.url}/js-auto`, { formats: ['markdown'], timeout: 2000, maxAge: 0 });
    const scrape = await timedOut('/js-auto');
    // The page finishes while the SDK sleeps its Retry-After: the resume finds the scrape ended.
    pages.jsAuto.release();
    const doc = await scraping;
    expect(doc.markdown).toContain('# JS auto');
    expect(doc.metadata).toMatchObject({ scrapeId: scrape.id, statusCode: 200, sourceURL: `${site.url}/js-auto` });
    expect(site.hits.get('/js-auto')).toBe(1);
    expect(await charges(scrape.id)).toEqual([{ endpoint: 'scrape', credits: 1 }]);
    const after = await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } });
    expect(before.creditBalance - after.creditBalance).toBe(1);
    // Both requests are in the activity log, with the one scrape.
    const logged = await waitFor(
      'both requests in the activity log',
      async () => {
        const rows = await h.db.activityLog.findMany({ where: { teamId: h.teamId, target: `${site.url}/js-auto` }, orderBy: { createdAt: 'asc' } });
        return rows.length === 2 && rows;
      },
      10_000,
      50,
    );
    expect(logged.map((r) => [r.statusCode, r.jobId])).toEqual([
      [408, scrape.id],
      [200, scrape.id],
    ]);
  });

  it('autoResume: false surfaces the 408 with its details; the same call once the page is done returns it', async () => {
    const error = await client.scrape(`${site.url}/js-manual`, { timeout: 2000, maxAge: 0, autoResume: false }).catch((err: unknown) => err);
    expect(error).toMatchObject({
      name: 'FirecrawlSdkError',
      status: 408,
      code: 'SCRAPE_TIMEOUT',
      details: { state: 'processing_continues', retryAfterSeconds: 5, id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
    const { id } = (error as { details: { id: string } }).details;
    pages.jsManual.release();
    await ended(id);
    const doc = await client.scrape(`${site.url}/js-manual`, { timeout: 2000, maxAge: 0, autoResume: false });
    expect(doc.metadata?.scrapeId).toBe(id);
    expect(doc.markdown).toContain('# JS manual');
    expect(site.hits.get('/js-manual')).toBe(1);
    expect(await charges(id)).toEqual([{ endpoint: 'scrape', credits: 1 }]);
  });
});

/** A TCP forwarder whose target can change: the SDK's API URL stays while its gateway is replaced. */
async function startForwarder(targetPort: number) {
  let target = targetPort;
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    connections++;
    const upstream = connect(target, '127.0.0.1');
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ]) {
      sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => (to.destroy(), sockets.delete(from)));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    connections: () => connections,
    retarget: (port: number) => (target = port),
    close: () => new Promise<void>((resolve) => (sockets.forEach((s) => s.destroy()), server.close(() => resolve()))),
  };
}

describe('the Python SDK (firecrawl)', () => {
  it('raises the 408 with auto_resume=False, and resumes by default through a gateway restarted after the 408', async () => {
    const first = await h.spawnGateway();
    const forwarder = await startForwarder(Number(new URL(first.baseUrl).port));
    try {
      const running = runPythonSdk('test/sdk/python_scrape_resume.py', { API_URL: forwarder.url, API_KEY: h.apiKey, SITE_URL: site.url });
      const manual = await timedOut('/py-manual');
      pages.pyManual.release();
      const auto = await timedOut('/py-auto');
      // The gateway that answered the 408 dies; the SDK's resume reaches another one, which knows
      // only what the database holds.
      first.child.kill('SIGKILL');
      await new Promise((resolve) => first.child.once('exit', resolve));
      const connectionsBefore = forwarder.connections();
      forwarder.retarget(Number(new URL(h.baseUrl).port));
      await waitFor('the SDK to resume', () => forwarder.connections() > connectionsBefore, 30_000, 50);
      // The resume waits on the running scrape; only now does its page answer.
      await new Promise((resolve) => setTimeout(resolve, 300));
      pages.pyAuto.release();
      const out = await running;
      expect(out.stderr).toBe('');
      expect(out.code).toBe(0);
      const result = JSON.parse(out.stdout);
      expect(result.manual).toMatchObject({
        raised: 'RequestTimeoutError',
        status: 408,
        retry_after: '5',
        body: { success: false, code: 'SCRAPE_TIMEOUT', details: { id: manual.id, state: 'processing_continues', retryAfterSeconds: 5 } },
      });
      expect(result.markdown).toContain('# Py auto');
      expect(result.scrape_id).toBe(auto.id);
      expect(site.hits.get('/py-auto')).toBe(1);
      expect(await charges(auto.id)).toEqual([{ endpoint: 'scrape', credits: 1 }]);
      expect(await h.db.job.count({ where: { url: `${site.url}/py-auto` } })).toBe(1);
    } finally {
      await forwarder.close();
    }
  });
});

describe('which request is the same scrape', () => {
  it('two identical requests at once share one scrape; a request with another body is another scrape', async () => {
    const body = { url: `${site.url}/shared`, formats: ['markdown'], maxAge: 0 };
    const answers = Promise.all([post(body), post({ ...body }), post({ ...body, formats: ['markdown', 'links'] })]);
    await waitFor('both scrapes to fetch', () => (site.hits.get('/shared') ?? 0) >= 2, 30_000, 50);
    await new Promise((resolve) => setTimeout(resolve, 300));
    pages.shared.release();
    const [a, b, other] = await Promise.all((await answers).map(async (res) => ({ status: res.status, body: await res.json() })));
    expect([a.status, b.status, other.status]).toEqual([200, 200, 200]);
    expect(b.body.data.metadata.scrapeId).toBe(a.body.data.metadata.scrapeId);
    expect(other.body.data.metadata.scrapeId).not.toBe(a.body.data.metadata.scrapeId);
    expect(other.body.data.links).toBeDefined();
    expect(site.hits.get('/shared')).toBe(2);
    expect(await charges(a.body.data.metadata.scrapeId)).toEqual([{ endpoint: 'scrape', credits: 1 }]);
    expect(await charges(other.body.data.metadata.scrapeId)).toEqual([{ endpoint: 'scrape', credits: 1 }]);
  });

  it('a settled scrape answers its resume within the window; past it, or after a normal answer, the request is a new scrape', async () => {
    const body = { url: `${site.url}/window`, maxAge: 0, timeout: 1000 };
    const first = await post(body);
    expect(first.status).toBe(408);
    expect(first.headers.get('retry-after')).toBe('5');
    const timeout = await first.json();
    expect(timeout).toMatchObject({
      success: false,
      code: 'SCRAPE_TIMEOUT',
      error: expect.stringContaining('The same request sent again within 600 s answers with it'),
      details: { state: 'processing_continues', retryAfterSeconds: 5 },
    });
    const { id } = timeout.details;
    pages.window.release();
    await ended(id);
    const resumed = await post(body);
    expect(resumed.status).toBe(200);
    expect((await resumed.json()).data.metadata.scrapeId).toBe(id);
    expect(site.hits.get('/window')).toBe(1);

    // The window has passed: the same request scrapes again, and that scrape takes the key over.
    await h.db.job.update({ where: { id }, data: { resumableUntil: new Date(Date.now() - 1000) } });
    const later = await post(body);
    // A 200, or a 408 on a machine slower than the 1 s timeout: either way a new scrape answers.
    const laterId = later.status === 200 ? (await later.json()).data.metadata.scrapeId : (await later.json()).details.id;
    expect(laterId).not.toBe(id);
    await ended(laterId);
    expect(site.hits.get('/window')).toBe(2);
    expect((await h.db.job.findUniqueOrThrow({ where: { id } })).resumeKey).toBeNull();
    expect((await h.db.job.findUniqueOrThrow({ where: { id: laterId } })).resumeKey).not.toBeNull();

    // A scrape answered in time owes nothing: the same request right after it is a new scrape (maxAge: 0 fetches).
    const fresh = { url: `${site.url}/fresh`, maxAge: 0 };
    const ids = [];
    for (const res of [await post(fresh), await post(fresh)]) {
      expect(res.status).toBe(200);
      ids.push((await res.json()).data.metadata.scrapeId);
    }
    expect(ids[1]).not.toBe(ids[0]);
    expect(site.hits.get('/fresh')).toBe(2);
  });

  it('a scrape whose answer was lost to the database (503) answers the request sent again: one fetch, one charge', async () => {
    // A gateway whose database drops once, while it reads the finished scrape (PostgreSQL killed at that moment).
    let armed = true;
    const lost = new Error('Connection terminated unexpectedly');
    const crawls = new Proxy(h.db.job, {
      get: (target, prop, receiver) =>
        prop === 'findUniqueOrThrow' && armed
          ? () => {
              armed = false;
              return Promise.reject(lost);
            }
          : (Reflect.get(target, prop, receiver) as unknown),
    });
    const db = new Proxy(h.db, { get: (target, prop, receiver) => (prop === 'job' ? crawls : Reflect.get(target, prop, receiver)) });
    const app = createApp({ db, temporal: h.temporal, config: h.config, log: createLogger('error', { process: 'test' }) }, FEATURES);
    const server = await new Promise<HttpServer>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v2/scrape`;
      const body = { url: `${site.url}/lost-answer`, maxAge: 0 };
      const send = (key?: string) =>
        fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${h.apiKey}`, 'content-type': 'application/json', ...(key && { 'x-idempotency-key': key }) },
          body: JSON.stringify(body),
        });
      const key = randomUUID();
      const first = await send(key);
      expect(first.status).toBe(503);
      expect(await first.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { dependency: 'PostgreSQL' } });
      // Sent again as the 503 asks: with its idempotency key, and without one (as the SDKs resend).
      const again = await send(key);
      expect(again.status).toBe(200);
      const id = (await again.json()).data.metadata.scrapeId;
      const plain = await send();
      expect(plain.status).toBe(200);
      expect((await plain.json()).data.metadata.scrapeId).toBe(id);
      expect(site.hits.get('/lost-answer')).toBe(1);
      expect(await charges(id)).toEqual([{ endpoint: 'scrape', credits: 1 }]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a scrape that failed after its 408 answers the resume as a failed scrape, charging nothing', async () => {
    const body = { url: `${site.url}/fails`, maxAge: 0, timeout: 1000 };
    const first = await post(body);
    expect(first.status).toBe(408);
    const { id } = (await first.json()).details;
    pages.fails.release();
    await ended(id);
    const resumed = await post(body);
    expect(resumed.status).toBe(500);
    expect(await resumed.json()).toMatchObject({ success: false, code: 'SCRAPE_FAILED' });
    expect(await charges(id)).toEqual([]);
    expect(await h.db.job.count({ where: { url: `${site.url}/fails` } })).toBe(1);
  });

  it('a zero data retention scrape is never shared: its 408 offers no resume', async () => {
    const zdr = await h.newTeam({ flags: { zeroDataRetention: true } });
    const body = { url: `${site.url}/zdr`, maxAge: 0, timeout: 1000, zeroDataRetention: true };
    const first = await post(body, zdr.apiKey);
    expect(first.status).toBe(408);
    expect(first.headers.get('retry-after')).toBeNull();
    const { details } = await first.json();
    expect(details).toEqual({ id: expect.any(String) });
    const second = await post(body, zdr.apiKey);
    expect(second.status).toBe(408);
    const secondId = (await second.json()).details.id;
    expect(secondId).not.toBe(details.id);
    pages.zdr.release();
    await ended(details.id);
    await ended(secondId);
    expect(site.hits.get('/zdr')).toBe(2);
  });
});

it('every answer the gateway gave is as the OpenAPI document says', async () => {
  expect(recorded.length).toBeGreaterThan(0);
  expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
});
