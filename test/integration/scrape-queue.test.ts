// Single scrapes run their batch on a queue of their own (crawl-scrape, WORKER_SCRAPE_SLOTS): with
// the worker's only browser slot held by another team's batch of slow pages, scrapes of two teams
// are answered while that batch still runs, instead of waiting for the slot (issues 43 and 44).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';
import { nothingHeld } from '../support/load-snapshot.ts';
import { jobWorkflowId } from '../../src/jobs/definitions.ts';

const SLOW_PAGES = 6;
const SLOW_MS = 1500;

let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  h = await startHarness({ worker: { browserSlots: 1 } });
  await h.startWorker();
  site = await startFixtureSite(
    {
      ...Object.fromEntries(Array.from({ length: SLOW_PAGES }, (_, i) => [`/slow/${i}`, page(`Slow ${i}`, `<p>${i}</p>`)])),
      ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`/quick/${i}`, page(`Quick ${i}`, `<p>quick ${i}</p>`)])),
    },
    { delayMs: (path) => (path.startsWith('/slow') ? SLOW_MS : 0) },
  );
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

it("answers single scrapes while a crawl's batch holds the worker's only browser slot", async () => {
  const urls = Array.from({ length: SLOW_PAGES }, (_, i) => `${site.url}/slow/${i}`);
  const batch = await (await h.api('/v2/batch/scrape', { method: 'POST', json: { urls, maxConcurrency: 1 } })).json();
  await waitFor('the batch holds the browser slot', async () => [...site.hits.keys()].some((path) => path.startsWith('/slow')));
  const other = await h.newTeam();
  const scrapes = await Promise.all(
    [0, 1, 2, 3].map(async (i) => {
      const res = await h.api('/v2/scrape', { method: 'POST', key: i % 2 === 0 ? h.apiKey : other.apiKey, json: { url: `${site.url}/quick/${i}`, maxAge: 0 } });
      return { status: res.status, body: await res.json() };
    }),
  );
  for (const [i, s] of scrapes.entries())
    expect(s, JSON.stringify(s.body)).toMatchObject({ status: 200, body: { success: true, data: { markdown: expect.stringContaining(`quick ${i}`) } } });
  // The batch of slow pages is still at work: the scrapes did not wait for its slot.
  const during = await (await h.api(`/v2/batch/scrape/${batch.id}`)).json();
  expect(during.status).toBe('scraping');
  expect(during.completed).toBeLessThan(SLOW_PAGES);

  // Each scrape's batch ran on the scrape queue; the batch scrape's on the browser queue.
  const job = await h.db.job.findUniqueOrThrow({ where: { id: scrapes[0]!.body.data.metadata.scrapeId } });
  const queues = async (workflowId: string) => {
    const history = await h.temporal.workflow.getHandle(workflowId).fetchHistory();
    return (history.events ?? []).flatMap((e) =>
      e.activityTaskScheduledEventAttributes?.activityType?.name === 'scrapeBatch' ? [e.activityTaskScheduledEventAttributes.taskQueue?.name] : [],
    );
  };
  expect(await queues(jobWorkflowId(job))).toEqual([h.config.temporal.scrapeTaskQueue]);
  const batchJob = await h.db.job.findUniqueOrThrow({ where: { id: batch.id } });
  await waitFor('the batch scrape ends', async () => (await h.db.job.findUniqueOrThrow({ where: { id: batch.id } })).status === 'completed', 60_000);
  expect(new Set(await queues(jobWorkflowId(batchJob)))).toEqual(new Set([h.config.temporal.browserTaskQueue]));
  await waitFor('nothing held by either team', () => nothingHeld(h.db, [h.teamId, other.teamId]), 30_000);
});
