// What happens to a crawl's data and the team's money: credits, the page
// cache, zero data retention, prompts, expiry and the purge, failed pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRetentionActivities } from '../../src/features/retention/activities.ts';
import { createLogger } from '../../src/platform/log.ts';
import { ensurePurgeSchedule, PURGE_SCHEDULE_ID } from '../../src/features/retention/purge-schedule.ts';
import { page, startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';

let h: Harness;
let site: FixtureSite;
let llm: FakeLlm;
let llmReply = '{}';

beforeAll(async () => {
  llm = await startFakeLlm();
  llm.script = () => llmReply;
  h = await startHarness({ llm: { baseUrl: llm.url, model: 'fake-model' } });
  await h.startWorker();
  site = await startFixtureSite({
    ...treeSite(6),
    '/p/5': page('Broken link', '<a href="/hang-up">hang up</a>'),
    '/hang-up': { hangUp: true },
  });
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
  await llm?.close();
});

async function run(json: Record<string, unknown>, key = h.apiKey) {
  const res = await h.api('/v2/crawl', { method: 'POST', json: { sitemap: 'skip', ...json }, key });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { start: body, status: await waitForCrawl(h, body.id, 120_000, key) };
}

describe('credits', () => {
  it('answers 402 when the team cannot pay for one page', async () => {
    const broke = await h.newTeam({ credits: 0 });
    const res = await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/` }, key: broke.apiKey });
    expect(res.status).toBe(402);
    expect((await res.json()).error).toMatch(/Insufficient credits/);
  });

  it('charges one credit per scraped page, once, and stops when the balance runs out', async () => {
    const team = await h.newTeam({ credits: 3 });
    const { start, status } = await run({ url: `${site.url}/`, scrapeOptions: { maxAge: 0 } }, team.apiKey);
    expect(status.status).toBe('completed');
    expect(status.completed).toBe(3);
    expect(status.creditsUsed).toBe(3);
    expect(status.warning).toMatch(/ran out of credits/);
    expect((await h.db.team.findUniqueOrThrow({ where: { id: team.teamId } })).creditBalance).toBe(0);
    const ledger = await h.db.usageEntry.findMany({ where: { jobId: start.id } });
    expect(ledger.map((e) => [e.credits, e.tokens])).toEqual([
      [1, 15],
      [1, 15],
      [1, 15],
    ]);
  });
});

describe('failed pages', () => {
  it('are listed by /errors, absent from data, and free of charge', async () => {
    const { start, status } = await run({ url: `${site.url}/`, scrapeOptions: { maxAge: 0 } });
    expect(status.completed).toBe(6);
    const errors = await (await h.api(`/v2/crawl/${start.id}/errors`)).json();
    expect(errors.errors).toHaveLength(1);
    expect(errors.errors[0]).toMatchObject({ url: `${site.url}/hang-up`, error: expect.stringMatching(/closed the connection without answering/) });
    expect(status.creditsUsed).toBe(6);
  });
});

describe('page cache', () => {
  it('serves a team’s second crawl from the cache (maxAge), never another team’s; maxAge 0 fetches again; minAge reads only the cache', async () => {
    const cached = await startFixtureSite(treeSite(3));
    try {
      const team = await h.newTeam();
      await run({ url: `${cached.url}/` }, team.apiKey);
      expect(cached.hits.get('/')).toBe(1);
      const again = await run({ url: `${cached.url}/` }, team.apiKey);
      expect(again.status.completed).toBe(3);
      expect(cached.hits.get('/')).toBe(1);
      await run({ url: `${cached.url}/` });
      expect(cached.hits.get('/')).toBe(2);
      await run({ url: `${cached.url}/`, scrapeOptions: { maxAge: 0 } }, team.apiKey);
      expect(cached.hits.get('/')).toBe(3);
      const tooFresh = await run({ url: `${cached.url}/`, scrapeOptions: { minAge: 3_600_000 } }, team.apiKey);
      expect(tooFresh.status.completed).toBe(0);
      expect(cached.hits.get('/')).toBe(3);
      const old = await run({ url: `${cached.url}/`, scrapeOptions: { minAge: 1 } }, team.apiKey);
      expect(old.status.completed).toBe(3);
      expect(cached.hits.get('/')).toBe(3);
    } finally {
      await cached.close();
    }
  });
});

describe('zero data retention', () => {
  it('is 403 without the team flag; with it content is handed out once, then erased, at 2 credits a page', async () => {
    expect((await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, zeroDataRetention: true } })).status).toBe(403);
    const team = await h.newTeam({ flags: { zeroDataRetention: true } });
    const res = await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/p/1`, zeroDataRetention: true, sitemap: 'skip' }, key: team.apiKey });
    const { id } = await res.json();
    // Polling the status would consume the documents: wait on the row instead.
    await waitFor('the crawl to end', async () => (await h.db.job.findUniqueOrThrow({ where: { id } })).status !== 'scraping');
    const status = await (await h.api(`/v2/crawl/${id}`, { key: team.apiKey })).json();
    expect(status.completed).toBeGreaterThan(0);
    expect(status.data).toHaveLength(status.completed as number);
    expect(status.data[0].markdown).toContain('Content of page');
    expect(status.creditsUsed).toBe(2 * (status.completed as number));
    const second = await (await h.api(`/v2/crawl/${id}`, { key: team.apiKey })).json();
    expect(second.data).toEqual([]);
    const rows = await h.db.jobPage.findMany({ where: { jobId: id, success: true } });
    expect(rows.every((r) => r.purgedAt !== null && JSON.stringify(r.document) === '{}')).toBe(true);
    expect(await h.db.pageCache.count({ where: { teamId: team.teamId } })).toBe(0);
  });
});

