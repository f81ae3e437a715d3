// The host budget every job shares (jobs/politeness/), against local sites that
// push back: one that throttles (a token bucket per client answering 429 with
// Retry-After beyond it) and one that slows down under load. Two teams crawl the
// throttling site at once, with a scrape and a map of it: the site never has more
// requests in flight than HOST_MAX_CONCURRENCY, no request arrives inside an
// announced Retry-After, no page fails, and every page is stored once with its
// real content (no 429 stored or charged). The same holds with a second worker
// process. The budget's statements are checked on their own: fairness between
// teams, and host_release's formulas against host-rate.ts.
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, treeSite, type FixtureResponse, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import { askTurn, endTurn, forgetIdleHosts } from '../../src/jobs/politeness/host-leases.ts';
import { nextHostRate } from '../../src/jobs/politeness/host-rate.ts';
import { registry } from '../../src/platform/metrics/registry.ts';
import { failureReason } from '../../src/jobs/pages/failure-reason.ts';
import { loadConfig } from '../../src/config.ts';
import { onFreePort } from '../support/on-free-port.ts';
import { parsePrometheusText } from '../support/prometheus-text.ts';

const MAX_IN_FLIGHT = 3;
const PAGES = 24;
const RETRY_AFTER_S = 2;
/** Requests the crawler had already been granted when the 429 was answered may still arrive this long after it. */
const GRACE_MS = 300;

let h: Harness;
const sites: FixtureSite[] = [];

interface Arrival {
  at: number;
  path: string;
  status: number;
}

/** A site of PAGES pages that allows `perSecond` page requests a second per client (bursts of `burst`), answering 429 with Retry-After beyond. */
async function throttlingSite(perSecond: number, burst: number): Promise<{ site: FixtureSite; arrivals: Arrival[] }> {
  const arrivals: Arrival[] = [];
  const buckets = new Map<string, { tokens: number; at: number }>();
  const resources: Record<string, (req: IncomingMessage) => FixtureResponse> = {};
  for (const [path, html] of Object.entries(treeSite(PAGES))) {
    resources[path] = (req) => {
      const now = Date.now();
      const client = req.socket.remoteAddress ?? '';
      const b = buckets.get(client) ?? { tokens: burst, at: now };
      b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * perSecond);
      b.at = now;
      buckets.set(client, b);
      if (b.tokens < 1) {
        arrivals.push({ at: now, path, status: 429 });
        return { status: 429, headers: { 'retry-after': String(RETRY_AFTER_S) }, body: '<html><body>Too many requests, slow down</body></html>' };
      }
      b.tokens -= 1;
      arrivals.push({ at: now, path, status: 200 });
      return { body: html };
    };
  }
  const site = await startFixtureSite(resources);
  sites.push(site);
  return { site, arrivals };
}

/** Page requests that arrived inside a Retry-After the site had announced (past the grace for requests already granted). */
function insideRetryAfter(arrivals: Arrival[]): Arrival[] {
  const windows = arrivals.filter((a) => a.status === 429).map((a) => [a.at + GRACE_MS, a.at + RETRY_AFTER_S * 1000] as const);
  return arrivals.filter((a) => windows.some(([from, to]) => a.at > from && a.at < to));
}

async function startCrawl(url: string, apiKey: string): Promise<string> {
  const res = await h.api('/v2/crawl', { method: 'POST', key: apiKey, json: { url, limit: 100, sitemap: 'skip', scrapeOptions: { maxAge: 0 } } });
  const body = await res.json();
  expect(body, JSON.stringify(body)).toMatchObject({ success: true });
  return body.id as string;
}

/** Every page stored once, with its own content and status 200, none failed, each charged once. */
async function expectWholeCrawl(id: string, apiKey: string): Promise<void> {
  const done = await waitForCrawl(h, id, 90_000, apiKey);
  expect(done.status).toBe('completed');
  expect(done.completed).toBe(PAGES);
  expect(done.creditsUsed).toBe(PAGES);
  const rows = await h.db.jobPage.findMany({ where: { jobId: id } });
  expect(rows.length).toBe(PAGES);
  expect(rows.filter((r) => !r.success)).toEqual([]);
  expect(new Set(rows.map((r) => r.urlKey)).size).toBe(PAGES);
  for (const d of done.data) {
    expect(d.metadata.statusCode).toBe(200);
    const i = d.metadata.sourceURL.endsWith('/') ? 0 : Number(d.metadata.sourceURL.split('/p/')[1]);
    expect(d.markdown).toContain(`Content of page ${i}.`);
    expect(d.markdown).not.toContain('Too many requests');
  }
}

