// kill -9 of the gateway during a crawl: the crawl does not depend on it, and
// a new gateway reports it complete with exactly the expected pages.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';

const PAGES = 30;
let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  site = await startFixtureSite(treeSite(PAGES), { delayMs: () => 150 });
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

const call = async (base: string, path: string, init: RequestInit = {}) =>
  (await fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${h.apiKey}`, 'content-type': 'application/json' } })).json();

it('finishes a crawl whose gateway was killed with SIGKILL', async () => {
  const first = await h.spawnGateway();
  const started = await call(first.baseUrl, '/v2/crawl', { method: 'POST', body: JSON.stringify({ url: `${site.url}/`, limit: 100 }) });
  expect(started.success).toBe(true);
  const { id } = started;
  await waitFor('some pages', async () => (await h.db.jobPage.count({ where: { jobId: id } })) >= 3, 60_000, 50);
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));
  expect(await h.db.jobPage.count({ where: { jobId: id } })).toBeLessThan(PAGES);

  const second = await h.spawnGateway();
  const status = await waitFor(
    'the crawl to finish',
    async () => {
      const body = await call(second.baseUrl, `/v2/crawl/${id}?limit=1000`);
      return body.status !== 'scraping' ? body : undefined;
    },
    180_000,
  );
  expect(status.status).toBe('completed');
  expect(status.completed).toBe(PAGES);
  expect(new Set(status.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL)).size).toBe(PAGES);
  for (let i = 0; i < PAGES; i++) expect(site.hits.get(i === 0 ? '/' : `/p/${i}`)).toBe(1);
});