describe('prompt', () => {
  it('turns the prompt into options with the configured LLM; explicit options win', async () => {
    llmReply = JSON.stringify({ includePaths: ['^/p/1$', '^/$'], limit: 2, sitemap: 'skip', notAnOption: true });
    const { start, status } = await run({ url: `${site.url}/`, prompt: 'only the first child page', limit: 5 });
    expect(start.promptGeneratedOptions).toEqual({ includePaths: ['^/p/1$', '^/$'], limit: 2, sitemap: 'skip' });
    expect(start.finalCrawlerOptions).toMatchObject({ includePaths: ['^/p/1$', '^/$'], limit: 5 });
    expect(status.data.map((d) => new URL(d.metadata.sourceURL).pathname).sort()).toEqual(['/', '/p/1']);
    expect(JSON.stringify(llm.requests.at(-1))).toContain('only the first child page');
  });

  it('answers 400 naming the problem when the LLM produces an invalid pattern', async () => {
    llmReply = JSON.stringify({ includePaths: ['(unclosed'] });
    const res = await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, prompt: 'anything' } });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/includePaths/);
  });
});

describe('summary', () => {
  it('is written by the configured LLM from the page', async () => {
    llmReply = 'The LLM summary of this page.';
    const before = llm.requests.length;
    const { status } = await run({ url: `${site.url}/p/1`, limit: 1, scrapeOptions: { formats: ['summary'], maxAge: 0 } });
    expect(status.data).toHaveLength(1);
    expect(status.data[0].summary).toBe('The LLM summary of this page.');
    expect(status.data[0]).not.toHaveProperty('markdown');
    expect(llm.requests).toHaveLength(before + 1);
    expect(JSON.stringify(llm.requests.at(-1))).toContain('Content of page 1.');
  });
});

describe('expiry', () => {
  it('answers 404 once a crawl expired, and the scheduled purge deletes it', async () => {
    const { start } = await run({ url: `${site.url}/p/2` });
    expect((await h.api(`/v2/crawl/${start.id}`)).status).toBe(200);
    await h.db.job.update({ where: { id: start.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const gone = await h.api(`/v2/crawl/${start.id}`);
    expect(gone.status).toBe(404);
    expect((await h.api(`/v2/crawl/${start.id}/errors`)).status).toBe(404);
    const { purgeExpired } = createRetentionActivities({ db: h.db, config: h.config, log: createLogger('warn') });
    expect((await purgeExpired()).crawls).toBeGreaterThanOrEqual(1);
    expect(await h.db.job.findUnique({ where: { id: start.id } })).toBeNull();
    expect(await h.db.jobPage.count({ where: { jobId: start.id } })).toBe(0);
    // The bill outlives the data.
    expect(await h.db.usageEntry.count({ where: { jobId: start.id } })).toBeGreaterThan(0);
  });

  it('the purge runs on a Temporal schedule the worker creates', async () => {
    await ensurePurgeSchedule(h.temporal, h.config);
    await ensurePurgeSchedule(h.temporal, h.config);
    const schedule = await h.temporal.schedule.getHandle(PURGE_SCHEDULE_ID).describe();
    expect(schedule.action).toMatchObject({ type: 'startWorkflow', workflowType: 'purgeExpiredWorkflow', taskQueue: h.config.temporal.taskQueue });
    expect(schedule.spec.intervals?.[0].every).toBe(h.config.crawl.purgeIntervalMinutes * 60_000);
  });
});
