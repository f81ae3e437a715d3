// kill -9 of the worker while a batch of 500 URLs is running, then a new worker:
// the batch completes with every URL exactly once (page, charge, webhook event).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const URLS = 500;
let h: Harness;
let site: FixtureSite;
let receiver: WebhookReceiver;

beforeAll(async () => {
  h = await startHarness({ crawl: { heartbeatTimeoutMs: 3000 } });
  site = await startFixtureSite(
    Object.fromEntries(Array.from({ length: URLS }, (_, i) => [`/u/${i}`, page(`URL ${i}`, `<p>Body of ${i}</p><a href="/elsewhere">not followed</a>`)])),
    {
      delayMs: () => 100,
    },
  );
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await site?.close();
  await h?.stop();
});

it('finishes a 500-URL batch whose worker was killed with SIGKILL mid-batch, every URL exactly once', async () => {
  const { apiKey, teamId } = await h.newTeam({ concurrencyLimit: 8 });
  const first = await h.spawnWorker();
  const urls = Array.from({ length: URLS }, (_, i) => `${site.url}/u/${i}`);
  const started = await (await h.api('/v2/batch/scrape', { method: 'POST', json: { urls, formats: ['markdown'], webhook: receiver.url }, key: apiKey })).json();
  const id = started.id as string;

  await waitFor(
    'pages stored while a batch is in flight',
    async () => (await h.db.jobPage.count({ where: { jobId: id } })) >= 20 && (await h.db.jobUrl.count({ where: { jobId: id, state: 'claimed' } })) > 0,
    120_000,
    50,
  );
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  const storedAtKill = await h.db.jobPage.count({ where: { jobId: id } });
  expect(storedAtKill).toBeLessThan(URLS);

  await h.spawnWorker();
  const status = await waitFor(
    'batch to finish',
    async () => {
      const body = await (await h.api(`/v2/batch/scrape/${id}?limit=1000`, { key: apiKey })).json();
      return body.status !== 'scraping' ? body : undefined;
    },
    600_000,
    1000,
  );
  expect(status.status).toBe('completed');
  expect(await h.db.jobPage.findMany({ where: { jobId: id, success: false }, select: { url: true, error: true } })).toEqual([]);
  expect(status.completed).toBe(URLS);
  const sources = status.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL);
  expect(sources).toHaveLength(URLS);
  expect(new Set(sources)).toEqual(new Set(urls));
  expect(await h.db.jobPage.count({ where: { jobId: id } })).toBe(URLS);
  expect(await h.db.jobUrl.count({ where: { jobId: id, state: { not: 'done' } } })).toBe(0);
  // One charge and one webhook event per URL, whatever the retries.
  expect(await h.db.usageEntry.count({ where: { jobId: id, endpoint: 'batch_scrape' } })).toBe(URLS);
  expect(status.creditsUsed).toBe(URLS);
  // The team's usage report (usage_month) agrees with the pages, through the kills and replays.
  const history = await (await h.api('/v2/team/credit-usage/historical', { key: apiKey })).json();
  const ledgerTotal = await h.db.usageEntry.aggregate({ where: { teamId }, _sum: { credits: true } });
  expect(history.periods.reduce((sum: number, p: { creditsUsed: number }) => sum + p.creditsUsed, 0)).toBe(ledgerTotal._sum.credits);
  expect(ledgerTotal._sum.credits).toBeGreaterThanOrEqual(URLS);
  expect(await h.db.webhookEvent.count({ where: { crawlId: id, type: 'crawl.page' } })).toBe(URLS);
  // Nothing outside the list was fetched: links are not followed.
  expect(site.hits.get('/elsewhere')).toBeUndefined();
});
