// kill -9 of the worker process while it delivers a crawl's webhooks: after a
// restart every event arrives, and the only duplicates are retries of the same
// webhookId with the same bytes.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobWebhooksWorkflowId } from '../../src/jobs/webhooks/definitions.ts';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const PAGES = 12;
let h: Harness;
let site: FixtureSite;
let r: WebhookReceiver;

beforeAll(async () => {
  h = await startHarness();
  site = await startFixtureSite(treeSite(PAGES));
  // A slow receiver keeps deliveries in flight when the worker dies.
  r = await startWebhookReceiver(() => ({ status: 200, delayMs: 400 }));
});

afterAll(async () => {
  await r?.close();
  await site?.close();
  await h?.stop();
});

it('delivers every event exactly once per webhookId (retries aside) across a worker killed mid-delivery', async () => {
  const worker = await h.spawnWorker();
  const res = await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 50, sitemap: 'skip', webhook: r.url } });
  const { id } = await res.json();
  await waitFor('some deliveries', async () => r.acknowledged().length >= 3, 120_000, 50);
  worker.kill('SIGKILL');
  await new Promise((resolve) => worker.once('exit', resolve));
  const acknowledgedBeforeKill = r.acknowledged().length;
  await h.spawnWorker();

  const status = await waitForCrawl(h, id, 180_000);
  expect(status.status).toBe('completed');
  await h.temporal.workflow.getHandle(jobWebhooksWorkflowId(`crawl-${id}`, id)).result();

  const events = r.acknowledged();
  expect(acknowledgedBeforeKill).toBeLessThan(PAGES + 2);
  expect(events).toHaveLength(PAGES + 2);
  expect(events.filter((d) => d.payload.type === 'crawl.page')).toHaveLength(PAGES);
  expect(events[0]!.payload.type).toBe('crawl.started');
  expect(events.at(-1)!.payload.type).toBe('crawl.completed');
  // Any request beyond one per event repeats an event: same webhookId, same bytes.
  const bodies = new Map<string, string>();
  for (const d of r.deliveries) {
    const body = d.raw.toString('utf8');
    expect(bodies.get(d.payload.webhookId) ?? body).toBe(body);
    bodies.set(d.payload.webhookId, body);
  }
  expect(bodies.size).toBe(PAGES + 2);
});
