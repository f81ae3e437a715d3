// Crawl webhooks end to end: outbox, signed deliveries, retries with a stable
// webhookId, a receiver that is down or refuses, and a worker killed mid-delivery.
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newJobWorkflowId } from '../../src/jobs/definitions.ts';
import { jobWebhooksWorkflowId } from '../../src/jobs/webhooks/definitions.ts';
import { verifyWebhookSignature } from '../../src/jobs/webhooks/signature.ts';
import { page, startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../support/webhook-receiver.ts';

const PAGES = 6;
let h: Harness;
let site: FixtureSite;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  site = await startFixtureSite({ ...treeSite(PAGES), '/p/5': page('Broken link', '<a href="/missing">missing</a>') });
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await site?.close();
  await h?.stop();
});

async function receiver(...args: Parameters<typeof startWebhookReceiver>) {
  const r = await startWebhookReceiver(...args);
  receivers.push(r);
  return r;
}

async function startCrawl(webhook: unknown, key = h.apiKey): Promise<string> {
  const res = await h.api('/v2/crawl', { method: 'POST', key, json: { url: `${site.url}/`, limit: 20, sitemap: 'skip', webhook } });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.id;
}

/** Expected events of a crawl of the fixture site: started, one per page (6 + the 404), completed. */
const EXPECTED_EVENTS = 1 + PAGES + 1 + 1;

async function deliveriesDrained(id: string, key = h.apiKey) {
  await h.temporal.workflow.getHandle(jobWebhooksWorkflowId(`crawl-${id}`, id)).result();
  return (await (await h.api(`/v2/crawl/${id}/webhooks`, { key })).json()).data as {
    webhookId: string;
    type: string;
    state: string;
    attempts: number;
    lastStatusCode: number | null;
    lastError: string | null;
    attemptLog: { attempt: number; statusCode: number | null; durationMs: number; error: string | null }[];
  }[];
}

function byWebhookId(deliveries: ReceivedDelivery[]) {
  const groups = new Map<string, ReceivedDelivery[]>();
  for (const d of deliveries) groups.set(d.payload.webhookId, [...(groups.get(d.payload.webhookId) ?? []), d]);
  return groups;
}

