// An 800-page crawl to completion: every run of the workflow stays far from
// Temporal's history limits (it continues as new), every page is stored once,
// and paging through the status with `next` hands out every page exactly once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newJobWorkflowId } from '../../src/jobs/definitions.ts';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitForCrawl, type Harness } from '../support/harness.ts';

const PAGES = 800;
let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  // A small history budget makes the crawl continue as new several times.
  h = await startHarness({ crawl: { batchSize: 25, pagesPerBrowser: 4, historyEventBudget: 150 } });
  await h.startWorker();
  site = await startFixtureSite(treeSite(PAGES));
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

it('crawls 800 pages with bounded history and pages through them exactly once', async () => {
  const { teamId, apiKey } = await h.newTeam({ concurrencyLimit: 8 });
  const res = await h.api('/v2/crawl', { method: 'POST', key: apiKey, json: { url: `${site.url}/`, limit: PAGES, sitemap: 'skip' } });
  const { id } = await res.json();
  const status = await waitForCrawl(h, id, 900_000, apiKey);
  expect(status.status, (await h.db.job.findUniqueOrThrow({ where: { id } })).error ?? '').toBe('completed');
  expect(status.completed).toBe(PAGES);
  expect(await h.db.jobPage.count({ where: { jobId: id } })).toBe(PAGES);
  for (let i = 0; i < PAGES; i++) expect(site.hits.get(i === 0 ? '/' : `/p/${i}`)).toBe(1);
  expect(teamId).toBeTruthy();

  // Every run of the workflow chain, oldest last.
  const runs: number[] = [];
  for await (const wf of h.temporal.workflow.list({ query: `WorkflowId = '${newJobWorkflowId('crawl', id)}'` })) {
    const history = await h.temporal.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
    runs.push(history.events?.length ?? 0);
  }
  expect(runs.length).toBeGreaterThan(1);
  for (const events of runs) expect(events).toBeLessThan(10_000);

  // The SDK way: follow `next` from the first page until it disappears.
  const seen = new Map<string, number>();
  let url: string | undefined = `/v2/crawl/${id}?limit=300`;
  let pages = 0;
  while (url) {
    const body = await (await h.api(url.replace(h.baseUrl, ''), { key: apiKey })).json();
    for (const doc of body.data) seen.set(doc.metadata.sourceURL, (seen.get(doc.metadata.sourceURL) ?? 0) + 1);
    url = body.next;
    if (++pages > 20) throw new Error('next never disappeared');
  }
  expect(seen.size).toBe(PAGES);
  expect([...seen.values()].every((n) => n === 1)).toBe(true);
}, 900_000);
