// Browser sessions end to end against real Temporal, PostgreSQL and Chromium: a
// session is created through the API, driven over its cdpUrl with Playwright
// and by executes, listed, deleted and billed once; idle and ttl end it on their
// own; foreign teams, wrong tokens and ended sessions are refused.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { chromium } from 'playwright';
import puppeteer from 'puppeteer-core';
import { statSync } from 'node:fs';
import type { BrowserHost } from '../../src/features/browser-sessions/host/browser-host.ts';
import { sessionCredits } from '../../src/features/browser-sessions/shared/session-credits.ts';
import { sessionWorkflowId } from '../../src/features/browser-sessions/protocol/definitions.ts';
import { createSessionSchema } from '../../src/features/browser-sessions/gateway/session-request.ts';
import { startSession } from '../../src/features/browser-sessions/gateway/start-session.ts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';

const execFileAsync = promisify(execFile);

let h: Harness;
// Every JSON answer of the gateway, checked against the OpenAPI document at the end.
const recorded: RecordedResponse[] = [];
let site: FixtureSite;
let host: BrowserHost;

beforeAll(async () => {
  h = await startHarness({ recordResponses: recorded });
  site = await startFixtureSite({
    '/': page('Session home', '<h1>Hello session</h1><input id="name">'),
    '/second': page('Second page', '<p>two</p>'),
    '/located': page('Located', '<p>here</p>'),
    '/located-new-context': page('Located', '<p>there</p>'),
  });
  await h.startWorker();
  host = await h.startBrowserHost();
}, 120_000);

afterAll(async () => {
  await h?.stop();
  await site?.close();
});

async function createSession(body: Record<string, unknown> = {}, key?: string) {
  const res = await h.api('/v2/browser', { method: 'POST', json: body, ...(key && { key }) });
  return { status: res.status, body: await res.json() };
}

