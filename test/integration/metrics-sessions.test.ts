// The metrics of browser sessions, executes, searches and Chromium, read from the
// real processes' /metrics before and after each action: the gateway counts
// starts and searches, the browser host executes and its Chromiums, the worker
// ends and the sessions by state. The three processes use a database of their
// own, so other test files' sessions never move the deployment-wide gauge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/platform/db/prisma.ts';
import { onFreePort } from '../support/on-free-port.ts';
import { createTeam, issueApiKey } from '../../src/platform/teams/teams.ts';
import { startFakeSearxng, type FakeSearxng } from '../support/fake-searxng.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';
import { sampleOf, scrapeMetrics, type Scrape } from '../support/prometheus-text.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';

let h: Harness;
let db: Db;
let searxng: FakeSearxng;
let apiKey: string;
let gatewayUrl: string;
let database: ScratchDatabase | undefined;
const ops = { worker: '', host: '', gateway: '' };

beforeAll(async () => {
  h = await startHarness();
  database = await createScratchDatabase('metrics_sessions');
  const DATABASE_URL = database.url;
  db = createDb(DATABASE_URL);
  const team = await createTeam(db, { name: 'metrics', credits: 100_000, concurrencyLimit: 4 });
  apiKey = (await issueApiKey(db, team.id)).key;
  searxng = await startFakeSearxng();

  const worker = await onFreePort((port, output) => h.spawnWorker({ env: { DATABASE_URL, WORKER_OPS_PORT: String(port) }, output }));
  // No Python packages on this host: a python execute is refused, the one outcome a run cannot give.
  const host = await onFreePort((port, output) =>
    h.spawnBrowserHost({ env: { DATABASE_URL, BROWSER_HOST_OPS_PORT: String(port), PYTHON_PACKAGES_PATH: '' }, output }),
  );
  const { port: gatewayPort, started: gateway } = await onFreePort((port, output) =>
    h.spawnGateway({ env: { DATABASE_URL, GATEWAY_OPS_PORT: String(port), SEARCH_LOCAL: 'false', SEARXNG_URL: searxng.url }, output }),
  );
  ops.worker = `http://127.0.0.1:${worker.port}/metrics`;
  ops.host = `http://127.0.0.1:${host.port}/metrics`;
  ops.gateway = `http://127.0.0.1:${gatewayPort}/metrics`;
  gatewayUrl = gateway.baseUrl;
}, 180_000);

afterAll(async () => {
  await h?.stop();
  await db?.$disconnect();
  await searxng?.close();
  await database?.drop();
});

function api(path: string, init: { method: string; json?: unknown }) {
  return fetch(`${gatewayUrl}${path}`, {
    method: init.method,
    headers: { authorization: `Bearer ${apiKey}`, ...(init.json !== undefined && { 'content-type': 'application/json' }) },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
  });
}

/** How far a series moved; a series not there yet counts as 0 (counters appear on their first increment). */
const moved = (before: Scrape, after: Scrape, name: string, labels: Record<string, string> = {}) =>
  (sampleOf(after, name, labels) ?? 0) - (sampleOf(before, name, labels) ?? 0);

const ROLES = ['browser', 'renderer', 'gpu', 'utility', 'zygote', 'other'];
const chromium = (samples: Scrape, metric: 'processes' | 'resident_memory_bytes') =>
  Object.fromEntries(ROLES.map((role) => [role, sampleOf(samples, `crawl_service_chromium_${metric}`, { role })]));
const sessionsIn = (samples: Scrape, state: string) => sampleOf(samples, 'crawl_service_browser_sessions', { state });

