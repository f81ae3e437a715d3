// Team usage and activity against the real gateway and PostgreSQL: monthly history from the
// ledger's summary (UTC month boundaries, several keys, a revoked key), balances, queue status,
// the 24-hour activity listing and its cursor, and both official SDKs' usage calls.
import { randomUUID } from 'node:crypto';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../src/platform/teams/teams.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import { runPythonSdk } from '../support/python-sdk.ts';

let h: Harness;
// Every JSON answer of the gateway, checked against the OpenAPI document at the end.
const recorded: RecordedResponse[] = [];

beforeAll(async () => {
  h = await startHarness({ recordResponses: recorded });
});

afterAll(async () => {
  await h?.stop();
});

/** A ledger row as a charge writes it, at a chosen time (the summary's trigger places it in its month). */
async function ledger(teamId: string, apiKeyId: string | null, credits: number, at: string) {
  await h.db.$executeRaw`
    INSERT INTO usage_entry (team_id, api_key_id, endpoint, job_id, item_key, credits, tokens, created_at)
    VALUES (${teamId}::uuid, ${apiKeyId}::uuid, 'crawl', ${randomUUID()}, 'page', ${credits}, ${credits * 15}, ${new Date(at)})`;
}

function monthsFrom(first: string): string[] {
  const months: string[] = [];
  const now = new Date();
  for (let m = new Date(first); m <= now; m = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1))) months.push(m.toISOString());
  return months;
}

describe('usage history', () => {
  it('sums by UTC month from the first usage to now, ascending, by key with revoked keys kept', async () => {
    const team = await h.newTeam();
    const alpha = await issueApiKey(h.db, team.teamId, 'alpha');
    const beta = await issueApiKey(h.db, team.teamId, 'beta');
    await ledger(team.teamId, alpha.id, 3, '2026-08-31T23:59:59.999Z');
    await ledger(team.teamId, alpha.id, 4, '2026-09-01T00:00:00.000Z');
    await ledger(team.teamId, beta.id, 5, '2026-09-30T12:00:00.000Z');
    await ledger(team.teamId, null, 2, '2026-10-15T00:00:00.000Z');
    await h.db.apiKey.update({ where: { id: alpha.id }, data: { revokedAt: new Date() } });

    const months = monthsFrom('2026-08-01T00:00:00.000Z');
    const plain = await (await h.api('/v2/team/credit-usage/historical', { key: team.apiKey })).json();
    expect(plain.success).toBe(true);
    expect(plain.periods.map((p: { startDate: string }) => p.startDate)).toEqual(months);
    expect(plain.periods.slice(0, 3)).toEqual([
      { startDate: '2026-08-01T00:00:00.000Z', endDate: '2026-09-01T00:00:00.000Z', creditsUsed: 3, totalCredits: 3 },
      { startDate: '2026-09-01T00:00:00.000Z', endDate: '2026-10-01T00:00:00.000Z', creditsUsed: 9, totalCredits: 9 },
      { startDate: '2026-10-01T00:00:00.000Z', endDate: '2026-11-01T00:00:00.000Z', creditsUsed: 2, totalCredits: 2 },
    ]);

    const byKey = await (await h.api('/v2/team/credit-usage/historical?byApiKey=true', { key: team.apiKey })).json();
    const rows = byKey.periods.map((p: { startDate: string; apiKey: string | null; creditsUsed: number }) => [
      p.startDate.slice(0, 7),
      p.apiKey,
      p.creditsUsed,
    ]);
    expect(rows.slice(0, 9)).toEqual([
      ['2026-08', null, 0],
      ['2026-08', 'alpha', 3],
      ['2026-08', 'beta', 0],
      ['2026-09', null, 0],
      ['2026-09', 'alpha', 4],
      ['2026-09', 'beta', 5],
      ['2026-10', null, 2],
      ['2026-10', 'alpha', 0],
      ['2026-10', 'beta', 0],
    ]);
    expect(rows).toHaveLength(months.length * 3);

    const tokens = await (await h.api('/v2/team/token-usage/historical', { key: team.apiKey })).json();
    expect(tokens.periods[1]).toMatchObject({ startDate: '2026-09-01T00:00:00.000Z', tokensUsed: 135, totalTokens: 135 });
    expect((await h.api('/v2/team/credit-usage/historical?byApiKey=yes', { key: team.apiKey })).status).toBe(400);
  });

  it('answers an empty history for a team that never charged, and the live balance', async () => {
    const team = await h.newTeam({ credits: 77 });
    expect(await (await h.api('/v2/team/credit-usage/historical', { key: team.apiKey })).json()).toEqual({ success: true, periods: [] });
    const credits = await (await h.api('/v2/team/credit-usage', { key: team.apiKey })).json();
    const now = new Date();
    expect(credits).toEqual({
      success: true,
      data: {
        remainingCredits: 77,
        planCredits: null,
        billingPeriodStart: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
        billingPeriodEnd: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      },
    });
    const tokens = await (await h.api('/v2/team/token-usage', { key: team.apiKey })).json();
    expect(tokens.data).toMatchObject({ remainingTokens: 77 * 15, planTokens: null });
    await h.db.team.update({ where: { id: team.teamId }, data: { planCredits: 1000 } });
    expect((await (await h.api('/v2/team/credit-usage', { key: team.apiKey })).json()).data.planCredits).toBe(1000);
    expect((await (await h.api('/v2/team/token-usage', { key: team.apiKey })).json()).data.planTokens).toBe(15_000);
  });
});

