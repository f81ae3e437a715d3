// kill -9 of the worker while a crawl is running, then a new worker: the crawl
// completes with every page exactly once, whether its pages load in Chromium or
// over HTTP (CRAWL_RENDERING=auto; the tree site's pages are static).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';

const PAGES = 24;

describe.each(['browser', 'auto'] as const)('CRAWL_RENDERING=%s', (rendering) => {
  let h: Harness;
  let site: FixtureSite;

  beforeAll(async () => {
    h = await startHarness({ crawl: { heartbeatTimeoutMs: 3000, rendering } });
    // Slow pages keep batches in flight long enough to kill the worker mid-batch.
    site = await startFixtureSite(treeSite(PAGES), { delayMs: () => 400 });
  });

  afterAll(async () => {
    await site?.close();
    await h?.stop();
  });

  it('finishes a crawl whose worker was killed with SIGKILL mid-batch', async () => {
    const first = await h.spawnWorker();
    const { id } = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 100 } })).json();

    await waitFor(
      'pages stored while a batch is in flight',
      async () => (await h.db.jobPage.count({ where: { jobId: id } })) >= 3 && (await h.db.jobUrl.count({ where: { jobId: id, state: 'claimed' } })) > 0,
      60_000,
      50,
    );
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const storedAtKill = await h.db.jobPage.count({ where: { jobId: id } });
    expect(storedAtKill).toBeLessThan(PAGES);

    await h.spawnWorker();
    const status = await waitForCrawl(h, id, 180_000);
    expect(status.status).toBe('completed');
    const failures = await h.db.jobPage.findMany({ where: { jobId: id, success: false }, select: { url: true, error: true } });
    expect(failures).toEqual([]);
    expect(status.completed).toBe(PAGES);
    const urls = status.data.map((d) => d.metadata.sourceURL as string);
    expect(new Set(urls).size).toBe(PAGES);
    expect(await h.db.jobPage.count({ where: { jobId: id } })).toBe(PAGES);
    expect(await h.db.jobUrl.count({ where: { jobId: id, state: { not: 'done' } } })).toBe(0);
    // Which path the pages took: Chromium marks its navigations with Sec-Fetch-Dest, the HTTP path sends none.
    const fromBrowser = urls.filter((u) => site.headers.get(new URL(u).pathname)?.['sec-fetch-dest'] === 'document');
    expect(fromBrowser).toHaveLength(rendering === 'browser' ? PAGES : 0);
  });
});