describe('a browser session', () => {
  it('is counted when it starts, by its executes and Chromium processes while it lives, and when it ends', async () => {
    const before = { gateway: await scrapeMetrics(ops.gateway), host: await scrapeMetrics(ops.host), worker: await scrapeMetrics(ops.worker) };
    // Nothing ran in the new database yet: every state at 0, and no Chromium on the host between sessions.
    expect(['starting', 'active', 'destroyed', 'error'].map((state) => sessionsIn(before.worker, state))).toEqual([0, 0, 0, 0]);
    expect(chromium(before.host, 'processes')).toEqual({ browser: 0, renderer: 0, gpu: 0, utility: 0, zygote: 0, other: 0 });
    // The worker reports the Chromiums of its scrape batches the same way (none run now).
    expect(chromium(before.worker, 'processes')).toEqual({ browser: 0, renderer: 0, gpu: 0, utility: 0, zygote: 0, other: 0 });

    const created = await api('/v2/browser', { method: 'POST', json: { ttl: 300, activityTtl: 120 } });
    const session = await created.json();
    expect(created.status, JSON.stringify(session)).toBe(200);

    const execute = async (body: Record<string, unknown>) => {
      const answer = await api(`/v2/browser/${session.id}/execute`, { method: 'POST', json: body });
      return { status: answer.status, body: await answer.json() };
    };
    expect(await execute({ code: '6 * 7' })).toMatchObject({ status: 200, body: { result: '42', exitCode: 0, killed: false, error: null } });
    const failed = await execute({ code: "throw new Error('metrics test')" });
    expect(failed).toMatchObject({ status: 200, body: { killed: false, error: expect.stringContaining('metrics test') } });
    expect(failed.body.exitCode).not.toBe(0);
    expect(await execute({ code: 'await new Promise((resolve) => setTimeout(resolve, 60_000))', timeout: 1 })).toMatchObject({
      status: 200,
      body: { killed: true },
    });
    const refused = await execute({ code: 'print(1)', language: 'python' });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.body.error).toContain('PYTHON_PACKAGES_PATH');

    // While it lives: its Chromium on the host (one browser process and its children), and the worker sees it active.
    const live = await waitFor('the host to count the session’s Chromium', async () => {
      const samples = await scrapeMetrics(ops.host);
      const processes = chromium(samples, 'processes');
      const memory = chromium(samples, 'resident_memory_bytes');
      return processes.browser === 1 && memory.browser! > 0 && { processes, memory };
    });
    expect(live.processes.renderer).toBeGreaterThan(0);
    expect(live.memory.renderer).toBeGreaterThan(0);
    await waitFor('the worker to count the session active', async () => sessionsIn(await scrapeMetrics(ops.worker), 'active') === 1);

    const mid = await scrapeMetrics(ops.host);
    expect({
      nodeOk: moved(before.host, mid, 'crawl_service_browser_executes_total', { language: 'node', outcome: 'ok' }),
      nodeError: moved(before.host, mid, 'crawl_service_browser_executes_total', { language: 'node', outcome: 'error' }),
      nodeTimeout: moved(before.host, mid, 'crawl_service_browser_executes_total', { language: 'node', outcome: 'timeout' }),
      nodeRefused: moved(before.host, mid, 'crawl_service_browser_executes_total', { language: 'node', outcome: 'refused' }),
      pythonRefused: moved(before.host, mid, 'crawl_service_browser_executes_total', { language: 'python', outcome: 'refused' }),
      pythonOk: moved(before.host, mid, 'crawl_service_browser_executes_total', { language: 'python', outcome: 'ok' }),
      nodeTimed: moved(before.host, mid, 'crawl_service_browser_execute_duration_seconds_count', { language: 'node' }),
      pythonTimed: moved(before.host, mid, 'crawl_service_browser_execute_duration_seconds_count', { language: 'python' }),
    }).toEqual({ nodeOk: 1, nodeError: 1, nodeTimeout: 1, nodeRefused: 0, pythonRefused: 1, pythonOk: 0, nodeTimed: 3, pythonTimed: 0 });
    // The timed-out run lasted at least its second.
    expect(moved(before.host, mid, 'crawl_service_browser_execute_duration_seconds_sum', { language: 'node' })).toBeGreaterThanOrEqual(1);

    const deleted = await api(`/v2/browser/${session.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);

    // The host's Chromium processes are gone with the session, and the worker counts it destroyed.
    await waitFor('the host to count no Chromium', async () => {
      const samples = await scrapeMetrics(ops.host);
      return ROLES.every((role) => chromium(samples, 'processes')[role] === 0 && chromium(samples, 'resident_memory_bytes')[role] === 0);
    });
    const after = await waitFor('the worker to count the session destroyed', async () => {
      const samples = await scrapeMetrics(ops.worker);
      return sessionsIn(samples, 'destroyed') === 1 && samples;
    });
    expect(['starting', 'active', 'error'].map((state) => sessionsIn(after, state))).toEqual([0, 0, 0]);

    // DELETE answered once the worker had recorded the end: its counters have moved already.
    const gatewayAfter = await scrapeMetrics(ops.gateway);
    expect({
      started: moved(before.gateway, gatewayAfter, 'crawl_service_browser_session_starts_total', { outcome: 'started' }),
      refused: moved(before.gateway, gatewayAfter, 'crawl_service_browser_session_starts_total', { outcome: 'refused' }),
      deleted: moved(before.worker, after, 'crawl_service_browser_session_ends_total', { reason: 'deleted' }),
      idle: moved(before.worker, after, 'crawl_service_browser_session_ends_total', { reason: 'idle' }),
      durations: moved(before.worker, after, 'crawl_service_browser_session_duration_seconds_count'),
    }).toEqual({ started: 1, refused: 0, deleted: 1, idle: 0, durations: 1 });
  });
});

describe('searches', () => {
  it('are counted by kind and outcome on the gateway, with their latency and each provider answer', async () => {
    const before = await scrapeMetrics(ops.gateway);
    const ok = await api('/v2/search', { method: 'POST', json: { query: 'rust async', sources: ['web'] } });
    expect(ok.status).toBe(200);
    expect((await ok.json()).data.web.length).toBeGreaterThan(0);
    // The stand-in refuses JSON for this query, and it is the only provider: no provider answered.
    const failed = await api('/v2/search', { method: 'POST', json: { query: 'json-disabled', sources: ['news', 'web'] } });
    expect(failed.status).toBe(503);
    const after = await scrapeMetrics(ops.gateway);

    expect({
      webOk: moved(before, after, 'crawl_service_searches_total', { kind: 'web', outcome: 'ok' }),
      webNewsFailed: moved(before, after, 'crawl_service_searches_total', { kind: 'web+news', outcome: 'provider_error' }),
      webTimed: moved(before, after, 'crawl_service_search_duration_seconds_count', { kind: 'web' }),
      webNewsTimed: moved(before, after, 'crawl_service_search_duration_seconds_count', { kind: 'web+news' }),
      searxngOk: moved(before, after, 'crawl_service_search_provider_requests_total', { provider: 'searxng', outcome: 'ok' }),
      searxngError: moved(before, after, 'crawl_service_search_provider_requests_total', { provider: 'searxng', outcome: 'error' }),
      searxngTimed: moved(before, after, 'crawl_service_search_provider_duration_seconds_count', { provider: 'searxng' }),
      local: moved(before, after, 'crawl_service_search_provider_duration_seconds_count', { provider: 'local' }),
    }).toEqual({ webOk: 1, webNewsFailed: 1, webTimed: 1, webNewsTimed: 0, searxngOk: 1, searxngError: 1, searxngTimed: 2, local: 0 });
  });
});
