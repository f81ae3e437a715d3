// A job started before the engine was named for what it is: workflow type crawlWorkflow, workflow
// id crawl-<id> whatever its kind, and a row without a workflow_id. This release's worker runs it
// (crawlWorkflow is still registered) and this release's gateway finds it for its status and its
// cancel (a row without workflow_id is the legacy crawl-<id>), on the real Temporal and PostgreSQL.
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchScrapeOptions, batchScrapeRequestSchema } from '../../src/jobs/batch-request.ts';
import { JOB_WORKFLOW_TYPE, LEGACY_JOB_WORKFLOW_TYPE } from '../../src/jobs/job-workflow-options.ts';
import { jobOptions, seedRow } from '../../src/jobs/job-options.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';

let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  site = await startFixtureSite(
    {
      ...Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`/fast/${i}`, page(`Fast ${i}`, `<p>fast ${i}</p>`)])),
      ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`/slow/${i}`, page(`Slow ${i}`, `<p>slow ${i}</p>`)])),
    },
    { delayMs: (path) => (path.startsWith('/slow') ? 3000 : 0) },
  );
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

/** A batch scrape as the previous release committed and started it: no workflow_id, crawlWorkflow under crawl-<id>. */
async function legacyBatch(paths: string[]): Promise<string> {
  const id = uuidv7();
  const urls = paths.map((p) => `${site.url}${p}`);
  const req = batchScrapeRequestSchema.parse({ urls });
  const options = jobOptions({ url: urls[0], scrapeOptions: batchScrapeOptions(req), zeroDataRetention: req.zeroDataRetention });
  await h.db.job.create({
    data: {
      id,
      teamId: h.teamId,
      apiKeyId: null,
      url: urls[0],
      options: options as object,
      status: 'scraping',
      taskQueue: h.config.temporal.taskQueue,
      kind: 'batch_scrape',
    },
  });
  await h.db.jobUrl.createMany({
    data: urls.map((url) => {
      const seeded = seedRow(url, h.config);
      if (!('row' in seeded)) throw new Error(seeded.problem);
      return { jobId: id, url: seeded.row.url, urlKey: seeded.row.urlKey, depth: seeded.row.depth };
    }),
  });
  await h.temporal.workflow.start(LEGACY_JOB_WORKFLOW_TYPE, { workflowId: `crawl-${id}`, taskQueue: h.config.temporal.taskQueue, args: [{ crawlId: id }] });
  await h.db.job.update({ where: { id }, data: { workflowStartedAt: new Date() } });
  return id;
}

const status = async (id: string) => (await h.api(`/v2/batch/scrape/${id}`)).json();
const workflowOf = (id: string) => h.temporal.workflow.getHandle(`crawl-${id}`).describe();

describe('a job started before the upgrade', () => {
  it('completes on the new worker, its status read through the legacy workflow id', { timeout: 30_000 }, async () => {
    const id = await legacyBatch(['/fast/0', '/fast/1', '/fast/2']);
    const ended = await waitFor(`legacy batch ${id}`, async () => {
      const body = await status(id);
      return body.status !== 'scraping' ? body : undefined;
    });
    expect(ended).toMatchObject({ status: 'completed', completed: 3, total: 3 });
    // The row is written completed by the workflow's last activity, a moment before the workflow closes.
    const described = await waitFor('the legacy workflow closed', async () => {
      const d = await workflowOf(id);
      return d.status.name !== 'RUNNING' && d;
    });
    expect({ type: described.type, status: described.status.name }).toEqual({ type: LEGACY_JOB_WORKFLOW_TYPE, status: 'COMPLETED' });
    expect((await h.db.job.findUniqueOrThrow({ where: { id } })).workflowId).toBeNull();
  });

  it('is cancelled by DELETE /v2/batch/scrape/{id}: the gateway finds crawl-<id> from the row without a workflow id', { timeout: 30_000 }, async () => {
    const id = await legacyBatch(['/slow/0', '/slow/1', '/slow/2', '/slow/3']);
    await waitFor('the legacy workflow to run', async () => (await workflowOf(id)).status.name === 'RUNNING');
    const cancelled = await h.api(`/v2/batch/scrape/${id}`, { method: 'DELETE' });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ success: true });
    await waitFor('the legacy workflow to end', async () => (await workflowOf(id)).status.name !== 'RUNNING');
    expect((await workflowOf(id)).status.name).toBe('CANCELLED');
    expect((await status(id)).status).toBe('cancelled');
  });

  it('while a new job gets a workflow id naming its kind and runs as jobWorkflow', { timeout: 30_000 }, async () => {
    const res = await h.api('/v2/batch/scrape', { method: 'POST', json: { urls: [`${site.url}/fast/0`] } });
    const { id } = await res.json();
    expect((await h.db.job.findUniqueOrThrow({ where: { id } })).workflowId).toBe(`batch-scrape-${id}`);
    const handle = h.temporal.workflow.getHandle(`batch-scrape-${id}`);
    await handle.result();
    expect((await handle.describe()).type).toBe(JOB_WORKFLOW_TYPE);
  });
});
