// POST and DELETE /v2/scrape/{id}/interact: the page a scrape saw, opened again
// in a browser session (its actions replayed), code and prompts run in it, one
// session per scrape however many calls race, and the SDKs' interact calls.
import { randomUUID } from 'node:crypto';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, type FixtureSite } from '../support/fixture-site.ts';
import { startSessionHarness } from '../support/session-harness.ts';
import { waitFor, type Harness } from '../support/harness.ts';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { runPythonSdk } from '../support/python-sdk.ts';
import { createSessionRow, ScrapeSessionExists } from '../../src/features/browser-sessions/gateway/session-store.ts';

let h: Harness;
let site: FixtureSite;
let llm: FakeLlm;

const COUNTER_PAGE = page(
  'Counter',
  `<h1>Counter</h1><p id="count">0</p><button id="more" onclick="document.getElementById('count').textContent = String(Number(document.getElementById('count').textContent) + 1)">more</button>`,
);

beforeAll(async () => {
  llm = await startFakeLlm();
  ({ h, site } = await startSessionHarness({ '/counter': COUNTER_PAGE }, { llm: { baseUrl: llm.url, model: 'fake-big' } }));
}, 120_000);

afterAll(async () => {
  await h?.stop();
  await site?.close();
  await llm?.close();
});

async function scrape(key: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await h.api('/v2/scrape', { method: 'POST', key, json: { url: `${site.url}/counter`, formats: ['markdown'], ...body } });
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json.data.metadata.scrapeId;
}

const interact = (key: string, id: string, body: Record<string, unknown>) => h.api(`/v2/scrape/${id}/interact`, { method: 'POST', key, json: body });

async function teamIsIdle(teamId: string): Promise<void> {
  await waitFor('the team to hold no live session, slot or browser lease', async () => {
    const [sessions, slots, leases] = await Promise.all([
      h.db.browserSession.count({ where: { teamId, status: { in: ['starting', 'active'] } } }),
      h.db.teamSlot.count({ where: { teamId, holder: { not: null } } }),
      h.db.browserLease.count({ where: { teamId } }),
    ]);
    return sessions === 0 && slots === 0 && leases === 0;
  });
}

