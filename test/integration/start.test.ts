// `npm start` as a user runs it: embedded PostgreSQL, the Temporal dev server,
// worker and gateway, on fresh data. A crawl interrupted by Ctrl-C finishes
// after the next start; a start killed with SIGKILL leaves servers that the
// next start adopts.
import type { ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { waitFor } from '../support/wait-for.ts';
import { scratchDataDir } from '../../src/platform/process/data-dir.ts';
import { exited, killServers, npmStart, npmStartEnv } from '../support/npm-start.ts';

const PAGES = 16;
let dataDir: string;
let site: FixtureSite;
let env: NodeJS.ProcessEnv;
let apiBase: string;
const started: ChildProcess[] = [];

beforeAll(async () => {
  dataDir = scratchDataDir('start-test-');
  site = await startFixtureSite(treeSite(PAGES), { delayMs: () => 500 });
  env = await npmStartEnv(dataDir, {
    CRAWL_HEARTBEAT_TIMEOUT_MS: '3000',
    WORKER_SHUTDOWN_GRACE_MS: '2000',
    CRAWL_PAGES_PER_BROWSER: '2',
    DEFAULT_TEAM_CONCURRENCY: '2',
  });
  apiBase = `http://127.0.0.1:${env.PORT}`;
});

afterAll(async () => {
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  await site?.close();
  killServers(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
});

async function status(key: string, id: string) {
  return (await fetch(`${apiBase}/v2/crawl/${id}?limit=1000`, { headers: { authorization: `Bearer ${key}` } })).json();
}

it('starts everything, survives Ctrl-C mid-crawl and kill -9 of itself, and finishes the crawl', async () => {
  const first = await npmStart(env, started);
  const key = /API key:\s+(fc-[0-9a-f]{32})/.exec(first.output())?.[1];
  expect(key, first.output()).toBeDefined();
  expect(first.output()).toContain(`API:          http://127.0.0.1:${env.PORT}/v2`);
  expect(first.output()).toContain(`Temporal UI:  http://localhost:${env.TEMPORAL_UI_PORT}`);
  expect(first.output()).toMatch(/migrations applied: \d+_init/);
  const metricsUrls = [env.GATEWAY_OPS_PORT, env.WORKER_OPS_PORT, env.BROWSER_HOST_OPS_PORT].map((port) => `http://127.0.0.1:${port}/metrics`);
  for (const url of metricsUrls) {
    expect(first.output()).toContain(url);
    const answer = await fetch(url);
    expect(answer.headers.get('content-type')).toContain('text/plain');
    expect(await answer.text()).toContain('process_cpu_seconds_total');
  }

  const health = await (await fetch(`${apiBase}/health`)).json();
  expect(health).toMatchObject({ postgres: { ok: true }, temporal: { ok: true } });
  // The banner waits for every child's ready endpoint; the ports set are the ones the children serve.
  for (const url of [`${apiBase}/health/ready`, `http://127.0.0.1:${env.WORKER_OPS_PORT}/ready`, `http://127.0.0.1:${env.BROWSER_HOST_OPS_PORT}/ready`]) {
    expect((await fetch(url)).status, url).toBe(200);
  }

  const { id } = await (
    await fetch(`${apiBase}/v2/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}/` }),
    })
  ).json();
  // In these polls a failed status request counts as "not yet".
  await waitFor('a few pages', async () => {
    const s = await status(key!, id).catch(() => undefined);
    return s?.status === 'scraping' && s.completed >= 2;
  });

  // Ctrl-C: everything stops in order, cleanly.
  first.proc.kill('SIGINT');
  expect(await exited(first.proc)).toBe(0);
  expect(first.output()).toContain('[start] stopped');
  expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  expect(existsSync(join(dataDir, 'temporal.pid'))).toBe(false);
  await expect(fetch(`${apiBase}/health`)).rejects.toThrow();

  // Start again: same data, same key, no new key printed; the crawl goes on.
  const second = await npmStart(env, started);
  expect(second.output()).not.toMatch(/API key:\s+fc-/);
  expect(second.output()).toContain('migrations: up to date');
  const done = await waitFor('the interrupted crawl to complete', async () => {
    const s = await status(key!, id).catch(() => undefined);
    return s?.status === 'completed' && s;
  });
  const errors = await (await fetch(`${apiBase}/v2/crawl/${id}/errors`, { headers: { authorization: `Bearer ${key}` } })).json();
  expect(done.completed, `failed pages: ${JSON.stringify(errors)}`).toBe(PAGES);
  expect(new Set(done.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL)).size).toBe(PAGES);

  // kill -9 of the supervisor: worker and gateway follow it down, the servers keep
  // running, and the next start adopts them.
  second.proc.kill('SIGKILL');
  await waitFor(
    'the orphaned gateway to stop',
    async () =>
      await fetch(`${apiBase}/health`).then(
        () => false,
        () => true,
      ),
    60_000,
  );
  const third = await npmStart(env, started);
  expect(third.output()).toContain('PostgreSQL: adopted the embedded server');
  expect(third.output()).toContain('Temporal: adopted the dev server');
  expect((await status(key!, id)).status).toBe('completed');
  third.proc.kill('SIGTERM');
  expect(await exited(third.proc)).toBe(0);
  expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
});
