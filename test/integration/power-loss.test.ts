// A power loss under `npm start`: SIGKILL to every process at once (the supervisor,
// worker, browser host, gateway, PostgreSQL and the Temporal dev server) during a
// 300-page crawl with a webhook, then `npm start` again on the same folder. The
// crawl completes with every page stored once, charged once and announced by one
// webhook event each.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pidAlive } from '../../src/platform/process/detached.ts';
import { exited, npmStart, npmStartSuite, pidFromFile, processTree } from '../support/npm-start.ts';
import { waitFor } from '../support/wait-for.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const PAGES = 300;
// The default heartbeat timeout (60 s): the restarted worker fails the dead worker's batches itself, long before it.
const suite = npmStartSuite({
  prefix: 'power-loss-test-',
  pages: PAGES,
  settings: { DEFAULT_TEAM_CONCURRENCY: '4' },
});
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

it('finishes a crawl after SIGKILL of every process, with every page, charge and page event once', async () => {
  const { apiBase, env, started, dataDir } = suite;
  const first = await npmStart(env, started);
  const key = /API key:\s+(fc-[0-9a-f]{32})/.exec(first.output())![1];
  const call = async (path: string, init: { method?: string; json?: unknown } = {}) =>
    (
      await fetch(`${apiBase}${path}`, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      })
    ).json() as Promise<any>;
  const { id } = await call('/v2/crawl', { method: 'POST', json: { url: `${suite.site.url}/`, limit: 1000, sitemap: 'skip', webhook: receiver.url } });
  await waitFor('a third of the pages', async () => ((await call(`/v2/crawl/${id}?limit=1`).catch(() => undefined))?.completed ?? 0) >= 105, 120_000, 50);

  const everything = [first.proc.pid!, pidFromFile(dataDir, 'postgres/postmaster.pid')!, pidFromFile(dataDir, 'temporal.pid')!].flatMap(processTree);
  for (const pid of everything) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone with its parent
    }
  }
  await waitFor('every process gone', () => everything.every((pid) => !pidAlive(pid)));
  expect(receiver.acknowledged().filter((d) => d.payload.type === 'crawl.page').length).toBeLessThan(PAGES);

  const restartedAt = Date.now();
  const second = await npmStart(env, started);
  expect(second.output()).not.toContain('adopted');
  const readyAt = Date.now();
  const atReady = (await call(`/v2/crawl/${id}?limit=1`)).completed;
  await waitFor('a page stored after the restart', async () => (await call(`/v2/crawl/${id}?limit=1`)).completed > atReady, 300_000, 100);
  const resumedAt = Date.now();
  const done = await waitFor(
    'the crawl to complete',
    async () => {
      const s = await call(`/v2/crawl/${id}?limit=1000`).catch(() => undefined);
      return s?.status === 'completed' && s;
    },
    300_000,
  );
  const secs = (from: number, to = Date.now()) => `${((to - from) / 1000).toFixed(1)} s`;
  process.stderr.write(
    `[power-loss] ${atReady} pages stored at the restart; ready in ${secs(restartedAt, readyAt)}, next page ${secs(readyAt, resumedAt)} later, completed ${secs(resumedAt)} after that\n`,
  );
  const pages: { metadata: { sourceURL: string } }[] = [...done.data];
  for (let next = done.next; next;) {
    const more = await (await fetch(next, { headers: { authorization: `Bearer ${key}` } })).json();
    pages.push(...more.data);
    next = more.next;
  }
  expect(done.completed).toBe(PAGES);
  expect(new Set(pages.map((p) => p.metadata.sourceURL)).size).toBe(PAGES);
  expect(done.creditsUsed).toBe(PAGES);

  await waitFor('the crawl.completed event', () => receiver.acknowledged().some((d) => d.payload.type === 'crawl.completed'), 120_000);
  const pageEvents = receiver.acknowledged().filter((d) => d.payload.type === 'crawl.page');
  const eventUrls = pageEvents.map((d) => (d.payload.data[0] as { metadata: { sourceURL: string } }).metadata.sourceURL);
  expect(pageEvents).toHaveLength(PAGES);
  expect(new Set(eventUrls).size).toBe(PAGES);
  second.proc.kill('SIGTERM');
  expect(await exited(second.proc)).toBe(0);
}, 600_000);
