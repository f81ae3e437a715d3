// POST /v2/batch/scrape and its status, errors and cancel routes: a batch is a
// job of the crawl pipeline with the URLs given and no discovery.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

let h: Harness;
let site: FixtureSite;
let receiver: WebhookReceiver;

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  site = await startFixtureSite(
    {
      ...treeSite(8),
      '/robots.txt': 'User-agent: *\nDisallow: /p/3\n',
      '/broken': { hangUp: true },
      ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`/slow/${i}`, page(`Slow ${i}`, `<p>slow ${i}</p>`)])),
    },
    { delayMs: (path) => (path.startsWith('/slow') ? 1000 : 0) },
  );
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await site?.close();
  await h?.stop();
});

async function waitForBatch(id: string, key?: string) {
  return waitFor(`batch ${id}`, async () => {
    const body = await (await h.api(`/v2/batch/scrape/${id}?limit=1000`, { key })).json();
    return body.status !== 'scraping' ? body : undefined;
  });
}

describe('batch scrape', () => {
  it('scrapes exactly the URLs given (no discovery, no robots.txt), with batch_scrape.* webhooks and per-page credits', async () => {
    const urls = [`${site.url}/`, `${site.url}/p/1`, `${site.url}/p/3`, `${site.url}/broken`, `${site.url}/p/1#again`];
    const res = await h.api('/v2/batch/scrape', {
      method: 'POST',
      json: { urls, formats: ['markdown', 'links'], webhook: { url: receiver.url, metadata: { run: 'one' } } },
    });
    expect(res.status).toBe(200);
    const started = await res.json();
    expect(started).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/), url: `${h.baseUrl}/v2/batch/scrape/${started.id}` });
    const status = await waitForBatch(started.id);
    expect(status).toMatchObject({ success: true, status: 'completed', completed: 3, total: 3, creditsUsed: 3 });
    expect(status.data.map((d: any) => d.metadata.sourceURL).sort()).toEqual([`${site.url}/`, `${site.url}/p/1`, `${site.url}/p/3`]);
    expect(status.data.every((d: any) => typeof d.markdown === 'string' && Array.isArray(d.links))).toBe(true);
    // Links were not followed: /p/2 was never fetched.
    expect(site.hits.get('/p/2')).toBeUndefined();
    expect(await h.db.usageEntry.findMany({ where: { jobId: started.id }, select: { endpoint: true } })).toEqual(Array(3).fill({ endpoint: 'batch_scrape' }));

    const errors = await (await h.api(`/v2/batch/scrape/${started.id}/errors`)).json();
    expect(errors.errors.map((e: any) => e.url)).toEqual([`${site.url}/broken`]);
    expect(errors.robotsBlocked).toEqual([]);

    const mine = () => receiver.acknowledged().filter((d) => d.payload.id === started.id);
    await waitFor('webhooks', async () => mine().some((d) => d.payload.type === 'batch_scrape.completed'));
    const types = mine().map((d) => d.payload.type);
    expect(types[0]).toBe('batch_scrape.started');
    expect(types.at(-1)).toBe('batch_scrape.completed');
    expect(types.filter((t) => t === 'batch_scrape.page')).toHaveLength(4);
    expect(mine().every((d) => d.payload.metadata?.run === 'one')).toBe(true);

    // A batch is no crawl: its id is unknown under /v2/crawl, and it is not an active crawl.
    expect((await h.api(`/v2/crawl/${started.id}`)).status).toBe(404);
  });

  it('pages its status with next links like a crawl', async () => {
    const urls = Array.from({ length: 8 }, (_, i) => (i === 0 ? `${site.url}/` : `${site.url}/p/${i}`));
    const { id } = await (await h.api('/v2/batch/scrape', { method: 'POST', json: { urls } })).json();
    await waitForBatch(id);
    const first = await (await h.api(`/v2/batch/scrape/${id}?limit=5`)).json();
    expect(first.data).toHaveLength(5);
    expect(first.next).toMatch(new RegExp(`^${h.baseUrl}/v2/batch/scrape/${id}\\?skip=5&after=\\d+&limit=5$`));
    const second = await (await fetch(first.next, { headers: { authorization: `Bearer ${h.apiKey}` } })).json();
    expect(second.data).toHaveLength(3);
    expect(second.next).toBeUndefined();
  });

  it('returns the first job for a repeated x-idempotency-key', async () => {
    const key = `key-${Date.now()}`;
    const mine = await h.newTeam();
    const send = () =>
      h.api('/v2/batch/scrape', { method: 'POST', json: { urls: [`${site.url}/p/4`] }, headers: { 'x-idempotency-key': key }, key: mine.apiKey });
    const [a, b] = await Promise.all([send(), send()]);
    const [first, second] = [await a.json(), await b.json()];
    expect(second.id).toBe(first.id);
    expect(await h.db.job.count({ where: { teamId: mine.teamId } })).toBe(1);
    // Keys are per team.
    const other = await h.newTeam();
    const theirs = await (
      await h.api('/v2/batch/scrape', { method: 'POST', json: { urls: [`${site.url}/p/4`] }, headers: { 'x-idempotency-key': key }, key: other.apiKey })
    ).json();
    expect(theirs.id).not.toBe(first.id);
  });

  it('adds URLs to a running batch with appendToId, and refuses to extend an ended one', async () => {
    const { id } = await (
      await h.api('/v2/batch/scrape', { method: 'POST', json: { urls: [0, 1, 2, 3].map((i) => `${site.url}/slow/${i}`), maxConcurrency: 1 } })
    ).json();
    const appended = await (
      await h.api('/v2/batch/scrape', { method: 'POST', json: { urls: [4, 5, 0].map((i) => `${site.url}/slow/${i}`), appendToId: id } })
    ).json();
    expect(appended).toMatchObject({ success: true, id });
    const status = await waitForBatch(id);
    expect(status.completed).toBe(6);
    expect(new Set(status.data.map((d: any) => d.metadata.sourceURL)).size).toBe(6);
    const late = await h.api('/v2/batch/scrape', { method: 'POST', json: { urls: [`${site.url}/slow/6`], appendToId: id } });
    expect(late.status).toBe(409);
    const other = await h.newTeam();
    const foreign = await h.api('/v2/batch/scrape', { method: 'POST', json: { urls: [`${site.url}/slow/6`], appendToId: id }, key: other.apiKey });
    expect(foreign.status).toBe(404);
  });

  it('cancels a running batch', async () => {
    const { id } = await (
      await h.api('/v2/batch/scrape', { method: 'POST', json: { urls: [6, 7, 8, 9, 10, 11].map((i) => `${site.url}/slow/${i}`), maxConcurrency: 1 } })
    ).json();
    const cancel = await h.api(`/v2/batch/scrape/${id}`, { method: 'DELETE' });
    expect(await cancel.json()).toEqual({ success: true, status: 'cancelled' });
    const status = await waitForBatch(id);
    expect(status.status).toBe('cancelled');
    expect(status.completed).toBeLessThan(6);
  });

  it('skips or refuses invalid URLs as ignoreInvalidURLs says', async () => {
    const strict = await h.api('/v2/batch/scrape', { method: 'POST', json: { urls: [`${site.url}/`, 'not a url'] } });
    expect(strict.status).toBe(400);
    expect((await strict.json()).details[0].path).toEqual(['urls', 1]);
    const lenient = await (
      await h.api('/v2/batch/scrape', { method: 'POST', json: { urls: [`${site.url}/p/5`, 'not a url'], ignoreInvalidURLs: true } })
    ).json();
    expect(lenient).toMatchObject({ success: true, invalidURLs: ['not a url'] });
    const none = await h.api('/v2/batch/scrape', { method: 'POST', json: { urls: ['nope'], ignoreInvalidURLs: true } });
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ success: false, error: 'No valid URLs provided' });
    expect((await h.api('/v2/batch/scrape', { method: 'POST', json: { urls: [] } })).status).toBe(400);
    expect((await h.api('/v2/batch/scrape', { method: 'POST', json: { urls: [`${site.url}/`], limit: 3 } })).status).toBe(400);
    expect((await h.api('/v2/batch/scrape/nope')).status).toBe(400);
    expect((await h.api('/v2/batch/scrape/01900000-0000-7000-8000-000000000000')).status).toBe(404);
  });

  it('skips URLs on refused addresses unless told to refuse the request', async () => {
    const guarded = await startHarness({ crawl: { allowPrivateAddresses: false } });
    try {
      const skipped = await guarded.api('/v2/batch/scrape', { method: 'POST', json: { urls: [`${site.url}/`] } });
      expect(skipped.status).toBe(400);
      expect(await skipped.json()).toMatchObject({ error: 'No valid URLs provided', details: { invalidURLs: [`${site.url}/`] } });
      const refused = await guarded.api('/v2/batch/scrape', { method: 'POST', json: { urls: [`${site.url}/`], ignoreInvalidURLs: false } });
      expect(await refused.json()).toMatchObject({ code: 'BLOCKED_ADDRESS' });
    } finally {
      await guarded.stop();
    }
  });
});