describe('queue status and concurrency', () => {
  it('counts running jobs with a live slot as active and the others as waiting', async () => {
    const team = await h.newTeam({ concurrencyLimit: 3 });
    const idle = await (await h.api('/v2/team/queue-status', { key: team.apiKey })).json();
    expect(idle).toEqual({ success: true, jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0, maxConcurrency: 3, mostRecentSuccess: null });
    const [running, waiting] = [randomUUID(), randomUUID()];
    for (const id of [running, waiting]) {
      await h.db.job.create({ data: { id, teamId: team.teamId, url: 'http://example.com/', options: { url: 'http://example.com/' }, status: 'scraping' } });
    }
    await h.db.job.create({ data: { id: randomUUID(), teamId: team.teamId, url: 'http://example.com/', options: {}, status: 'completed' } });
    await h.db.teamSlot.createMany({
      data: [
        { teamId: team.teamId, slot: 0, holder: 'page-a', holderGroup: running, leasedUntil: new Date(Date.now() + 60_000) },
        { teamId: team.teamId, slot: 1, holder: 'page-b', holderGroup: running, leasedUntil: new Date(Date.now() + 60_000) },
        { teamId: team.teamId, slot: 2, holder: 'page-c', holderGroup: waiting, leasedUntil: new Date(Date.now() - 1000) },
      ],
    });
    await ledger(team.teamId, null, 1, '2026-11-02T10:00:00.000Z');
    const status = await (await h.api('/v2/team/queue-status', { key: team.apiKey })).json();
    expect(status).toEqual({
      success: true,
      jobsInQueue: 2,
      activeJobsInQueue: 1,
      waitingJobsInQueue: 1,
      maxConcurrency: 3,
      mostRecentSuccess: '2026-11-02T10:00:00.000Z',
    });
    expect(await (await h.api('/v2/concurrency-check', { key: team.apiKey })).json()).toEqual({ success: true, concurrency: 2, maxConcurrency: 3 });
  });
});