describe('POST /v2/scrape/{id}/interact', () => {
  it('reopens the page the scrape saw with its actions replayed, keeps the tab between calls, and ends on DELETE', async () => {
    const { teamId, apiKey } = await h.newTeam();
    const id = await scrape(apiKey, {
      actions: [{ type: 'click', selector: '#more' }, { type: 'click', selector: '#more' }, { type: 'screenshot' }],
    });
    const first = await interact(apiKey, id, { code: "await page.textContent('#count')" });
    const answer = await first.json();
    expect(first.status, JSON.stringify(answer)).toBe(200);
    expect(answer).toMatchObject({ success: true, result: '2', exitCode: 0, killed: false, error: null, cdpUrl: expect.stringContaining('/cdp?token=') });
    expect(answer.warning).toBeUndefined();

    // The same tab: what one call did, the next sees.
    await interact(apiKey, id, { code: "await page.click('#more')" });
    const again = await (await interact(apiKey, id, { code: "await page.textContent('#count')" })).json();
    expect(again).toMatchObject({ result: '3', cdpUrl: answer.cdpUrl });
    const python = await (await interact(apiKey, id, { code: "print(await page.text_content('#count'))", language: 'python' })).json();
    expect(python).toMatchObject({ stdout: '3\n', exitCode: 0 });

    const sessions = await h.db.browserSession.findMany({ where: { scrapeId: id } });
    expect(sessions).toHaveLength(1);
    const ended = await h.api(`/v2/scrape/${id}/interact`, { method: 'DELETE', key: apiKey });
    expect(await ended.json()).toMatchObject({ success: true, status: 'destroyed', creditsBilled: expect.any(Number), sessionDurationMs: expect.any(Number) });
    const twice = await h.api(`/v2/scrape/${id}/interact`, { method: 'DELETE', key: apiKey });
    expect(twice.status).toBe(404);
    // A call after the end opens the page again, as the scrape saw it.
    const reopened = await (await interact(apiKey, id, { code: "await page.textContent('#count')" })).json();
    expect(reopened).toMatchObject({ result: '2' });
    expect(reopened.cdpUrl).not.toBe(answer.cdpUrl);
    await h.api(`/v2/scrape/${id}/interact`, { method: 'DELETE', key: apiKey });
    await teamIsIdle(teamId);
  }, 180_000);

  it('opens one session for calls that race on a fresh scrape, and keeps teams apart', async () => {
    const a = await h.newTeam();
    const b = await h.newTeam();
    const [idA, idB] = await Promise.all([scrape(a.apiKey), scrape(b.apiKey)]);
    const answers = await Promise.all([
      ...[1, 2, 3, 4, 5].map(() => interact(a.apiKey, idA, { code: "await page.textContent('#count')" }).then((r) => r.json())),
      interact(b.apiKey, idB, { code: 'await page.title()' }).then((r) => r.json()),
    ]);
    expect(
      answers.slice(0, 5).map((x) => x.result),
      JSON.stringify(answers),
    ).toEqual(['0', '0', '0', '0', '0']);
    expect(new Set(answers.slice(0, 5).map((x) => x.cdpUrl)).size).toBe(1);
    expect(answers[5]).toMatchObject({ result: 'Counter' });
    expect(await h.db.browserSession.count({ where: { scrapeId: idA } })).toBe(1);

    // Another team's scrape is not found, for calls and for DELETE.
    expect((await interact(b.apiKey, idA, { code: '1' })).status).toBe(404);
    expect((await h.api(`/v2/scrape/${idA}/interact`, { method: 'DELETE', key: b.apiKey })).status).toBe(404);
    await h.api(`/v2/scrape/${idA}/interact`, { method: 'DELETE', key: a.apiKey });
    await h.api(`/v2/scrape/${idB}/interact`, { method: 'DELETE', key: b.apiKey });
    await teamIsIdle(a.teamId);
    await teamIsIdle(b.teamId);
  }, 180_000);

  it("opens the session itself when another call's opening ends without a browser", async () => {
    const { teamId, apiKey } = await h.newTeam();
    const id = await scrape(apiKey);
    const team = await h.db.team.findUniqueOrThrow({ where: { id: teamId } });
    // Another call's opening, its browser still starting: it gives up (its request was answered 503) while this call waits.
    const opener = await createSessionRow(h.db, team, null, { ttl: 60, activityTtl: 30, streamWebView: false }, new Date(), { scrapeId: id });
    const call = interact(apiKey, id, { code: "await page.textContent('#count')" }).then(async (r) => ({ status: r.status, body: await r.json() }));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await h.db.browserSession.update({ where: { id: opener.id }, data: { status: 'destroyed', endReason: 'deleted', endedAt: new Date() } });
    const answer = await call;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.result).toBe('0');
    await h.api(`/v2/scrape/${id}/interact`, { method: 'DELETE', key: apiKey });
    await teamIsIdle(teamId);
  }, 180_000);

  it("gives a call racing another's opening of the session that session, even when it fills the team's concurrency", async () => {
    const { teamId } = await h.newTeam({ concurrencyLimit: 1 });
    const team = await h.db.team.findUniqueOrThrow({ where: { id: teamId } });
    const scrapeId = randomUUID();
    const req = { ttl: 60, activityTtl: 30, streamWebView: false };
    // The first call's row (its browser still starting) holds the team's one place.
    const first = await createSessionRow(h.db, team, null, req, new Date(), { scrapeId });
    const second = await createSessionRow(h.db, team, null, req, new Date(), { scrapeId }).catch((err: unknown) => err);
    expect(second).toBeInstanceOf(ScrapeSessionExists);
    // Any other session is still refused at the limit.
    const other = await createSessionRow(h.db, team, null, req, new Date()).catch((err: unknown) => err);
    expect(other).toMatchObject({ code: 'CONCURRENCY_LIMIT' });
    await h.db.browserSession.update({ where: { id: first.id }, data: { status: 'destroyed', endReason: 'deleted', endedAt: new Date() } });
  });

  it('turns a prompt into code the model writes from the open page, and puts its tokens on the ledger', async () => {
    const { apiKey } = await h.newTeam();
    const id = await scrape(apiKey);
    const before = llm.requests.length;
    llm.script = (req) =>
      req.messages[0]?.content.includes('open browser tab')
        ? JSON.stringify({ code: "await page.click('#more'); await page.textContent('#count')" })
        : undefined;
    try {
      const res = await interact(apiKey, id, { prompt: 'Press the button once and tell me the count' });
      const answer = await res.json();
      expect(res.status, JSON.stringify(answer)).toBe(200);
      expect(answer).toMatchObject({ success: true, output: '1', code: expect.stringContaining("page.click('#more')"), exitCode: 0 });
    } finally {
      llm.script = undefined;
    }
    const sent = llm.requests.slice(before);
    expect(sent).toHaveLength(1);
    // The page goes to the model as data, its words not mixed with the task.
    expect(sent[0].messages[0].content).toContain('Press the button once and tell me the count');
    expect(sent[0].messages[0].content).toContain('untrusted data');
    expect(sent[0].messages[1].content).toContain('Counter');
    const session = await h.db.browserSession.findFirstOrThrow({ where: { scrapeId: id } });
    const tokens = await h.db.usageEntry.aggregate({ where: { jobId: session.id, itemKey: { startsWith: 'interact-prompt-' } }, _sum: { tokens: true } });
    expect(tokens._sum?.tokens).toBe(llm.usage.prompt_tokens + llm.usage.completion_tokens);
    await h.api(`/v2/scrape/${id}/interact`, { method: 'DELETE', key: apiKey });
  }, 180_000);

  it('answers bad calls with clear errors', async () => {
    const { apiKey } = await h.newTeam();
    const id = await scrape(apiKey);
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{}, 400, /Either 'code' or 'prompt' must be provided/],
      [{ code: '1', prompt: 'x' }, 400, /not both/],
      [{ code: '1', language: 'ruby' }, 400, /language must be one of node, python, bash/],
      [{ code: '1', timeout: 301 }, 400, /timeout must be at most 300 seconds/],
    ];
    for (const [body, status, message] of cases) {
      const res = await interact(apiKey, id, body);
      const json = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(json.error).toMatch(message);
    }
    expect((await interact(apiKey, '00000000-0000-0000-0000-000000000000', { code: '1' })).status).toBe(404);
    // Zero data retention: the page goes to no model that is not marked local.
    const zdr = await h.newTeam({ flags: { zeroDataRetention: true } });
    const zdrId = await scrape(zdr.apiKey, { zeroDataRetention: true });
    const refused = await interact(zdr.apiKey, zdrId, { prompt: 'what is the count?' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'MODEL_NOT_LOCAL', error: expect.stringContaining('LLM_IS_LOCAL') });
    expect(await h.db.browserSession.count({ where: { scrapeId: zdrId } })).toBe(0);
    expect(await h.db.browserSession.count({ where: { scrapeId: id } })).toBe(0);
  });

  it('says which setting a prompt needs on a server without a model', async () => {
    const { h: bare, site: bareSite } = await startSessionHarness({ '/': page('Bare', '<h1>bare</h1>') });
    try {
      const res = await bare.api('/v2/scrape', { method: 'POST', json: { url: `${bareSite.url}/` } });
      const id = (await res.json()).data.metadata.scrapeId;
      const answer = await bare.api(`/v2/scrape/${id}/interact`, { method: 'POST', json: { prompt: 'what is the title?' } });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ code: 'MODEL_NOT_CONFIGURED', error: expect.stringContaining('LLM_BASE_URL') });
    } finally {
      await bare.stop();
      await bareSite.close();
    }
  }, 120_000);
});

