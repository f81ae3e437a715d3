// A request's claim of its x-idempotency-key that PostgreSQL ran but whose answer the
// gateway lost with its connection: the request fails (503), and the same request sent
// again is served, instead of waiting for the failed one until its claim lapses (15
// minutes). A client told to retry after a 503 sends exactly that. The spawned gateway
// reaches PostgreSQL through a TCP proxy that drops the claim's reply.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitForCrawl, type Harness } from '../support/harness.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

let h: Harness;
let site: FixtureSite;
let proxy: TcpProxy;
let gatewayUrl: string;

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  site = await startFixtureSite(treeSite(1));
  const url = new URL(inject('databaseUrl'));
  proxy = await startTcpProxy(url.host);
  url.host = proxy.address;
  gatewayUrl = (await h.spawnGateway({ env: { DATABASE_URL: url.toString() } })).baseUrl;
});

afterAll(async () => {
  await h?.stop();
  await proxy?.close();
  await site?.close();
});

it('serves the request sent again after the answer to its claim was lost', async () => {
  const send = () =>
    fetch(`${gatewayUrl}/v2/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.apiKey}`, 'content-type': 'application/json', 'x-idempotency-key': 'claim-answer-lost' },
      body: JSON.stringify({ url: `${site.url}/`, limit: 1 }),
      // A repeat that waits for the failed request would wait 15 minutes.
      signal: AbortSignal.timeout(30_000),
    });
  const lost = proxy.loseReplyTo('INSERT INTO idempotency_key');
  const first = await send();
  await lost;
  expect({ status: first.status, body: await first.json() }).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE' } });

  const again = await send();
  const body = await again.json();
  expect({ status: again.status, body }).toMatchObject({ status: 200, body: { success: true } });
  expect((await waitForCrawl(h, body.id)).status).toBe('completed');
  expect(await h.db.job.count({ where: { teamId: h.teamId } })).toBe(1);
  expect(await h.db.idempotencyKey.findMany({ where: { teamId: h.teamId }, select: { key: true, statusCode: true } })).toEqual([
    { key: 'claim-answer-lost', statusCode: 200 },
  ]);
});
