// A single scrape whose page is in the page cache is answered by the gateway without a workflow
// (src/jobs/cached-scrape.ts): its answer is the one the workflow gives for the same cached copy,
// field by field; its job, page, charge and activity log row are written together; it starts no
// workflow; its idempotency key answers with it; and what the gateway may not answer alone goes
// through the workflow as before.
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import { createLogger } from '../../src/platform/log.ts';
import { scrapeRequestSchema } from '../../src/page/scrape-request.ts';
import { awaitScrape, commitScrape, prepareScrape, scrapeAnswerOf } from '../../src/jobs/scrape-job.ts';
import { newJobWorkflowId } from '../../src/jobs/definitions.ts';

let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  site = await startFixtureSite({
    '/': page('Home', '<main><h1>Hello</h1><p>Some text, <a href="/a">a link</a> and <img src="/i.png" alt="an image">.</p></main>'),
    '/b': page('Page B', '<main><h1>B</h1><p>Bee.</p></main>'),
    '/c': page('Page C', '<main><h1>C</h1></main>'),
  });
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

const scrape = (json: Record<string, unknown>, headers: Record<string, string> = {}) => h.api('/v2/scrape', { method: 'POST', json, headers });

/** The workflow's answer to the same request: its job committed and waited for as the route did before the gateway answered alone. */
async function throughWorkflow(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const deps = { db: h.db, temporal: h.temporal, config: h.config, log: createLogger('warn') };
  const team = await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } });
  const key = await h.db.apiKey.findFirstOrThrow({ where: { teamId: h.teamId } });
  const prepared = await prepareScrape(deps, team, scrapeRequestSchema.parse(body), h.config.scrape.pageBudgetMs);
  const job = await commitScrape(deps, team, key.id, prepared);
  await awaitScrape(deps, job, 60_000);
  return scrapeAnswerOf(h.db, job.id);
}

const withoutId = (data: { metadata: Record<string, unknown> }) => ({ ...data, metadata: { ...data.metadata, scrapeId: undefined } });

async function workflowExists(id: string): Promise<boolean> {
  try {
    await h.temporal.workflow.getHandle(newJobWorkflowId('scrape', id)).describe();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

describe('a scrape answered from the page cache', () => {
  it('answers as the workflow does for the same cached copy, field by field, and writes its job, page, charge and activity together', async () => {
    const formats = ['markdown', 'html', 'rawHtml', 'links', 'images'];
    const fresh = await scrape({ url: `${site.url}/`, formats, maxAge: 0 });
    expect(fresh.status).toBe(200);
    const hits = site.hits.get('/');

    const balance = async () => (await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } })).creditBalance;
    const before = await balance();
    const res = await scrape({ url: `${site.url}/`, formats });
    expect(res.status).toBe(200);
    const body = await res.json();
    const id = body.data.metadata.scrapeId as string;
    expect(await balance()).toBe(before - 1);

    const workflow = await throughWorkflow({ url: `${site.url}/`, formats });
    // Neither fetched the page again.
    expect(site.hits.get('/')).toBe(hits);
    expect(Object.keys(body.data).sort()).toEqual(Object.keys(workflow).sort());
    for (const field of Object.keys(workflow)) {
      if (field === 'metadata') continue;
      expect(body.data[field], field).toEqual(workflow[field]);
    }
    const metadata = workflow.metadata as Record<string, unknown>;
    expect(Object.keys(body.data.metadata).sort()).toEqual(Object.keys(metadata).sort());
    for (const field of Object.keys(metadata)) if (field !== 'scrapeId') expect(body.data.metadata[field], `metadata.${field}`).toEqual(metadata[field]);
    expect(withoutId(body.data)).toEqual(withoutId(workflow as { metadata: Record<string, unknown> }));

    // Its job: ended, answered by the gateway, with no workflow in Temporal; read back by id as it was answered.
    const job = await h.db.job.findUniqueOrThrow({ where: { id } });
    expect(job).toMatchObject({ kind: 'scrape', status: 'completed', workflowStartedAt: null });
    expect(job.answeredFromCacheAt).toBeInstanceOf(Date);
    expect(job.expiresAt).toBeInstanceOf(Date);
    expect(await workflowExists(id)).toBe(false);
    expect(await (await h.api(`/v2/scrape/${id}`)).json()).toEqual({ success: true, data: body.data });
    expect(await h.db.jobPage.count({ where: { jobId: id, success: true } })).toBe(1);
    expect(await h.db.jobUrl.findMany({ where: { jobId: id }, select: { state: true } })).toEqual([{ state: 'done' }]);
    expect(await h.db.usageEntry.findMany({ where: { jobId: id }, select: { endpoint: true, credits: true } })).toEqual([{ endpoint: 'scrape', credits: 1 }]);
    expect(await h.db.activityLog.findMany({ where: { jobId: id }, select: { endpoint: true, statusCode: true, target: true } })).toEqual([
      { endpoint: 'scrape', statusCode: 200, target: `${site.url}/` },
    ]);
    // The workflow's scrape of the same copy has its workflow, as every scrape not answered alone.
    expect(await workflowExists(metadata.scrapeId as string)).toBe(true);
  });

  it('answers the same idempotency key with its first answer, and a second scrape of the same request is its own', async () => {
    await scrape({ url: `${site.url}/b`, maxAge: 0 });
    const headers = { 'x-idempotency-key': 'cached-b' };
    const first = await scrape({ url: `${site.url}/b` }, headers);
    const repeat = await scrape({ url: `${site.url}/b` }, headers);
    expect(first.status).toBe(200);
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    const body = await first.json();
    expect(await repeat.json()).toEqual(body);
    const id = body.data.metadata.scrapeId as string;
    expect((await h.db.job.findUniqueOrThrow({ where: { id } })).answeredFromCacheAt).toBeInstanceOf(Date);
    expect(await h.db.usageEntry.count({ where: { jobId: id } })).toBe(1);
    // The same body without the key: a new scrape (answered from the cache again), as before.
    const other = await (await scrape({ url: `${site.url}/b` })).json();
    expect(other.data.metadata.scrapeId).not.toBe(id);
    expect(other.data.markdown).toBe(body.data.markdown);
  });

  it('leaves to the workflow what it may not answer alone, and what the cache does not hold', async () => {
    await scrape({ url: `${site.url}/c`, maxAge: 0 });
    // Not cached for these options (a cached copy holds what the browser saw with them): fetched by the workflow.
    const mobile = await (await scrape({ url: `${site.url}/c`, mobile: true })).json();
    expect(await workflowExists(mobile.data.metadata.scrapeId)).toBe(true);
    // Zero data retention never reads the cache.
    const team = await h.newTeam({ flags: { zeroDataRetention: true } });
    const zdr = await h.api('/v2/scrape', { method: 'POST', key: team.apiKey, json: { url: `${site.url}/c`, zeroDataRetention: true } });
    const zdrBody = await zdr.json();
    expect(zdr.status, JSON.stringify(zdrBody)).toBe(200);
    expect(await workflowExists(zdrBody.data.metadata.scrapeId)).toBe(true);
  });
});