describe('official SDKs', () => {
  it('@mendable/firecrawl-js: interact, scrapeExecute, deleteScrapeBrowser', async () => {
    const { apiKey } = await h.newTeam();
    const client = new Firecrawl({ apiKey, apiUrl: h.baseUrl });
    const doc = await client.scrape(`${site.url}/counter`, { formats: ['markdown'], actions: [{ type: 'click', selector: '#more' }] });
    const id = doc.metadata!.scrapeId as string;
    expect(await client.interact(id, { code: "await page.textContent('#count')" })).toMatchObject({ success: true, result: '1', exitCode: 0 });
    expect(await client.scrapeExecute(id, { code: 'await page.title()' })).toMatchObject({ success: true, result: 'Counter' });
    expect(await client.deleteScrapeBrowser(id)).toMatchObject({ success: true, creditsBilled: expect.any(Number) });
  }, 120_000);

  it('Python firecrawl: interact, scrape_execute, stop_interaction', async () => {
    const { apiKey } = await h.newTeam();
    const run = await runPythonSdk('test/sdk/python_interact.py', { API_URL: h.baseUrl, API_KEY: apiKey, PAGE_URL: `${site.url}/counter` });
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.interact).toEqual([true, '1', 0]);
    expect(out.execute).toEqual([true, 'Counter\n', 0]);
    expect(out.stopped[0]).toBe(true);
  }, 120_000);
});
