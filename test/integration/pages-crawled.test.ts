// The PagesCrawled search attribute of a crawl's workflow: the pages the crawl stored
// successfully (the `completed` of GET /v2/crawl/{id}), however the crawl ended. A
// cancelled crawl's batches never report to the workflow, yet their pages count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newJobWorkflowId } from '../../src/jobs/definitions.ts';
import { PagesCrawledAttribute } from '../../src/platform/temporal/search-attribute-keys.ts';
import { page, startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';

let h: Harness;
let slow: FixtureSite;
let broken: FixtureSite;

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  // Slow enough that the crawl is still in its first batch when it is cancelled.
  slow = await startFixtureSite(treeSite(40), { delayMs: (path) => (path === '/' ? 0 : 500) });
  broken = await startFixtureSite({
    ...treeSite(3),
    '/p/2': page('Broken link', '<a href="/hang-up">hang up</a>'),
    '/hang-up': { hangUp: true },
  });
});

afterAll(async () => {
  await slow?.close();
  await broken?.close();
  await h?.stop();
});

/** Waits for the crawl's workflow to close and returns its status and PagesCrawled. */
async function endedWorkflow(crawlId: string) {
  const handle = h.temporal.workflow.getHandle(newJobWorkflowId('crawl', crawlId));
  await handle.result().catch(() => undefined);
  const description = await handle.describe();
  return { status: description.status.name, pagesCrawled: description.typedSearchAttributes.get(PagesCrawledAttribute) };
}

const storedPages = (crawlId: string) => h.db.jobPage.count({ where: { jobId: crawlId, success: true } });

describe('PagesCrawled', () => {
  it('of a crawl cancelled while its batch runs is the pages it stored', async () => {
    const { id } = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${slow.url}/`, sitemap: 'skip', limit: 100 } })).json();
    await waitFor('a few pages stored', async () => (await storedPages(id)) >= 3, 60_000);
    expect(await (await h.api(`/v2/crawl/${id}`, { method: 'DELETE' })).json()).toEqual({ success: true, status: 'cancelled' });

    const { status, pagesCrawled } = await endedWorkflow(id);
    expect(status).toBe('CANCELLED');
    const stored = await storedPages(id);
    expect(stored).toBeGreaterThanOrEqual(3);
    expect(stored).toBeLessThan(40);
    expect(pagesCrawled).toBe(stored);
  });

  it('of a completed crawl leaves its failed pages out, as `completed` does', async () => {
    const { id } = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${broken.url}/`, sitemap: 'skip', limit: 100 } })).json();
    const body = await waitForCrawl(h, id);
    expect(body).toMatchObject({ status: 'completed', completed: 3 });
    expect(await h.db.jobPage.count({ where: { jobId: id, success: false } })).toBe(1);

    const { status, pagesCrawled } = await endedWorkflow(id);
    expect(status).toBe('COMPLETED');
    expect(pagesCrawled).toBe(3);
  });
});
