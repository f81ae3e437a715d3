// The job engine's and the webhooks' metrics (docs/operations.md, Metrics), read
// from the real worker's and gateway's GET /metrics before and after real jobs: a
// crawl with a page of each kind, a batch scrape, a single scrape served from the
// cache, a map and a crawl with a webhook move each named series by exactly what
// they did; a crawl held on a page that keeps loading raises the shared gauges,
// and once it is cancelled they come back. The processes get a database of their
// own, so the shared gauges (read from PostgreSQL for the whole deployment) count
// this file's jobs alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/platform/db/prisma.ts';
import { onFreePort } from '../support/on-free-port.ts';
import { createTeam, issueApiKey } from '../../src/platform/teams/teams.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';
import { sampleOf, scrapeMetrics, type Scrape } from '../support/prometheus-text.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';

const M = 'crawl_service_';
let database: ScratchDatabase | undefined;

let h: Harness;
let db: Db;
let apiKey: string;
let gatewayUrl: string;
let workerMetrics: string;
let gatewayMetrics: string;
let pool: string;
let initialGauges: Record<string, number>;
const sites: FixtureSite[] = [];
let receiver: WebhookReceiver;
let releaseSlowPage: () => void;

beforeAll(async () => {
  h = await startHarness();
  database = await createScratchDatabase('metrics_jobs');
  const databaseUrl = database.url;
  db = createDb(databaseUrl);
  const team = await createTeam(db, { name: 'metrics', credits: 100_000, concurrencyLimit: 4 });
  apiKey = (await issueApiKey(db, team.id)).key;
  pool = h.config.temporal.browserTaskQueue;
  const worker = await onFreePort((port, output) => h.spawnWorker({ env: { DATABASE_URL: databaseUrl, WORKER_OPS_PORT: String(port) }, output }));
  const gateway = await onFreePort((port, output) => h.spawnGateway({ env: { DATABASE_URL: databaseUrl, GATEWAY_OPS_PORT: String(port) }, output }));
  workerMetrics = `http://127.0.0.1:${worker.port}/metrics`;
  gatewayMetrics = `http://127.0.0.1:${gateway.port}/metrics`;
  gatewayUrl = gateway.started.baseUrl;
  receiver = await startWebhookReceiver();
  initialGauges = sharedGauges(await scrapeMetrics(workerMetrics));
});

afterAll(async () => {
  releaseSlowPage?.();
  for (const site of sites) await site.close();
  await receiver?.close();
  await h?.stop();
  await db?.$disconnect();
  await database?.drop();
});