describe('activity', () => {
  async function activity(key: string, query = '') {
    return h.api(`/v2/team/activity${query}`, { key });
  }

  it('lists job-creating requests with their job ids, not status polls, newest first', async () => {
    const team = await h.newTeam();
    const started = await (await h.api('/v2/crawl', { key: team.apiKey, method: 'POST', json: { url: 'http://127.0.0.1:9/logged', limit: 1 } })).json();
    await h.api(`/v2/crawl/${started.id}`, { key: team.apiKey });
    const refused = await h.api('/v2/crawl', { key: team.apiKey, method: 'POST', json: { url: 'http://a.test', limit: 0 } });
    expect(refused.status).toBe(400);
    const body = await (await activity(team.apiKey)).json();
    expect(body.success).toBe(true);
    expect(body.has_more).toBe(false);
    expect(body.cursor).toBeNull();
    expect(body.data).toHaveLength(2);
    expect(body.data[1]).toMatchObject({ id: started.id, endpoint: 'crawl', api_version: 'v2', target: 'http://127.0.0.1:9/logged' });
    expect(body.data[0]).toMatchObject({ endpoint: 'crawl', target: 'http://a.test' });
    const rows = await h.db.activityLog.findMany({ where: { teamId: team.teamId }, orderBy: { createdAt: 'asc' } });
    expect(rows.map((r) => [r.jobId, r.statusCode])).toEqual([
      [started.id, 200],
      [null, 400],
    ]);
    expect(rows.every((r) => typeof r.durationMs === 'number' && r.durationMs >= 0)).toBe(true);
    expect((await (await h.api(`/v2/crawl/${started.id}`, { key: team.apiKey })).json()).success).toBe(true);
  });

  it('filters by endpoint, keeps to the past 24 hours, and refuses unknown filters and tampered cursors', async () => {
    const team = await h.newTeam();
    const now = Date.now();
    await h.db.activityLog.createMany({
      data: [
        {
          id: randomUUID(),
          teamId: team.teamId,
          endpoint: 'crawl',
          apiVersion: 'v2',
          method: 'POST',
          path: '/v2/crawl',
          target: 'http://fresh.test',
          createdAt: new Date(now - 60_000),
        },
        {
          id: randomUUID(),
          teamId: team.teamId,
          endpoint: 'map',
          apiVersion: 'v2',
          method: 'POST',
          path: '/v2/map',
          target: 'http://map.test',
          createdAt: new Date(now - 30_000),
        },
        {
          id: randomUUID(),
          teamId: team.teamId,
          endpoint: 'crawl',
          apiVersion: 'v2',
          method: 'POST',
          path: '/v2/crawl',
          target: 'http://old.test',
          createdAt: new Date(now - 25 * 3_600_000),
        },
      ],
    });
    const all = await (await activity(team.apiKey)).json();
    expect(all.data.map((r: { target: string }) => r.target)).toEqual(['http://map.test', 'http://fresh.test']);
    const crawls = await (await activity(team.apiKey, '?endpoint=crawl')).json();
    expect(crawls.data.map((r: { target: string }) => r.target)).toEqual(['http://fresh.test']);
    const unknown = await activity(team.apiKey, '?endpoint=crawls');
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toContain(
      'Invalid endpoint filter. Must be one of: scrape, crawl, batch_scrape, search, extract, llmstxt, deep_research, map, agent, browser, interact',
    );
    for (const cursor of [
      'x',
      'bm90IGEgY3Vyc29y',
      Buffer.from(`2026-11-01T00:00:00.000Z|${randomUUID()}|x`).toString('base64url'),
      Buffer.from('yesterday|1').toString('base64url'),
      '%00',
    ]) {
      const res = await activity(team.apiKey, `?cursor=${cursor}`);
      expect(res.status, cursor).toBe(400);
      expect((await res.json()).error).toContain('Invalid cursor.');
    }
    for (const limit of ['0', '101', 'x', '1.5']) expect((await activity(team.apiKey, `?limit=${limit}`)).status).toBe(400);
    const other = await h.newTeam();
    expect((await (await activity(other.apiKey)).json()).data).toEqual([]);
  });

  it('walks 250 records by cursor without gaps or repeats while new requests arrive', async () => {
    const team = await h.newTeam();
    const base = Date.now() - 3_600_000;
    // Pairs share a timestamp, so the order within one comes from the id.
    const seeded = Array.from({ length: 250 }, (_, i) => ({
      id: randomUUID(),
      teamId: team.teamId,
      endpoint: i % 3 === 0 ? 'map' : 'crawl',
      apiVersion: 'v2',
      method: 'POST',
      path: '/v2/crawl',
      target: `http://t${i}.test`,
      createdAt: new Date(base + Math.floor(i / 2) * 1000),
    }));
    await h.db.activityLog.createMany({ data: seeded });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await activity(team.apiKey, `?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      const body = await res.json();
      seen.push(...body.data.map((r: { id: string }) => r.id));
      expect(body.has_more).toBe(body.cursor !== null);
      cursor = body.cursor;
      // A request of the team arrives between pages: it is newer than every cursor.
      await h.api('/v2/crawl', { key: team.apiKey, method: 'POST', json: { url: 'http://a.test', limit: 0 } });
      pages++;
    } while (cursor);
    const fresh = (await h.db.activityLog.findMany({ where: { teamId: team.teamId, target: 'http://a.test' } })).map((r) => r.id);
    const expected = [...seeded].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((r) => r.id);
    expect(seen.filter((id) => !fresh.includes(id))).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
    expect(pages).toBeGreaterThanOrEqual(36);
  });
});

describe('official SDKs', () => {
  it('JS: getCreditUsage, getTokenUsage, the histories, getQueueStatus and getConcurrency', async () => {
    const team = await h.newTeam({ credits: 500, concurrencyLimit: 2 });
    await ledger(team.teamId, null, 6, new Date().toISOString());
    const client = new Firecrawl({ apiKey: team.apiKey, apiUrl: h.baseUrl });
    expect((await client.getCreditUsage()).remainingCredits).toBe(500);
    expect((await client.getTokenUsage()).remainingTokens).toBe(7500);
    const credits = await client.getCreditUsageHistorical(true);
    expect(credits.periods.map((p) => [p.apiKey, p.creditsUsed])).toEqual([[null, 6]]);
    const tokens = await client.getTokenUsageHistorical();
    expect(tokens.periods.map((p) => p.tokensUsed)).toEqual([90]);
    expect(await client.getQueueStatus()).toMatchObject({ success: true, jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0, maxConcurrency: 2 });
    expect(await client.getConcurrency()).toEqual({ concurrency: 0, maxConcurrency: 2 });
  });

  it('Python: get_credit_usage, get_token_usage, the histories, get_queue_status and get_concurrency', async () => {
    const team = await h.newTeam({ credits: 40, concurrencyLimit: 5 });
    const key = await h.db.apiKey.findFirstOrThrow({ where: { teamId: team.teamId } });
    await ledger(team.teamId, key.id, 4, new Date().toISOString());
    const out = await runPythonSdk('test/sdk/python_usage.py', { API_URL: h.baseUrl, API_KEY: team.apiKey });
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result).toMatchObject({ remaining_credits: 40, remaining_tokens: 600, queue: [0, 0, 0, 5], concurrency: [0, 5] });
    expect(result.credit_periods.map((p: unknown[]) => p.slice(1))).toEqual([[key.name, 4]]);
    expect(result.token_periods.map((p: unknown[]) => p[1])).toEqual([60]);
    expect(result.most_recent_success).not.toBeNull();
  });
});

it('every answer is as the OpenAPI document (/v2/openapi.json) says', async () => {
  // How many depends on polling; only that the recorder saw answers is certain.
  expect(recorded.length).toBeGreaterThan(0);
  expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
});
