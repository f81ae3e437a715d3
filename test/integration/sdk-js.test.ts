// The official JS SDK (@mendable/firecrawl-js 4.x), unchanged, against our
// gateway: every crawl method it has.
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';

let h: Harness;
// Every JSON answer the gateway gives the SDK, checked against the OpenAPI document at the end.
const recorded: RecordedResponse[] = [];
let site: FixtureSite;
let client: Firecrawl;

beforeAll(async () => {
  h = await startHarness({ recordResponses: recorded });
  await h.startWorker();
  site = await startFixtureSite(
    {
      ...treeSite(12),
      '/p/11': page('Gone soon', '<a href="/missing-page">broken</a>'),
      '/robots.txt': 'User-agent: *\nDisallow: /p/10\n',
    },
    { delayMs: (path) => (path.startsWith('/slow') ? 2000 : 0) },
  );
  client = new Firecrawl({ apiKey: h.apiKey, apiUrl: h.baseUrl });
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

describe('@mendable/firecrawl-js', () => {
  it('crawl() starts and waits; the result has every page', async () => {
    const job = await client.crawl(`${site.url}/`, { limit: 50, sitemap: 'skip', pollInterval: 1, scrapeOptions: { formats: ['markdown', 'links'] } });
    expect(job.status).toBe('completed');
    // 12 pages minus the robots-blocked /p/10, plus the 404 page linked from /p/11.
    expect(job.completed).toBe(12);
    expect(job.creditsUsed).toBe(12);
    expect(job.data).toHaveLength(12);
    expect(job.data.every((d) => typeof d.markdown === 'string' && Array.isArray(d.links))).toBe(true);
  });

  it('startCrawl, getCrawlStatus with and without auto-pagination, getCrawlErrors', async () => {
    const started = await client.startCrawl(`${site.url}/`, { limit: 50, sitemap: 'skip' });
    expect(started.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(started.url).toBe(`${h.baseUrl}/v2/crawl/${started.id}`);
    await waitFor('completion', async () => (await client.getCrawlStatus(started.id, { autoPaginate: false })).status === 'completed', 120_000, 500);

    const all = await client.getCrawlStatus(started.id);
    expect(all.data).toHaveLength(12);
    expect(all.next ?? null).toBeNull();

    // Raw pages of 5: the SDK does not follow `next` and we can.
    const raw = await h.api(`/v2/crawl/${started.id}?limit=5`);
    const first = await raw.json();
    expect(first.data).toHaveLength(5);
    expect(first.next).toMatch(new RegExp(`^${h.baseUrl}/v2/crawl/${started.id}\\?skip=5&after=\\d+&limit=5$`));
    const onePage = await client.getCrawlStatus(started.id, { autoPaginate: false });
    expect(onePage.data).toHaveLength(12);

    const errors = await client.getCrawlErrors(started.id);
    expect(errors.robotsBlocked).toEqual([`${site.url}/p/10`]);
    expect(errors.errors).toEqual([]);

    // A finished crawl cannot be cancelled.
    const cancel = await h.api(`/v2/crawl/${started.id}`, { method: 'DELETE' });
    expect(cancel.status).toBe(409);
    expect(await cancel.json()).toEqual({
      success: false,
      code: 'CONFLICT',
      error: 'Crawl is already completed',
      requestId: cancel.headers.get('x-request-id'),
    });
  });

  it('getActiveCrawls lists a running crawl; cancelCrawl cancels it', async () => {
    const slowSite = await startFixtureSite(
      Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`/slow/${i}`, page(`Slow ${i}`, `<a href="/slow/${i + 1}">next</a>`)])),
      { delayMs: () => 1500 },
    );
    try {
      const started = await client.startCrawl(`${slowSite.url}/slow/0`, {
        limit: 30,
        sitemap: 'skip',
        crawlEntireDomain: true,
        scrapeOptions: { formats: ['html'] },
      });
      const active = await client.getActiveCrawls();
      const mine = active.crawls.find((c) => c.id === started.id);
      expect(mine).toMatchObject({ id: started.id, teamId: h.teamId, url: `${slowSite.url}/slow/0` });
      expect(mine?.options).toMatchObject({ limit: 30, crawlEntireDomain: true, scrapeOptions: { formats: [{ type: 'html' }] } });

      expect(await client.cancelCrawl(started.id)).toBe(true);
      // Cancelling again answers as the first time.
      expect(await client.cancelCrawl(started.id)).toBe(true);
      const status = await client.getCrawlStatus(started.id, { autoPaginate: false });
      expect(status.status).toBe('cancelled');
      expect((await client.getActiveCrawls()).crawls.find((c) => c.id === started.id)).toBeUndefined();
      await waitFor(
        'the workflow to end',
        async () => {
          const desc = await h.temporal.workflow.getHandle(`crawl-${started.id}`).describe();
          return desc.status.name !== 'RUNNING';
        },
        60_000,
      );
      // Cancelled means no more scraping.
      const pages = await h.db.jobPage.count({ where: { jobId: started.id } });
      await new Promise((r) => setTimeout(r, 3000));
      expect(await h.db.jobPage.count({ where: { jobId: started.id } })).toBe(pages);
    } finally {
      await slowSite.close();
    }
  });
});

it('every answer the SDK got is as the OpenAPI document (/v2/openapi.json) says', async () => {
  // How many depends on polling; only that the recorder saw answers is certain.
  expect(recorded.length).toBeGreaterThan(0);
  expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
});