describe('crawl webhooks', () => {
  it('signs every delivery, echoes metadata, sends one crawl.page per page, started first and completed last', async () => {
    const { teamId, apiKey } = await h.newTeam();
    const secret = (await h.db.team.findUniqueOrThrow({ where: { id: teamId } })).webhookSigningSecret!;
    const r = await receiver();
    const id = await startCrawl({ url: r.url, metadata: { tenant: 'acme', n: 1 }, headers: { 'X-Tenant': 'acme' } }, apiKey);
    const status = await waitForCrawl(h, id, 120_000, apiKey);
    expect(status.status).toBe('completed');
    await deliveriesDrained(id, apiKey);

    const got = r.acknowledged();
    expect(got).toHaveLength(EXPECTED_EVENTS);
    for (const d of got) {
      const expected = `sha256=${createHmac('sha256', secret).update(d.raw).digest('hex')}`;
      expect(d.headers['x-service-signature']).toBe(expected);
      expect(verifyWebhookSignature(d.raw, d.headers['x-service-signature'] as string, secret)).toBe(true);
      expect(d.headers['x-tenant']).toBe('acme');
      expect(d.headers['content-type']).toContain('application/json');
      expect(d.payload.id).toBe(id);
      expect(d.payload.metadata).toEqual({ tenant: 'acme', n: 1 });
    }
    expect(new Set(got.map((d) => d.payload.webhookId)).size).toBe(EXPECTED_EVENTS);
    expect(got[0]!.payload).toMatchObject({ type: 'crawl.started', success: true, data: [] });
    expect(got.at(-1)!.payload).toMatchObject({ type: 'crawl.completed', success: true, data: [{ status: 'completed', completed: PAGES + 1 }] });

    const pages = got.filter((d) => d.payload.type === 'crawl.page');
    expect(pages).toHaveLength(PAGES + 1);
    const urls = pages.map((d) => (d.payload.data[0] as { metadata: { sourceURL: string } }).metadata.sourceURL).sort();
    expect(urls).toEqual((status.data as { metadata: { sourceURL: string } }[]).map((p) => p.metadata.sourceURL).sort());
    const missing = pages.find((d) => (d.payload.data[0] as { metadata: { sourceURL: string } }).metadata.sourceURL.endsWith('/missing'))!;
    // A 404 is a scraped page (as upstream); its statusCode says so.
    expect(missing.payload).toMatchObject({ success: true, data: [{ metadata: { statusCode: 404 } }] });
    expect((pages[0]!.payload.data[0] as { markdown: string }).markdown).toBeTruthy();

    // Both workflows replay deterministically; RECORD_HISTORY_DIR=<dir> keeps them as fixtures
    // for the offline replay test (test/unit/workflow-replay.test.ts).
    for (const [workflowId, file] of [
      [newJobWorkflowId('crawl', id), 'crawl-with-webhook.json'],
      [jobWebhooksWorkflowId(`crawl-${id}`, id), 'crawl-webhooks.json'],
    ] as const) {
      const history = await h.temporal.workflow.getHandle(workflowId).fetchHistory();
      await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history, workflowId);
      if (process.env.RECORD_HISTORY_DIR) writeFileSync(join(process.env.RECORD_HISTORY_DIR, file), historyToJSON(history));
    }
  });

  it('retries failed attempts with the same webhookId until they are acknowledged', async () => {
    const { teamId, apiKey } = await h.newTeam();
    await h.db.team.update({ where: { id: teamId }, data: { webhookSigningSecret: null } });
    const r = await receiver(({ attempt }) => ({ status: attempt <= 2 ? 500 : 200 }));
    const id = await startCrawl(r.url, apiKey);
    await waitForCrawl(h, id, 120_000, apiKey);
    const report = await deliveriesDrained(id, apiKey);

    expect(r.acknowledged()).toHaveLength(EXPECTED_EVENTS);
    for (const [webhookId, attempts] of byWebhookId(r.deliveries)) {
      expect(
        attempts.map((a) => a.status),
        webhookId,
      ).toEqual([500, 500, 200]);
      // Every attempt sends the same bytes.
      expect(new Set(attempts.map((a) => a.raw.toString('utf8'))).size).toBe(1);
    }
    expect(report).toHaveLength(EXPECTED_EVENTS);
    for (const event of report) {
      expect(event.state).toBe('delivered');
      expect(event.attemptLog.map((a) => a.statusCode)).toEqual([500, 500, 200]);
      expect(event.attemptLog.every((a) => a.durationMs >= 0)).toBe(true);
    }
    // The team has no signing secret: nothing is signed.
    expect(r.deliveries.some((d) => 'x-service-signature' in d.headers)).toBe(false);
  });

  it('loses nothing while the receiver is down, and delivers once it is back', async () => {
    const r = await receiver();
    await r.down();
    const id = await startCrawl(r.url);
    await waitForCrawl(h, id);
    // The crawl finished without its receiver; deliveries are still being retried.
    const pendingReport = (await (await h.api(`/v2/crawl/${id}/webhooks`)).json()).data as { state: string; lastError: string | null }[];
    expect(pendingReport.some((e) => e.state === 'pending')).toBe(true);
    expect(pendingReport.find((e) => e.lastError)?.lastError).toMatch(/refused|ECONNREFUSED/i);
    await r.up();
    await deliveriesDrained(id);
    expect(r.acknowledged()).toHaveLength(EXPECTED_EVENTS);
    expect(r.acknowledged()[0]!.payload.type).toBe('crawl.started');
    expect(r.acknowledged().at(-1)!.payload.type).toBe('crawl.completed');
  });

  it('stops retrying an event the receiver answers 410 and records it as failed; the crawl is unaffected', async () => {
    const r = await receiver(({ payload }) => ({ status: payload.type === 'crawl.page' ? 410 : 200 }));
    const id = await startCrawl(r.url);
    const status = await waitForCrawl(h, id);
    expect(status.status).toBe('completed');
    expect(status.completed).toBe(PAGES + 1);
    const report = await deliveriesDrained(id);
    const pages = report.filter((e) => e.type === 'crawl.page');
    expect(pages).toHaveLength(PAGES + 1);
    expect(pages.every((e) => e.state === 'failed' && e.attempts === 1 && e.lastStatusCode === 410)).toBe(true);
    expect(report.filter((e) => e.type !== 'crawl.page').map((e) => e.state)).toEqual(['delivered', 'delivered']);
    expect(r.deliveries.filter((d) => d.payload.type === 'crawl.page')).toHaveLength(PAGES + 1);
  });

  it('honours Retry-After on 429 and the events filter', async () => {
    const r = await receiver(({ attempt }) => (attempt === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }));
    const id = await startCrawl({ url: r.url, events: ['completed'] });
    await waitForCrawl(h, id);
    await deliveriesDrained(id);
    expect(r.deliveries.map((d) => [d.payload.type, d.status])).toEqual([
      ['crawl.completed', 429],
      ['crawl.completed', 200],
    ]);
    const report = await (await h.api(`/v2/crawl/${id}/webhooks`)).json();
    const completed = report.data.find((e: { type: string }) => e.type === 'crawl.completed');
    expect(completed.attemptLog).toHaveLength(2);
  });

  it('sends crawl.completed with status cancelled when the crawl is cancelled', async () => {
    const slow = await startFixtureSite(treeSite(30), { delayMs: () => 400 });
    const r = await receiver();
    const res = await h.api('/v2/crawl', { method: 'POST', json: { url: `${slow.url}/`, limit: 30, sitemap: 'skip', webhook: r.url } });
    const { id } = await res.json();
    await waitFor('a page event', async () => r.acknowledged().some((d) => d.payload.type === 'crawl.page'));
    expect((await h.api(`/v2/crawl/${id}`, { method: 'DELETE' })).status).toBe(200);
    await deliveriesDrained(id);
    await slow.close();
    expect(r.acknowledged().at(-1)!.payload).toMatchObject({ type: 'crawl.completed', success: true, data: [{ status: 'cancelled' }] });
  });

  it('refuses webhook URLs it could never deliver to', async () => {
    const bad = async (webhook: unknown) => {
      const res = await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, webhook } });
      return { status: res.status, body: await res.json() };
    };
    expect((await bad('not a url')).status).toBe(400);
    expect((await bad({ url: 'http://example.test/hook', events: ['page', 'finished'] })).status).toBe(400);
    expect((await bad({ url: 'http://example.test/hook', headers: { 'X-Service-Signature': 'forged' } })).body.error).toContain('x-service-signature');
  });

  it('works with the official JS SDK crawl call and a webhook object', async () => {
    const r = await receiver();
    const client = new Firecrawl({ apiKey: h.apiKey, apiUrl: h.baseUrl });
    const job = await client.crawl(`${site.url}/`, {
      limit: 20,
      sitemap: 'skip',
      pollInterval: 1,
      webhook: { url: r.url, metadata: { from: 'sdk' }, events: ['started', 'page', 'completed'] },
    });
    expect(job.status).toBe('completed');
    const id = r.deliveries[0]!.payload.id;
    await deliveriesDrained(id);
    expect(r.acknowledged()).toHaveLength(EXPECTED_EVENTS);
    expect(r.acknowledged().every((d) => d.payload.metadata?.from === 'sdk')).toBe(true);
  });
});
