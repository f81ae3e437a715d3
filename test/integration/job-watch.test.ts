// The crawl / batch WebSocket at /v2/crawl/{id} and /v2/batch/scrape/{id}:
// catchup, then documents as they are stored, then done; refusals in the envelope.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import { jobFeedConnectionName } from '../../src/jobs/job-feed.ts';

let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  site = await startFixtureSite(
    { ...treeSite(6), ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`/slow/${i}`, page(`Slow ${i}`, `<p>${i}</p>`)])) },
    { delayMs: (path) => (path.startsWith('/slow') ? 700 : 0) },
  );
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

interface Message {
  type: string;
  data?: any;
  error?: string;
}

/** The slow pages the site has been asked for so far: how far a batch of them has got. */
const slowPagesAsked = () => [...site.hits.keys()].filter((path) => path.startsWith('/slow')).length;

/** Opens the watcher and collects its messages until the server closes it, each with how far the batch had got. */
function watch(path: string, key = h.apiKey): Promise<{ messages: Message[]; progress: number[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${h.baseUrl.replace(/^http/, 'ws')}${path}`, key);
    const messages: Message[] = [];
    const progress: number[] = [];
    ws.on('message', (raw) => {
      messages.push(JSON.parse(String(raw)));
      progress.push(slowPagesAsked());
    });
    ws.on('close', () => resolve({ messages, progress }));
    ws.on('error', reject);
  });
}

function refusal(path: string, key: string | null): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const ws = key === null ? new WebSocket(`${h.baseUrl.replace(/^http/, 'ws')}${path}`) : new WebSocket(`${h.baseUrl.replace(/^http/, 'ws')}${path}`, key);
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body) }));
    });
    ws.on('open', () => reject(new Error('opened')));
    ws.on('error', () => undefined);
  });
}

describe('job WebSocket', () => {
  it('pushes every document of a running batch as it is stored, then done', async () => {
    const urls = Array.from({ length: 6 }, (_, i) => `${site.url}/slow/${i}`);
    const { id } = await (await h.api('/v2/batch/scrape', { method: 'POST', json: { urls, maxConcurrency: 1 } })).json();
    const { messages, progress } = await watch(`/v2/batch/scrape/${id}`);
    expect(messages[0].type).toBe('catchup');
    expect(messages[0].data).toMatchObject({ success: true, status: 'scraping' });
    expect(messages.at(-1)).toMatchObject({ type: 'done', data: { status: 'completed', completed: 6, total: 6, creditsUsed: 6 } });
    const docs = [...messages[0].data.data, ...messages.filter((m) => m.type === 'document').map((m) => m.data)];
    expect(docs.map((d) => d.metadata.sourceURL).sort()).toEqual([...urls].sort());
    // Pushed one by one while the batch ran (one page at a time), not all at the end: the documents
    // arrived at different points of the batch's progress.
    const progressAtDocuments = progress.filter((_, i) => messages[i].type === 'document');
    expect(progressAtDocuments.length).toBeGreaterThanOrEqual(3);
    expect(new Set(progressAtDocuments).size, `slow pages asked for at each document: ${progressAtDocuments}`).toBeGreaterThan(1);
  });

  it('serves any number of watchers from one LISTEN connection, closed with the last watcher', async () => {
    // LISTEN connections this process opened since the test began (the feed opens one lazily;
    // the gateways of other files, running beside it, share the database).
    const [{ since }] = await h.db.$queryRaw<{ since: Date }[]>`SELECT now() AS since`;
    const listening = async () =>
      Number(
        (
          await h.db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM pg_stat_activity
            WHERE query = 'LISTEN job_events' AND application_name = ${jobFeedConnectionName()} AND backend_start >= ${since}`
        )[0].n,
      );
    const urls = [0, 1, 2].map((i) => `${site.url}/slow/${i}`);
    const { id } = await (await h.api('/v2/batch/scrape', { method: 'POST', json: { urls, maxConcurrency: 1, maxAge: 0 } })).json();
    const watchers = [watch(`/v2/batch/scrape/${id}`), watch(`/v2/batch/scrape/${id}`), watch(`/v2/batch/scrape/${id}`)];
    let during = 0;
    for (let i = 0; i < 40 && during === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      during = await listening();
    }
    expect(during).toBe(1);
    const results = await Promise.all(watchers);
    for (const { messages } of results) {
      const docs = [...messages[0].data.data, ...messages.filter((m) => m.type === 'document').map((m) => m.data)];
      expect(docs.map((d) => d.metadata.sourceURL).sort()).toEqual(urls);
      expect(messages.at(-1)?.type).toBe('done');
    }
    // Closed once the last watcher left: the backend is gone from pg_stat_activity once it has
    // ended, which a loaded machine can take longer than a moment for.
    await waitFor('the LISTEN connection to close', async () => (await listening()) === 0, 10_000);
  });

  it('sends a finished crawl in its catchup and ends', async () => {
    const { id } = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 10, sitemap: 'skip' } })).json();
    await waitForCrawl(h, id);
    const { messages } = await watch(`/v2/crawl/${id}`);
    expect(messages[0]).toMatchObject({ type: 'catchup', data: { status: 'completed', completed: 6 } });
    expect(messages[0].data.data).toHaveLength(6);
    expect(messages.at(-1)).toMatchObject({ type: 'done' });
  });

  it('does not hold a stopping gateway open: its watchers are disconnected and fall back to polling', async () => {
    const gateway = await h.spawnGateway();
    // Six pages of 700 ms one at a time: the batch runs well past the 3 s the stop may take.
    const urls = [0, 1, 2, 3, 4, 5].map((i) => `${site.url}/slow/${i}`);
    const { id } = await (await h.api('/v2/batch/scrape', { method: 'POST', json: { urls, maxConcurrency: 1, maxAge: 0 } })).json();
    const ws = new WebSocket(`${gateway.baseUrl.replace(/^http/, 'ws')}/v2/batch/scrape/${id}`, h.apiKey);
    await new Promise((resolve, reject) => {
      ws.once('message', resolve);
      ws.once('error', reject);
    });
    const closed = new Promise((resolve) => ws.once('close', resolve));
    const exited = new Promise((resolve) => gateway.child.once('exit', resolve));
    const stopping = Date.now();
    gateway.child.kill('SIGTERM');
    await Promise.all([closed, exited]);
    expect(Date.now() - stopping).toBeLessThan(3_000);
    expect((await (await h.api(`/v2/batch/scrape/${id}`)).json()).status).toBe('scraping');
  });

  it('refuses missing and wrong keys, bad and foreign ids, and ids of another kind', async () => {
    const { id } = await (await h.api('/v2/batch/scrape', { method: 'POST', json: { urls: [`${site.url}/`] } })).json();
    expect(await refusal(`/v2/batch/scrape/${id}`, null)).toMatchObject({ status: 401, body: { success: false, code: 'UNAUTHORIZED' } });
    expect((await refusal(`/v2/batch/scrape/${id}`, 'fc-wrong')).status).toBe(401);
    expect((await refusal('/v2/batch/scrape/nope', h.apiKey)).status).toBe(400);
    expect((await refusal(`/v2/crawl/${id}`, h.apiKey)).status).toBe(404);
    const other = await h.newTeam();
    expect((await refusal(`/v2/batch/scrape/${id}`, other.apiKey)).status).toBe(404);
  });
});