async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const found = (await registry.getMetricsAsJSON()).find((m) => m.name === `crawl_service_${name}`);
  return (found?.values ?? []).filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want)).reduce((sum, v) => sum + v.value, 0);
}

beforeAll(async () => {
  h = await startHarness({
    crawl: { hostMaxConcurrency: MAX_IN_FLIGHT, hostBackoffBaseMs: 200, hostSlowResponseMs: 250, hostThrottleMaxRetries: 30 },
    worker: { browserSlots: 1 },
    // A scrape's page works no longer than its timeout (the default budget lets it go on past a 408 for 120 s).
    scrape: { ...loadConfig().scrape, pageBudgetMs: 5000 },
  });
  await h.startWorker();
}, 60_000);

afterAll(async () => {
  await h?.stop();
  await Promise.all(sites.map((s) => s.close()));
});

describe('the host budget', () => {
  it('keeps two teams, a scrape and a map of one throttling site within its limits, and stores every page once', async () => {
    const { site, arrivals } = await throttlingSite(10, 4);
    const other = await h.newTeam();
    const started = Date.now();
    const crawls = [
      { id: await startCrawl(`${site.url}/`, h.apiKey), key: h.apiKey },
      { id: await startCrawl(`${site.url}/`, other.apiKey), key: other.apiKey },
    ];
    const [scrape, map] = await Promise.all([
      h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/p/3`, formats: ['markdown'], maxAge: 0 } }).then((r) => r.json()),
      h.api('/v2/map', { method: 'POST', key: other.apiKey, json: { url: `${site.url}/`, sitemap: 'skip' } }).then((r) => r.json()),
    ]);
    expect(scrape, JSON.stringify(scrape)).toMatchObject({ success: true, data: { metadata: { statusCode: 200 } } });
    expect(scrape.data.markdown).toContain('Content of page 3.');
    expect(map, JSON.stringify(map)).toMatchObject({ success: true });
    expect(map.links.map((l: { url: string }) => l.url)).toEqual(expect.arrayContaining([`${site.url}/p/1`, `${site.url}/p/2`]));
    for (const c of crawls) await expectWholeCrawl(c.id, c.key);

    const throttled = arrivals.filter((a) => a.status === 429);
    // The site pushed back, and the crawler listened: few 429s, none of them stored, and no request in a Retry-After.
    expect(throttled.length).toBeGreaterThan(0);
    expect(throttled.length).toBeLessThan(arrivals.length / 4);
    expect(insideRetryAfter(arrivals)).toEqual([]);
    expect(site.maxInFlight()).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    expect(await h.db.jobPage.count({ where: { jobId: { in: crawls.map((c) => c.id) }, statusCode: 429 } })).toBe(0);
    // Each page reached the site once per job that stored it, plus its throttled tries.
    expect(arrivals.length - throttled.length).toBe(2 * PAGES + 2);

    // A crawl's workflow was told which host throttled it (its current details say so while the pause lasts).
    const progress = await Promise.all(crawls.map((c) => h.temporal.workflow.getHandle(`crawl-${c.id}`).query<{ throttled?: { host: string } }>('progress')));
    expect(progress.some((p) => p.throttled?.host === new URL(site.url).host)).toBe(true);
    expect(await metric('host_throttled_answers_total', { answer: '429' })).toBeGreaterThanOrEqual(throttled.length);
    expect(await metric('host_waits_total', { reason: 'paused' })).toBeGreaterThan(0);
    console.log(`two crawls, a scrape and a map: ${arrivals.length} requests, ${throttled.length} answered 429, ${Date.now() - started} ms`);
  }, 120_000);

  it("loads a single scrape's throttled page again in Chromium after Retry-After, and fails it as throttled when the pause outlasts its timeout", async () => {
    const arrivals: Arrival[] = [];
    let refusals = 2;
    const html = treeSite(1)['/']!;
    const site = await startFixtureSite({
      '/': () => {
        const at = Date.now();
        if (refusals-- > 0) {
          arrivals.push({ at, path: '/', status: 429 });
          return { status: 429, headers: { 'retry-after': '1' }, body: '<html><body>Too many requests, slow down</body></html>' };
        }
        arrivals.push({ at, path: '/', status: 200 });
        return { body: html };
      },
      '/closed': () => ({ status: 429, headers: { 'retry-after': '30' }, body: '<html><body>Closed for now</body></html>' }),
    });
    sites.push(site);
    // waitFor needs the browser: the page is loaded in Chromium, answered 429 twice, then the page.
    const res = await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/`, formats: ['markdown'], maxAge: 0, waitFor: 50 } });
    const body = await res.json();
    expect(body, JSON.stringify(body)).toMatchObject({ success: true, data: { metadata: { statusCode: 200 } } });
    expect(body.data.markdown).toContain('Content of page 0.');
    expect(arrivals.map((a) => a.status)).toEqual([429, 429, 200]);
    // Each load after a 429 waited for its Retry-After.
    for (let i = 1; i < arrivals.length; i++) expect(arrivals[i].at - arrivals[i - 1].at).toBeGreaterThanOrEqual(1000 - GRACE_MS);

    const closed = await h.api('/v2/scrape', {
      method: 'POST',
      json: { url: `${site.url}/closed`, formats: ['markdown'], maxAge: 0, waitFor: 50, timeout: 5000 },
    });
    const failed = await closed.json();
    expect(failed, JSON.stringify(failed)).toMatchObject({ success: false, code: 'SCRAPE_FAILED' });
    expect(failed.error).toMatch(/^The site kept answering HTTP 429 \(Too Many Requests\): throttled 1 times, .*outlasts the scrape's timeout of 5000 ms/);
    expect(failureReason(failed.error)).toBe('throttled');
  }, 60_000);

  it('gives a host that slows down under load fewer requests at once', async () => {
    let active = 0;
    const resources: Record<string, () => FixtureResponse> = {};
    for (const [path, html] of Object.entries(treeSite(12))) {
      resources[path] = () => {
        active++;
        // Quick alone, slow when it has company.
        const ms = active > 1 ? 400 : 20;
        return { body: html, until: new Promise((resolve) => setTimeout(resolve, ms)).finally(() => active--) };
      };
    }
    const site = await startFixtureSite(resources);
    sites.push(site);
    const host = new URL(site.url).host;
    const slowBefore = await metric('host_throttled_answers_total', { answer: 'slow' });
    const id = await startCrawl(`${site.url}/`, h.apiKey);
    let least = MAX_IN_FLIGHT;
    await waitFor(
      'the crawl of the slow site to end',
      async () => {
        const row = await h.db.hostBudget.findUnique({ where: { host } });
        if (row) least = Math.min(least, row.concurrency);
        return (await h.db.job.findUniqueOrThrow({ where: { id } })).status !== 'scraping';
      },
      60_000,
      50,
    );
    const done = await waitForCrawl(h, id, 10_000);
    expect(done).toMatchObject({ status: 'completed', completed: 12 });
    expect(await metric('host_throttled_answers_total', { answer: 'slow' })).toBeGreaterThan(slowBefore);
    expect(least).toBeLessThan(MAX_IN_FLIGHT - 0.5);
  }, 90_000);

  it('lets a waiting team with fewer requests at a host go first, and adapts the host as host-rate.ts says', async () => {
    const host = `fair-${randomUUID()}.test`;
    const ask = (holder: string, teamId: string) => askTurn(h.db, { host, holder, teamId, maxConcurrency: 3, intervalMs: 0, leaseMs: 10_000, waitMs: 3000 });
    // Wide open while, with the new turn, at most three quarters of the 3 are in flight.
    expect(await ask('a1', 'team-a')).toEqual({ granted: true, wideOpen: true });
    expect(await ask('a2', 'team-a')).toEqual({ granted: true, wideOpen: true });
    expect(await ask('b1', 'team-b')).toEqual({ granted: true, wideOpen: false });
    // At its concurrency, the host makes both teams wait.
    expect(await ask('a3', 'team-a')).toEqual({ granted: false, waitMs: 0, reason: 'busy' });
    expect(await ask('b2', 'team-b')).toEqual({ granted: false, waitMs: 0, reason: 'busy' });
    await endTurn(h.db, { host, holder: 'b1', outcome: { kind: 'ok' }, maxConcurrency: 3, backoffBaseMs: 1000, backoffMaxMs: 60_000, jitter: 1 });
    // A request ended: team a (2 in flight) asks first, but team b (none) waits, so b goes first.
    expect(await ask('a3', 'team-a')).toEqual({ granted: false, waitMs: 0, reason: 'share' });
    // Granted, not wide open: team a waits there, and all 3 are in flight.
    expect(await ask('b2', 'team-b')).toEqual({ granted: true, wideOpen: false });

    const before = await h.db.hostBudget.findUniqueOrThrow({ where: { host } });
    const at = Date.now();
    await endTurn(h.db, {
      host,
      holder: 'a2',
      outcome: { kind: 'throttled', status: 503 },
      maxConcurrency: 3,
      backoffBaseMs: 1000,
      backoffMaxMs: 60_000,
      jitter: 1.25,
    });
    const after = await h.db.hostBudget.findUniqueOrThrow({ where: { host } });
    const expected = nextHostRate(
      { concurrency: before.concurrency, intervalMs: before.intervalMs, strikes: before.strikes },
      { kind: 'throttled', status: 503 },
      { maxConcurrency: 3, backoffBaseMs: 1000, backoffMaxMs: 60_000 },
      1.25,
      at,
    );
    expect({ concurrency: after.concurrency, intervalMs: after.intervalMs, strikes: after.strikes }).toEqual({
      concurrency: expected.concurrency,
      intervalMs: expected.intervalMs,
      strikes: expected.strikes,
    });
    expect(Math.abs(after.pausedUntil!.getTime() - expected.pausedUntil!)).toBeLessThan(200);
    const paused = await ask('b3', 'team-b');
    expect(paused).toMatchObject({ granted: false, reason: 'paused' });
    expect((paused as { waitMs: number }).waitMs).toBeGreaterThan(1000);

    // The scheduled purge forgets a host only once it is idle for a day, not paused, and has no live lease.
    await h.db.hostBudget.update({ where: { host }, data: { lastStart: new Date(Date.now() - 25 * 3_600_000) } });
    await forgetIdleHosts(h.db);
    expect(await h.db.hostBudget.count({ where: { host } })).toBe(1);
    await h.db.hostBudget.update({ where: { host }, data: { pausedUntil: null } });
    await h.db.hostLease.deleteMany({ where: { host } });
    await forgetIdleHosts(h.db);
    expect(await h.db.hostBudget.count({ where: { host } })).toBe(0);
  });

  it('hands no turn on at a host for 10 minutes after it throttled, however far it recovered', async () => {
    const host = `throttled-${randomUUID()}.test`;
    const ask = (holder: string) => askTurn(h.db, { host, holder, teamId: 'team-a', maxConcurrency: 8, intervalMs: 0, leaseMs: 10_000, waitMs: 3000 });
    const end = (holder: string, outcome: Parameters<typeof endTurn>[1]['outcome']) =>
      endTurn(h.db, { host, holder, outcome, maxConcurrency: 8, backoffBaseMs: 1000, backoffMaxMs: 60_000, jitter: 1 });
    expect(await ask('t1')).toEqual({ granted: true, wideOpen: true });
    await end('t1', { kind: 'throttled', status: 429, retryAfterMs: 0 });
    // Recovered in full (its concurrency, interval, strikes and pause as before the answer): still not wide open.
    const recovered = { concurrency: 8, intervalMs: 0, strikes: 0, pausedUntil: null };
    await h.db.hostBudget.update({ where: { host }, data: recovered });
    expect(await ask('t2')).toEqual({ granted: true, wideOpen: false });
    await end('t2', { kind: 'ok' });
    // Ten minutes after its last throttled answer it is.
    await h.db.hostBudget.update({ where: { host }, data: { ...recovered, throttledAt: new Date(Date.now() - 601_000) } });
    expect(await ask('t3')).toEqual({ granted: true, wideOpen: true });
  });

  it('holds with a second worker process, both workers fetching pages of the site', async () => {
    const second = await onFreePort((port, output) =>
      h.spawnWorker({
        env: {
          HOST_MAX_CONCURRENCY: String(MAX_IN_FLIGHT),
          HOST_BACKOFF_BASE_MS: '200',
          HOST_THROTTLE_MAX_RETRIES: '30',
          WORKER_BROWSER_SLOTS: '1',
          WORKER_OPS_PORT: String(port),
        },
        output,
      }),
    );
    const secondStored = async () =>
      parsePrometheusText(await (await fetch(`http://127.0.0.1:${second.port}/metrics`)).text()).value('crawl_service_pages_stored_total', { kind: 'crawl' });
    const storedHere = () => metric('pages_stored_total', { kind: 'crawl' });
    const [hereBefore, secondBefore] = [await storedHere(), await secondStored()];
    const { site, arrivals } = await throttlingSite(10, 4);
    const other = await h.newTeam();
    const crawls = [
      { id: await startCrawl(`${site.url}/`, h.apiKey), key: h.apiKey },
      { id: await startCrawl(`${site.url}/`, other.apiKey), key: other.apiKey },
    ];
    for (const c of crawls) await expectWholeCrawl(c.id, c.key);
    expect(site.maxInFlight()).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    expect(insideRetryAfter(arrivals)).toEqual([]);
    // Each worker fetched and stored some of the pages (each stored page was fetched by the worker that stored it), together all of them.
    const [here, there] = [(await storedHere()) - hereBefore, (await secondStored()) - secondBefore];
    console.log(`two workers: ${here} pages stored by the test's worker, ${there} by the second`);
    expect(here).toBeGreaterThan(0);
    expect(there).toBeGreaterThan(0);
    expect(here + there).toBe(2 * PAGES);
  }, 120_000);
});