/** Runs the agent-browser CLI against a cdpUrl with a daemon of its own, stopped afterwards. */
async function agentBrowser(cdpUrl: string, args: string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-browser-'));
  try {
    const { stdout } = await execFileAsync('node_modules/.bin/agent-browser', ['--cdp', cdpUrl, ...args], {
      env: { ...process.env, AGENT_BROWSER_SOCKET_DIR: dir, AGENT_BROWSER_NO_VERSION_CHECK: '1' },
      timeout: 60_000,
    });
    return stdout.trim();
  } finally {
    const pid = Number(readFileSync(join(dir, 'default.pid'), { encoding: 'utf8', flag: 'r' }).trim());
    if (pid > 0) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

async function row(id: string) {
  return h.db.browserSession.findUniqueOrThrow({ where: { id } });
}

describe('a session', () => {
  it('is created when its browser is up, drives over cdpUrl, executes, lists, and is deleted and billed once', async () => {
    const created = await createSession({ ttl: 300, activityTtl: 120 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const s = created.body;
    expect(s).toMatchObject({ success: true, id: expect.any(String), cdpUrl: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/v2\/browser\/.+\/cdp\?token=/) });
    expect(s.liveViewUrl).toMatch(/\/live\?token=/);
    expect(s.interactiveLiveViewUrl).not.toBe(s.liveViewUrl);
    expect(Date.parse(s.expiresAt) - Date.now()).toBeGreaterThan(250_000);
    expect((await row(s.id)).status).toBe('active');

    // Playwright over our proxy: the session's browser, its default context.
    const browser = await chromium.connectOverCDP(s.cdpUrl);
    const context = browser.contexts()[0];
    const tab = context.pages()[0] ?? (await context.newPage());
    await tab.goto(`${site.url}/`);
    expect(await tab.title()).toBe('Session home');
    await browser.close();

    // Closing the client left the session alive: reconnect and find the same tab.
    const again = await chromium.connectOverCDP(s.cdpUrl);
    expect(
      again
        .contexts()[0]
        .pages()
        .map((p) => p.url()),
    ).toContain(`${site.url}/`);
    await again.close();

    // agent-browser --cdp, as a user runs it on their own machine against our cdpUrl.
    expect(await agentBrowser(s.cdpUrl, ['get', 'title'])).toBe('Session home');
    // Puppeteer, the same way.
    const puppet = await puppeteer.connect({ browserWSEndpoint: s.cdpUrl });
    const puppetPages = await puppet.pages();
    expect(await Promise.all(puppetPages.map((p) => p.title()))).toContain('Session home');
    await puppet.disconnect();

    const exec = await h.api(`/v2/browser/${s.id}/execute`, {
      method: 'POST',
      json: { code: 'await page.goto(' + JSON.stringify(`${site.url}/second`) + '); await page.title()' },
    });
    expect(exec.status).toBe(200);
    expect(await exec.json()).toMatchObject({ success: true, result: 'Second page', exitCode: 0, killed: false, error: null });

    const list = await (await h.api('/v2/browser?status=active')).json();
    const listed = list.sessions.find((x: { id: string }) => x.id === s.id);
    expect(listed).toMatchObject({
      status: 'active',
      cdpUrl: s.cdpUrl,
      liveViewUrl: s.liveViewUrl,
      streamWebView: true,
      createdAt: expect.any(String),
      lastActivity: expect.any(String),
    });
    expect((await (await h.api(`/v2/browser/${s.id}`)).json()).status).toBe('active');

    const del = await h.api(`/v2/browser/${s.id}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    const ended = await del.json();
    expect(ended).toMatchObject({ success: true, sessionDurationMs: expect.any(Number), creditsBilled: 2 });
    const done = await row(s.id);
    expect(done).toMatchObject({ status: 'destroyed', endReason: 'deleted', creditsBilled: 2 });
    const charges = await h.db.usageEntry.findMany({ where: { jobId: s.id } });
    expect(charges.map((c) => c.credits)).toEqual([2]);

    // Deleting again answers the same without a second charge; execute is 410; the cdpUrl is refused.
    const second = await h.api(`/v2/browser/${s.id}`, { method: 'DELETE' });
    expect(await second.json()).toMatchObject({ success: true, creditsBilled: 2 });
    const gone = await h.api(`/v2/browser/${s.id}/execute`, { method: 'POST', json: { code: '1' } });
    expect(gone.status).toBe(410);
    expect((await gone.json()).error).toBe('Browser session has been destroyed.');
    await expect(chromium.connectOverCDP(s.cdpUrl, { timeout: 10_000 })).rejects.toThrow(/410/);
    expect((await h.db.usageEntry.findMany({ where: { jobId: s.id } })).length).toBe(1);
    expect((await (await h.api('/v2/browser?status=destroyed')).json()).sessions.map((x: { id: string }) => x.id)).toContain(s.id);

    // The session's history (touches, an execute, the destroy signal) replays against the current code;
    // RECORD_HISTORY_DIR=<dir> keeps it as a fixture for test/unit/workflow-replay.test.ts.
    const history = await h.temporal.workflow.getHandle(`browser-${s.id}`).fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history, `browser-${s.id}`);
    if (process.env.RECORD_HISTORY_DIR) writeFileSync(join(process.env.RECORD_HISTORY_DIR, 'browser-session-admitted-execute.json'), historyToJSON(history));
  }, 180_000);

  it('refuses a wrong token, another team and bad bodies', async () => {
    const s = (await createSession({ ttl: 120, activityTtl: 60, streamWebView: false })).body;
    expect([s.liveViewUrl, s.interactiveLiveViewUrl]).toEqual(['', '']);
    const wrong = s.cdpUrl.replace(/token=[^&]+/, 'token=not-the-token');
    await expect(chromium.connectOverCDP(wrong, { timeout: 10_000 })).rejects.toThrow(/401/);
    await expect(chromium.connectOverCDP(s.cdpUrl.replace(/\?token=.*$/, ''), { timeout: 10_000 })).rejects.toThrow(/401/);
    // The token as a bearer header works too.
    const token = new URL(s.cdpUrl).searchParams.get('token')!;
    const viaHeader = await chromium.connectOverCDP(s.cdpUrl.replace(/\?token=.*$/, ''), { headers: { authorization: `Bearer ${token}` } });
    await viaHeader.close();

    const other = await h.newTeam();
    for (const [method, path] of [
      ['GET', `/v2/browser/${s.id}`],
      ['DELETE', `/v2/browser/${s.id}`],
      ['POST', `/v2/browser/${s.id}/execute`],
      ['GET', '/v2/browser/not-a-session'],
    ]) {
      const res = await h.api(path, { method, key: other.apiKey, ...(method === 'POST' && { json: { code: '1' } }) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await res.json()).error).toBe('Browser session not found.');
    }
    expect((await (await h.api('/v2/browser', { key: other.apiKey })).json()).sessions).toEqual([]);

    for (const body of [
      { ttl: 29 },
      { ttl: 3601 },
      { activityTtl: 9 },
      { ttl: 'x' },
      { profile: { name: '' } },
      { profile: { name: 'x'.repeat(129) } },
      { streamWebView: 'yes' },
      { blockAds: 'yes' },
      { location: { country: 'GBR' } },
      { location: { country: 'GB', city: 'London' } },
    ]) {
      const res = await createSession(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    for (const body of [{ code: '' }, { code: '1', language: 'ruby' }, { code: '1', timeout: 301 }, { code: 'x'.repeat(100_001) }]) {
      const res = await h.api(`/v2/browser/${s.id}/execute`, { method: 'POST', json: body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect((await h.api(`/v2/interact/${s.id}`, { method: 'DELETE' })).status).toBe(200);
  }, 120_000);

  it('browses with its location’s languages and time zone, and refuses ad hosts unless blockAds is false', async () => {
    const [located, open] = await Promise.all([
      createSession({ ttl: 60, location: { country: 'DE' }, blockAds: true }),
      createSession({ ttl: 60, blockAds: false }),
    ]);
    expect(located.status, JSON.stringify(located.body)).toBe(200);
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    const look = () => [navigator.language, [...navigator.languages], Intl.DateTimeFormat().resolvedOptions().timeZone];
    // An HTTP URL, so the guard proxy's own answer is the page (an HTTPS tunnel refused or failed looks the same to the page).
    const ad = 'http://ads.doubleclick.net/ad.js';

    const browser = await chromium.connectOverCDP(located.body.cdpUrl);
    try {
      const tab = browser.contexts()[0].pages()[0];
      await tab.goto(`${site.url}/located`);
      expect(site.headers.get('/located')?.['accept-language']).toBe('de-DE');
      expect(await tab.evaluate(look)).toEqual(['de-DE', ['de-DE'], 'Europe/Berlin']);
      // A context the client makes itself browses from there too: the settings are the process's, not the first context's.
      const fresh = await (await browser.newContext()).newPage();
      await fresh.goto(`${site.url}/located-new-context`);
      expect(site.headers.get('/located-new-context')?.['accept-language']).toMatch(/^de-DE\b/);
      expect((await fresh.evaluate(look))[2]).toBe('Europe/Berlin');
      // Refused by the proxy before any lookup.
      const refused = await tab.goto(ad);
      expect(refused?.status()).toBe(403);
      expect(await refused?.text()).toBe('ads.doubleclick.net is an ad or tracker host, blocked by blockAds\n');
    } finally {
      await browser.close();
    }

    const plain = await chromium.connectOverCDP(open.body.cdpUrl);
    try {
      const tab = plain.contexts()[0].pages()[0];
      await tab.goto(`${site.url}/`);
      expect((await tab.evaluate(look))[0]).toBe('en-US');
      // The ad host is not visited from here: not refused, the request would leave the machine wherever DNS answers.
    } finally {
      await plain.close();
    }
    await Promise.all([located, open].map((s) => h.api(`/v2/browser/${s.body.id}`, { method: 'DELETE' })));
  }, 120_000);

  it.runIf(process.getuid?.() === 0)(
    'runs each session browser as a uid of its own when the host is root',
    async () => {
      const [a, b] = await Promise.all([createSession({ ttl: 60 }), createSession({ ttl: 60 })]);
      const uidOf = (id: string) => statSync(`/proc/${host.browserOf(id)!.pid}`).uid;
      const [ua, ub] = [uidOf(a.body.id), uidOf(b.body.id)];
      expect(ua).not.toBe(ub);
      for (const uid of [ua, ub]) expect(uid).toBeGreaterThanOrEqual(h.config.browserSessions.chromiumUidBase);
      await Promise.all([a, b].map((s) => h.api(`/v2/browser/${s.body.id}`, { method: 'DELETE' })));
    },
    60_000,
  );

  it('continues as new when its history grows, and stays the same session', async () => {
    const before = Date.now();
    // A session whose history is long at 200 events (the setting's floor is 100; 5000 by default), so that
    // a few hundred signals make it continue as new, not thousands of them.
    const { historyEvents } = h.config.browserSessions;
    h.config.browserSessions.historyEvents = 200;
    const created = await createSession({ ttl: 600, activityTtl: 600 }).finally(() => (h.config.browserSessions.historyEvents = historyEvents));
    expect(created.status).toBe(200);
    const s = created.body;
    const handle = h.temporal.workflow.getHandle(`browser-${s.id}`);
    const firstRun = (await handle.describe()).runId;
    // Far more touches than gateways ever send (they debounce), straight to the workflow.
    for (let i = 0; i < 400; i += 200) await Promise.all(Array.from({ length: 200 }, () => handle.signal('touched')));
    await waitFor('a new run', async () => (await handle.describe()).runId !== firstRun, 240_000);
    const exec = await (await h.api(`/v2/browser/${s.id}/execute`, { method: 'POST', json: { code: '1 + 1' } })).json();
    expect(exec).toMatchObject({ success: true, result: '2' });
    const browser = await chromium.connectOverCDP(s.cdpUrl);
    expect(browser.contexts().length).toBeGreaterThan(0);
    await browser.close();
    const ended = await (await h.api(`/v2/browser/${s.id}`, { method: 'DELETE' })).json();
    expect(ended).toMatchObject({ success: true });
    // Billed once, for the time the session lived across its runs: at least its first minute,
    // at most the minutes this test watched it (a loaded machine makes the signals take longer).
    expect(ended.creditsBilled).toBeGreaterThanOrEqual(sessionCredits(0));
    expect(ended.creditsBilled).toBeLessThanOrEqual(sessionCredits(Date.now() - before));
    const ledger = await h.db.usageEntry.findMany({ where: { jobId: s.id } });
    expect(ledger.reduce((sum, e) => sum + e.credits, 0)).toBe(ended.creditsBilled);
  }, 360_000);

  it('counts against the team concurrency with crawls (429) and needs credits for its whole ttl (402)', async () => {
    const small = await h.newTeam({ concurrencyLimit: 1, credits: 100 });
    const first = await createSession({ ttl: 60 }, small.apiKey);
    expect(first.status).toBe(200);
    const second = await createSession({ ttl: 60 }, small.apiKey);
    expect(second.status).toBe(429);
    expect(second.body.error).toMatch(
      /^You have reached the maximum number of concurrent jobs \(1\)\. Please wait for existing jobs to complete or destroy browser sessions before creating new ones\./,
    );
    await h.api(`/v2/browser/${first.body.id}`, { method: 'DELETE', key: small.apiKey });

    const poor = await h.newTeam({ credits: 50 });
    const costly = await createSession({ ttl: 1800 }, poor.apiKey);
    expect(costly.status).toBe(402);
    expect(costly.body.error).toMatch(/^Insufficient credits for a 1800s browser session \(requires ~60 credits/);
  }, 120_000);

  /** The harness's database, but the read of a session's row (the answer's, once its browser is up) fails as a dropped connection does. */
  const dbDroppingAfterReady = () => {
    const lost = new Error('Connection terminated unexpectedly');
    const sessions = new Proxy(h.db.browserSession, {
      get: (target, prop, receiver) => (prop === 'findUniqueOrThrow' ? () => Promise.reject(lost) : (Reflect.get(target, prop, receiver) as unknown)),
    });
    const db = new Proxy(h.db, { get: (target, prop, receiver) => (prop === 'browserSession' ? sessions : Reflect.get(target, prop, receiver)) });
    return { db, lost };
  };

  it('whose start cannot be answered once its browser is up ends as an error, unbilled, holding nothing', async () => {
    // The database drops between the browser coming up and the answer being built (PostgreSQL
    // killed at that moment): the caller hears the error and retries, so the first session must not live on.
    const { teamId } = await h.newTeam({ credits: 1000 });
    const team = await h.db.team.findUniqueOrThrow({ where: { id: teamId } });
    let created = '';
    const { db, lost } = dbDroppingAfterReady();
    await expect(
      startSession({ db, temporal: h.temporal, config: h.config }, team, null, createSessionSchema.parse({ ttl: 120 }), (id) => (created = id)),
    ).rejects.toBe(lost);
    const handle = h.temporal.workflow.getHandle(sessionWorkflowId(created));
    expect(await handle.result()).toMatchObject({
      status: 'error',
      reason: 'the start could not be answered: Connection terminated unexpectedly',
      creditsBilled: 0,
    });
    expect(await row(created)).toMatchObject({ status: 'error', creditsBilled: 0 });
    const { _sum } = await h.db.usageEntry.aggregate({ where: { teamId }, _sum: { credits: true } });
    expect(_sum.credits ?? 0).toBe(0);
    expect(await h.db.browserLease.count({ where: { teamId } })).toBe(0);
  });

  it('whose start cannot be answered while Temporal does not take the end either, ends as an error, unbilled, once Temporal does', async () => {
    const { teamId } = await h.newTeam({ credits: 1000 });
    const team = await h.db.team.findUniqueOrThrow({ where: { id: teamId } });
    let created = '';
    const { db, lost } = dbDroppingAfterReady();
    // The frontend refuses the first two signals (killed, then restarting).
    let refused = 0;
    const workflow = new Proxy(h.temporal.workflow, {
      get: (target, prop) => {
        if (prop !== 'getHandle') return (Reflect.get(target, prop) as (...a: unknown[]) => unknown).bind(target);
        return (id: string) => {
          const handle = target.getHandle(id);
          const signal: typeof handle.signal = (...args) =>
            refused++ < 2 ? Promise.reject(new Error('14 UNAVAILABLE: connection refused')) : handle.signal(...args);
          return Object.assign(Object.create(handle) as typeof handle, { signal });
        };
      },
    });
    const temporal = new Proxy(h.temporal, { get: (target, prop, receiver) => (prop === 'workflow' ? workflow : Reflect.get(target, prop, receiver)) });
    await expect(startSession({ db, temporal, config: h.config }, team, null, createSessionSchema.parse({ ttl: 120 }), (id) => (created = id))).rejects.toBe(
      lost,
    );
    expect(await h.temporal.workflow.getHandle(sessionWorkflowId(created)).result()).toMatchObject({
      status: 'error',
      reason: 'the start could not be answered: Connection terminated unexpectedly',
      creditsBilled: 0,
    });
    expect(refused).toBe(3);
    const { _sum } = await h.db.usageEntry.aggregate({ where: { teamId }, _sum: { credits: true } });
    expect(_sum.credits ?? 0).toBe(0);
  });

  it('whose request was answered 503 while it started, with no key to hand it to the retry, ends as an error, unbilled', async () => {
    const { teamId } = await h.newTeam({ credits: 1000 });
    const team = await h.db.team.findUniqueOrThrow({ where: { id: teamId } });
    let created = '';
    let asked = false;
    const answerWanted = () => ((asked = true), false);
    await expect(
      startSession({ db: h.db, temporal: h.temporal, config: h.config }, team, null, createSessionSchema.parse({ ttl: 120 }), (id) => (created = id), {
        answerWanted,
      }),
    ).rejects.toThrow(/answered 503/);
    expect(asked).toBe(true);
    expect(await h.temporal.workflow.getHandle(sessionWorkflowId(created)).result()).toMatchObject({ status: 'error', creditsBilled: 0 });
    const { _sum } = await h.db.usageEntry.aggregate({ where: { teamId }, _sum: { credits: true } });
    expect(_sum.credits ?? 0).toBe(0);
    expect(await h.db.browserLease.count({ where: { teamId } })).toBe(0);
  });

  it('ends by itself when idle past activityTtl and when ttl runs out, and the Temporal UI shows why', async () => {
    const idle = (await createSession({ ttl: 300, activityTtl: 10 })).body;
    const short = (await createSession({ ttl: 30, activityTtl: 300 })).body;
    // Use keeps a session alive past activityTtl: CDP traffic re-arms the idle timer.
    const kept = (await createSession({ ttl: 300, activityTtl: 10 })).body;
    const browser = await chromium.connectOverCDP(kept.cdpUrl);
    const tab = browser.contexts()[0].pages()[0];
    const started = Date.now();
    while (Date.now() - started < 20_000) {
      await tab.evaluate(() => 1);
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect((await row(kept.id)).status).toBe('active');
    await browser.close();

    const idleEnd = await waitFor('the idle session to end', async () => ((await row(idle.id)).status === 'destroyed' ? row(idle.id) : undefined), 60_000);
    expect(idleEnd.endReason).toBe('idle');
    const ttlEnd = await waitFor('the short session to end', async () => ((await row(short.id)).status === 'destroyed' ? row(short.id) : undefined), 60_000);
    expect(ttlEnd.endReason).toBe('ttl');
    expect(ttlEnd.durationMs).toBeGreaterThanOrEqual(30_000);
    expect(ttlEnd.creditsBilled).toBe(2);
    const handle = h.temporal.workflow.getHandle(`browser-${short.id}`);
    // The row is written just before the workflow returns.
    await handle.result();
    const description = await handle.describe();
    expect(description.status.name).toBe('COMPLETED');
    expect(description.searchAttributes.SessionStatus).toEqual(['destroyed']);
    await h.api(`/v2/browser/${kept.id}`, { method: 'DELETE' });
  }, 180_000);
});

it('every answer is as the OpenAPI document (/v2/openapi.json) says', async () => {
  // How many depends on polling; only that the recorder saw answers is certain.
  expect(recorded.length).toBeGreaterThan(0);
  expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
});
