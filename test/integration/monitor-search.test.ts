// A monitor's search targets: each query through the search endpoint (a stand-in
// SearXNG whose results the test changes between checks), result URLs as pages of
// the target (new, same, removed), the search's charge on the check, a refused
// search leaving the check partial without reporting earlier results removed, and
// the judge-free target result the SDK reads.
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';
import { startFakeSearxng, type FakeSearxng } from '../support/fake-searxng.ts';

const YEARLY = { cron: '0 3 1 1 *', timezone: 'UTC' };

let h: Harness;
let searxng: FakeSearxng;
let client: Firecrawl;
/** What the stand-in answers for the monitor's query now. */
let found: string[] = [];

beforeAll(async () => {
  searxng = await startFakeSearxng();
  searxng.results = (q) => (q.startsWith('widgets') ? found.map((url) => ({ url, title: url, content: `About ${url}` })) : undefined);
  h = await startHarness({ search: { local: false, searxngUrl: searxng.url } });
  await h.startWorker();
  client = new Firecrawl({ apiKey: h.apiKey, apiUrl: h.baseUrl });
}, 120_000);

afterAll(async () => {
  await h?.stop();
  await searxng?.close();
});

async function check(monitorId: string) {
  const queued = await client.runMonitor(monitorId);
  await waitFor(
    'the check to end',
    async () => {
      const c = (await client.listMonitorChecks(monitorId)).find((x) => x.id === queued.id);
      return c && ['completed', 'partial', 'failed'].includes(c.status) ? c : undefined;
    },
    120_000,
  );
  return client.getMonitorCheck(monitorId, queued.id);
}

const pagesOf = (detail: { pages: { url: string; status: string }[] }) =>
  Object.fromEntries(detail.pages.map((p) => [p.url, p.status]).sort(([a], [b]) => a.localeCompare(b)));

describe('search targets', () => {
  it('list their results as pages, new then same, and report a result no longer found as removed', async () => {
    const monitor = await client.createMonitor({
      name: 'widget news',
      schedule: YEARLY,
      targets: [{ id: 'news', type: 'search', queries: ['widgets news'], searchWindow: '24h', maxResults: 10 }],
    });
    // 2 credits per 10 results asked, once a year.
    expect(monitor.estimatedCreditsPerMonth).toBe(1);
    const balance = async () => (await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } })).creditBalance;

    found = ['https://a.example/1', 'https://b.example/2'];
    const before = await balance();
    const first = await check(monitor.id);
    expect(first.status).toBe('completed');
    expect(pagesOf(first)).toEqual({ 'https://a.example/1': 'new', 'https://b.example/2': 'new' });
    expect(first.targetResults).toEqual([
      { targetId: 'news', type: 'search', searchCompleted: true, resultCount: 2, matches: 2, searchCredits: 2, judgeDegraded: false, degradedReason: null },
    ]);
    expect(first.actualCredits).toBe(2);
    expect(before - (await balance())).toBe(2);
    const sent = searxng.requests.at(-1)!;
    expect(sent.get('q')).toBe('widgets news');
    expect(sent.get('time_range')).toBe('day');

    found = ['https://b.example/2', 'https://c.example/3'];
    const second = await check(monitor.id);
    expect(pagesOf(second)).toEqual({ 'https://a.example/1': 'removed', 'https://b.example/2': 'same', 'https://c.example/3': 'new' });
    expect(second.summary).toMatchObject({ totalPages: 3, same: 1, new: 1, removed: 1 });
    expect(second.targetResults?.[0]).toMatchObject({ resultCount: 2, matches: 1 });
  }, 240_000);

  it('end partial when the search is refused, without reporting earlier results removed', async () => {
    const monitor = await client.createMonitor({ name: 'refused', schedule: YEARLY, targets: [{ id: 's', type: 'search', queries: ['widgets refused'] }] });
    found = ['https://a.example/1'];
    expect((await check(monitor.id)).status).toBe('completed');
    // The stand-in answers 403 to this query, as an instance without the JSON format does.
    searxng.results = (q) => (q.startsWith('widgets') && !q.includes('refused') ? found.map((url) => ({ url, title: url, content: url })) : undefined);
    const saved = found;
    try {
      await h.db.monitor.update({ where: { id: monitor.id }, data: { targets: [{ id: 's', type: 'search', queries: ['widgets json-disabled'] }] } });
      const refused = await check(monitor.id);
      expect(refused.status).toBe('partial');
      expect(refused.pages).toEqual([]);
      expect(refused.targetResults?.[0]).toMatchObject({
        searchCompleted: false,
        resultCount: 0,
        degradedReason: expect.stringContaining('widgets json-disabled'),
      });
    } finally {
      found = saved;
      searxng.results = (q) => (q.startsWith('widgets') ? found.map((url) => ({ url, title: url, content: `About ${url}` })) : undefined);
    }
  }, 240_000);

  it('refuse includeDomains with excludeDomains when the monitor is made', async () => {
    const res = await h.api('/v2/monitor', {
      method: 'POST',
      json: { name: 'x', schedule: YEARLY, targets: [{ type: 'search', queries: ['q'], includeDomains: ['a.example'], excludeDomains: ['b.example'] }] },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/includeDomains and excludeDomains cannot both be specified/);
  });
});