function api(path: string, init: { method?: string; json?: unknown } = {}): Promise<Response> {
  return fetch(`${gatewayUrl}${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${apiKey}`, ...(init.json !== undefined && { 'content-type': 'application/json' }) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
}

async function started(path: string, json: unknown): Promise<string> {
  const res = await api(path, { json });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

async function ended(statusPath: string): Promise<string> {
  return waitFor(`${statusPath} to end`, async () => {
    const { status } = (await (await api(statusPath)).json()) as { status: string };
    return status !== 'scraping' && status;
  });
}

async function site(resources: Parameters<typeof startFixtureSite>[0]): Promise<FixtureSite> {
  const s = await startFixtureSite(resources);
  sites.push(s);
  return s;
}

/** The gauges read from PostgreSQL, each summed over its series (this database holds this file's jobs only). */
function sharedGauges(m: Scrape): Record<string, number> {
  return {
    jobs_running: m.value(`${M}jobs_running`),
    frontier_urls: m.value(`${M}frontier_urls`),
    team_slots_held: m.value(`${M}team_slots_held`),
    teams_at_slot_limit: m.value(`${M}teams_holding_slots`, { state: 'at_limit' }),
    teams_below_slot_limit: m.value(`${M}teams_holding_slots`, { state: 'below_limit' }),
    browser_leases_held: m.value(`${M}browser_leases_held`, { pool }),
    batches_waiting_for_browser: m.value(`${M}batches_waiting_for_browser`, { pool }),
    webhook_events_pending: m.value(`${M}webhook_events_pending`),
    webhook_oldest_pending_age_seconds: m.value(`${M}webhook_oldest_pending_age_seconds`),
  };
}

/** How far each named series moved between two scrapes. */
function moved(before: Scrape, after: Scrape, series: [string, Record<string, string>?][]): Record<string, number> {
  return Object.fromEntries(
    series.map(([name, labels = {}]) => [`${name}${JSON.stringify(labels)}`, after.value(`${M}${name}`, labels) - before.value(`${M}${name}`, labels)]),
  );
}

describe('job and webhook metrics', () => {
  it('count jobs by kind and end, pages by path and failure reason, and webhook deliveries, exactly', async () => {
    const [worker0, gateway0] = [await scrapeMetrics(workerMetrics), await scrapeMetrics(gatewayMetrics)];

    // Four pages over HTTP (a 404 is a stored page with its status), one in Chromium (a 403 goes
    // to the browser), and a PDF that cannot be read: a failed page, of class conversion.
    const links = ['/p/1', '/p/2', '/missing', '/guarded', '/broken.pdf'].map((p) => `<a href="${p}">${p}</a>`).join(' ');
    const a = await site({
      '/': page('Home', `<main><h1>Home</h1>${links}</main>`),
      '/p/1': page('One', '<main><h1>One</h1><p>The first page.</p></main>'),
      '/p/2': page('Two', '<main><h1>Two</h1><p>The second page.</p></main>'),
      '/guarded': { status: 403, body: page('Guarded', '<main><h1>Guarded</h1><p>Not for robots.</p></main>') },
      '/broken.pdf': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4\nthis is no PDF at all' },
    });
    const crawlA = await started('/v2/crawl', { url: `${a.url}/`, limit: 20 });
    expect(await ended(`/v2/crawl/${crawlA}`)).toBe('completed');
    const errors = (await (await api(`/v2/crawl/${crawlA}/errors`)).json()) as { errors: { url: string; error: string }[] };
    expect(errors.errors.map((e) => [e.url, e.error.startsWith('The PDF could not be read')])).toEqual([[`${a.url}/broken.pdf`, true]]);
    // A page whose HTTP fetch fails (a loaded machine drops a connection now and then) goes to
    // Chromium (docs/api/crawl.md, "Rendering: HTTP first"): the path each stored page took is read
    // from its last request, Chromium's carrying Sec-Fetch-Dest, before another job fetches it.
    const byBrowser = (s: FixtureSite, paths: string[]) => paths.filter((p) => s.headers.get(p)?.['sec-fetch-dest'] === 'document').length;
    let browserPages = byBrowser(a, ['/', '/p/1', '/p/2', '/missing', '/guarded']);
    expect(a.headers.get('/guarded')?.['sec-fetch-dest']).toBe('document');

    const b = await site({ '/b/1': page('B1', '<p>b one</p>'), '/b/2': page('B2', '<p>b two</p>'), '/b/3': page('B3', '<p>b three</p>') });
    const batch = await started('/v2/batch/scrape', { urls: ['/b/1', '/b/2', '/b/3'].map((p) => `${b.url}${p}`) });
    expect(await ended(`/v2/batch/scrape/${batch}`)).toBe('completed');
    browserPages += byBrowser(b, ['/b/1', '/b/2', '/b/3']);

    // The crawl stored a copy of /p/1 in the team's page cache: the scrape takes it from there.
    const scrape = await api('/v2/scrape', { json: { url: `${a.url}/p/1` } });
    expect(scrape.status).toBe(200);
    expect(a.hits.get('/p/1')).toBe(1);

    expect((await api('/v2/map', { json: { url: `${a.url}/` } })).status).toBe(200);

    // The receiver asks for the started event again once (503: retried) and turns down the page
    // event of /c for good (410: rejected); the other events are delivered.
    const pageOf = (d: { payload: { data: unknown[] } }) => (d.payload.data[0] as { metadata?: { sourceURL?: string } } | undefined)?.metadata?.sourceURL;
    receiver.respond((d) => {
      if (d.payload.type === 'crawl.started' && d.attempt === 1) return { status: 503 };
      return { status: pageOf(d)?.endsWith('/c') ? 410 : 200 };
    });
    const c = await site({ '/': page('C', '<a href="/c">c</a>'), '/c': page('C page', '<p>c</p>') });
    const crawlC = await started('/v2/crawl', { url: `${c.url}/`, limit: 10, webhook: { url: receiver.url } });
    expect(await ended(`/v2/crawl/${crawlC}`)).toBe('completed');
    browserPages += byBrowser(c, ['/', '/c']);
    // The final event is sent once every other event is settled.
    const acknowledged = await waitFor(
      'the final event delivered',
      () => receiver.acknowledged().some((d) => d.payload.type === 'crawl.completed') && receiver.acknowledged(),
    );
    expect(acknowledged.map((d) => d.payload.type).sort()).toEqual(['crawl.completed', 'crawl.page', 'crawl.started']);
    expect(receiver.deliveries.map((d) => d.status).sort()).toEqual([200, 200, 200, 410, 503]);

    // Counted once the rows are written, which the answers above may precede by a moment. The
    // scrape answered from the page cache was ended and stored by the gateway, which counts it.
    const worker1 = await waitFor('the worker to count every end and delivery', async () => {
      const m = await scrapeMetrics(workerMetrics);
      const ends = m.value(`${M}jobs_ended_total`) - worker0.value(`${M}jobs_ended_total`);
      const delivered =
        m.value(`${M}webhook_deliveries_total`, { outcome: 'delivered' }) - worker0.value(`${M}webhook_deliveries_total`, { outcome: 'delivered' });
      return ends >= 4 && delivered >= acknowledged.length && m;
    });
    const gateway1 = await scrapeMetrics(gatewayMetrics);

    expect(
      moved(gateway0, gateway1, [
        ['jobs_started_total', { kind: 'crawl' }],
        ['jobs_started_total', { kind: 'batch_scrape' }],
        ['jobs_started_total', { kind: 'scrape' }],
        ['jobs_started_total', { kind: 'map' }],
        ['http_requests_total', { route: '/v2/crawl', method: 'POST', status: '200' }],
        ['http_requests_total', { route: '/v2/batch/scrape', method: 'POST', status: '200' }],
        ['jobs_ended_total', { kind: 'scrape', status: 'completed' }],
        ['pages_stored_total', { path: 'cache', kind: 'scrape' }],
      ]),
    ).toEqual({
      'jobs_started_total{"kind":"crawl"}': 2,
      'jobs_started_total{"kind":"batch_scrape"}': 1,
      'jobs_started_total{"kind":"scrape"}': 1,
      'jobs_started_total{"kind":"map"}': 1,
      'http_requests_total{"route":"/v2/crawl","method":"POST","status":"200"}': 2,
      'http_requests_total{"route":"/v2/batch/scrape","method":"POST","status":"200"}': 1,
      'jobs_ended_total{"kind":"scrape","status":"completed"}': 1,
      'pages_stored_total{"path":"cache","kind":"scrape"}': 1,
    });
    expect(
      moved(worker0, worker1, [
        ['jobs_ended_total', { kind: 'crawl', status: 'completed' }],
        ['jobs_ended_total', { kind: 'batch_scrape', status: 'completed' }],
        ['jobs_ended_total', { kind: 'scrape', status: 'completed' }],
        ['jobs_ended_total', { kind: 'map', status: 'completed' }],
        ['jobs_ended_total'],
        ['pages_stored_total', { path: 'http' }],
        ['pages_stored_total', { path: 'browser' }],
        ['pages_stored_total', { path: 'cache' }],
        ['pages_stored_total', { path: 'file' }],
        ['pages_stored_total', { kind: 'crawl' }],
        ['pages_stored_total', { kind: 'batch_scrape' }],
        ['pages_stored_total', { kind: 'scrape' }],
        ['page_load_duration_seconds_count', { path: 'http' }],
        ['page_load_duration_seconds_count', { path: 'browser' }],
        ['pages_failed_total', { reason: 'conversion' }],
        ['pages_failed_total', { kind: 'crawl', reason: 'conversion' }],
        ['pages_failed_total'],
        ['webhook_deliveries_total', { outcome: 'delivered' }],
        ['webhook_deliveries_total', { outcome: 'retried' }],
        ['webhook_deliveries_total', { outcome: 'rejected' }],
        ['webhook_deliveries_total'],
      ]),
    ).toEqual({
      'jobs_ended_total{"kind":"crawl","status":"completed"}': 2,
      'jobs_ended_total{"kind":"batch_scrape","status":"completed"}': 1,
      'jobs_ended_total{"kind":"scrape","status":"completed"}': 0,
      'jobs_ended_total{"kind":"map","status":"completed"}': 1,
      'jobs_ended_total{}': 4,
      // Crawl A: 5 (/guarded in Chromium), the batch: 3, crawl C: 2; over HTTP unless their fetch failed.
      'pages_stored_total{"path":"http"}': 10 - browserPages,
      'pages_stored_total{"path":"browser"}': browserPages,
      'pages_stored_total{"path":"cache"}': 0,
      'pages_stored_total{"path":"file"}': 0,
      'pages_stored_total{"kind":"crawl"}': 7,
      'pages_stored_total{"kind":"batch_scrape"}': 3,
      'pages_stored_total{"kind":"scrape"}': 0,
      // Each page stored above was loaded once; the cached copy was not loaded.
      'page_load_duration_seconds_count{"path":"http"}': 10 - browserPages,
      'page_load_duration_seconds_count{"path":"browser"}': browserPages,
      'pages_failed_total{"reason":"conversion"}': 1,
      'pages_failed_total{"kind":"crawl","reason":"conversion"}': 1,
      'pages_failed_total{}': 1,
      // Every request the receiver got is one recorded attempt.
      'webhook_deliveries_total{"outcome":"delivered"}': 3,
      'webhook_deliveries_total{"outcome":"retried"}': 1,
      'webhook_deliveries_total{"outcome":"rejected"}': 1,
      'webhook_deliveries_total{}': receiver.deliveries.length,
    });
    // Every job but the cached scrape (answered by the gateway) ran at least one batch, and each
    // batch waited for its browser from its demand.
    expect(worker1.value(`${M}browser_wait_seconds_count`, { pool }) - worker0.value(`${M}browser_wait_seconds_count`, { pool })).toBeGreaterThanOrEqual(3);

    // What the dashboard and the alerts read besides the counters above (deploy/, docs/operations.md "Dashboards and alerts"):
    // the worker's readiness checks, and the Temporal SDK core's series, by the names and labels the queries use.
    expect(Object.fromEntries(['postgres', 'temporal', 'workers'].map((check) => [check, sampleOf(worker1, `${M}readiness_check_ok`, { check })]))).toEqual({
      postgres: 1,
      temporal: 1,
      workers: 1,
    });
    const queues = (name: string, label: string) => [...new Set(worker1.samples.filter((s) => s.name === name && s.value > 0).map((s) => s.labels[label]))];
    const { taskQueue, browserTaskQueue } = h.config.temporal;
    expect(queues('temporal_workflow_task_schedule_to_start_latency_seconds_count', 'task_queue')).toContain(taskQueue);
    expect(queues('temporal_activity_schedule_to_start_latency_seconds_count', 'task_queue')).toContain(browserTaskQueue);
    expect(queues('temporal_worker_task_slots_available', 'task_queue')).toEqual(expect.arrayContaining([taskQueue, browserTaskQueue]));
    expect(queues('temporal_worker_task_slots_available', 'worker_type')).toEqual(expect.arrayContaining(['WorkflowWorker', 'ActivityWorker']));
    expect(worker1.samples.some((s) => s.name === 'temporal_worker_task_slots_used')).toBe(true);
  });

  it('raise the frontier, slot, lease and running-job gauges while a crawl loads, and return them when it is cancelled', async () => {
    const slowPage = new Promise<void>((resolve) => (releaseSlowPage = resolve));
    const d = await site({
      '/': page('D', '<a href="/slow">slow</a>'),
      '/slow': { until: slowPage, body: page('Slow', '<p>at last</p>') },
    });
    const [worker0, gateway0] = [await scrapeMetrics(workerMetrics), await scrapeMetrics(gatewayMetrics)];
    const id = await started('/v2/crawl', { url: `${d.url}/`, limit: 5, scrapeOptions: { timeout: 300_000 } });
    await waitFor('the crawl to load the slow page', () => (d.hits.get('/slow') ?? 0) > 0);
    // The slow page holds a team slot in a batch with a browser lease, its frontier row claimed, until the crawl stops.
    const running = await waitFor('the gauges of the running crawl', async () => {
      const gauges = sharedGauges(await scrapeMetrics(workerMetrics));
      return gauges.frontier_urls > 0 && gauges.team_slots_held > 0 && gauges.browser_leases_held > 0 && gauges.jobs_running > 0 && gauges;
    });
    // One job, one URL in its frontier (claimed); another batch of the crawl, waiting for work, may hold a lease too.
    // The team's limit is 4: one team holds slots, below it.
    expect(running).toMatchObject({ jobs_running: 1, frontier_urls: 1, team_slots_held: 1, teams_at_slot_limit: 0, teams_below_slot_limit: 1 });

    expect((await api(`/v2/crawl/${id}`, { method: 'DELETE' })).status).toBe(200);
    const worker1 = await waitFor('the cancelled crawl to be counted', async () => {
      const m = await scrapeMetrics(workerMetrics);
      return m.value(`${M}jobs_ended_total`) > worker0.value(`${M}jobs_ended_total`) && m;
    });
    expect(moved(worker0, worker1, [['jobs_ended_total', { kind: 'crawl', status: 'cancelled' }], ['jobs_ended_total'], ['pages_stored_total']])).toEqual({
      'jobs_ended_total{"kind":"crawl","status":"cancelled"}': 1,
      'jobs_ended_total{}': 1,
      // Only /: the slow page was still loading when the crawl stopped.
      'pages_stored_total{}': 1,
    });
    expect(moved(gateway0, await scrapeMetrics(gatewayMetrics), [['jobs_started_total', { kind: 'crawl' }]])).toEqual({
      'jobs_started_total{"kind":"crawl"}': 1,
    });

    const after = await waitFor('the shared gauges to return to where they were before any job', async () => {
      const gauges = sharedGauges(await scrapeMetrics(workerMetrics));
      return JSON.stringify(gauges) === JSON.stringify(initialGauges) && gauges;
    });
    expect(after).toEqual(initialGauges);
  });
});
