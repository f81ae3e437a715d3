// `npm start` as a user runs it: embedded PostgreSQL, the Temporal dev server,
// worker and gateway, on fresh data. A crawl interrupted by Ctrl-C finishes
// after the next start; a start killed with SIGKILL leaves servers that the
// next start adopts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.ts';
import { exited, npmStart, npmStartSuite, QUICK_RECOVERY } from '../support/npm-start.ts';

const PAGES = 16;
const suite = npmStartSuite({
  prefix: 'start-test-',
  pages: PAGES,
  delayMs: 500,
  settings: QUICK_RECOVERY,
});

const { started, crawlStatus, startCrawl } = suite;

it('starts everything, survives Ctrl-C mid-crawl and kill -9 of itself, and finishes the crawl', async () => {
  const first = await npmStart(suite.env, started);
  const key = /API key:\s+(fc-[0-9a-f]{32})/.exec(first.output())?.[1];
  expect(key, first.output()).toBeDefined();
  expect(first.output()).toContain(`API:          http://127.0.0.1:${suite.env.PORT}/v2`);
  expect(first.output()).toContain(`Temporal UI:  http://localhost:${suite.env.TEMPORAL_UI_PORT}`);
  expect(first.output()).toMatch(/migrations applied: \d+_init/);
  const metricsUrls = [suite.env.GATEWAY_OPS_PORT, suite.env.WORKER_OPS_PORT, suite.env.BROWSER_HOST_OPS_PORT].map(
    (port) => `http://127.0.0.1:${port}/metrics`,
  );
  for (const url of metricsUrls) {
    expect(first.output()).toContain(url);
    const answer = await fetch(url);
    expect(answer.headers.get('content-type')).toContain('text/plain');
    expect(await answer.text()).toContain('process_cpu_seconds_total');
  }

  const health = await (await fetch(`${suite.apiBase}/health`)).json();
  expect(health).toMatchObject({ postgres: { ok: true }, temporal: { ok: true } });
  // The banner waits for every child's ready endpoint; the ports set are the ones the children serve.
  for (const url of [
    `${suite.apiBase}/health/ready`,
    `http://127.0.0.1:${suite.env.WORKER_OPS_PORT}/ready`,
    `http://127.0.0.1:${suite.env.BROWSER_HOST_OPS_PORT}/ready`,
  ]) {
    expect((await fetch(url)).status, url).toBe(200);
  }

  const id = await startCrawl(key!);
  // In these polls a failed status request counts as "not yet".
  await waitFor('a few pages', async () => {
    const s = await crawlStatus(key!, id).catch(() => undefined);
    return s?.status === 'scraping' && s.completed >= 2;
  });

  // Ctrl-C: everything stops in order, cleanly.
  first.proc.kill('SIGINT');
  expect(await exited(first.proc)).toBe(0);
  expect(first.output()).toContain('[start] stopped');
  expect(existsSync(join(suite.dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  expect(existsSync(join(suite.dataDir, 'temporal.pid'))).toBe(false);
  await expect(fetch(`${suite.apiBase}/health`)).rejects.toThrow();

  // Start again: same data, same key, no new key printed; the crawl goes on.
  const second = await npmStart(suite.env, started);
  expect(second.output()).not.toMatch(/API key:\s+fc-/);
  expect(second.output()).toContain('migrations: up to date');
  const done = await waitFor('the interrupted crawl to complete', async () => {
    const s = await crawlStatus(key!, id).catch(() => undefined);
    return s?.status === 'completed' && s;
  });
  const errors = await (await fetch(`${suite.apiBase}/v2/crawl/${id}/errors`, { headers: { authorization: `Bearer ${key}` } })).json();
  expect(done.completed, `failed pages: ${JSON.stringify(errors)}`).toBe(PAGES);
  expect(new Set(done.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL)).size).toBe(PAGES);

  // kill -9 of the supervisor: worker and gateway follow it down, the servers keep
  // running, and the next start adopts them.
  second.proc.kill('SIGKILL');
  await waitFor(
    'the orphaned gateway to stop',
    async () =>
      await fetch(`${suite.apiBase}/health`).then(
        () => false,
        () => true,
      ),
    60_000,
  );
  const third = await npmStart(suite.env, started);
  expect(third.output()).toContain('PostgreSQL: adopted the embedded server');
  expect(third.output()).toContain('Temporal: adopted the dev server');
  expect((await crawlStatus(key!, id)).status).toBe('completed');
  third.proc.kill('SIGTERM');
  expect(await exited(third.proc)).toBe(0);
  expect(existsSync(join(suite.dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
});
