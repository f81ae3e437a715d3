// `npm start` watches the servers it runs: kill -9 of its embedded PostgreSQL and
// then of its Temporal dev server mid-crawl, and each is started again on the same
// data while the worker, host and gateway keep running; the crawl finishes with
// every page once. (Its own file, so it runs beside start.test.ts.)
import type { ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { waitFor } from '../support/wait-for.ts';
import { scratchDataDir } from '../../src/platform/process/data-dir.ts';
import { createKey, exited, killServers, npmStart, npmStartEnv, pidFromFile } from '../support/npm-start.ts';

const PAGES = 16;
let dataDir: string;
let site: FixtureSite;
let env: NodeJS.ProcessEnv;
let apiBase: string;
const started: ChildProcess[] = [];

beforeAll(async () => {
  dataDir = scratchDataDir('start-servers-test-');
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

it('starts PostgreSQL and the Temporal dev server again when they die, and the crawl finishes exactly', async () => {
  const run = await npmStart(env, started);
  const key = await createKey(env);
  const { id } = await (
    await fetch(`${apiBase}/v2/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}/` }),
    })
  ).json();
  await waitFor('a few pages', async () => ((await status(key, id).catch(() => undefined))?.completed ?? 0) >= 2);

  process.kill(pidFromFile(dataDir, 'postgres/postmaster.pid')!, 'SIGKILL');
  await waitFor('PostgreSQL restarted', () => run.output().includes('PostgreSQL is running again'), 120_000);
  process.kill(pidFromFile(dataDir, 'temporal.pid')!, 'SIGKILL');
  await waitFor('Temporal restarted', () => run.output().includes('the Temporal dev server is running again'), 120_000);
  expect(run.output()).toContain('PostgreSQL is not running; starting it again');

  const done = await waitFor('the crawl to complete', async () => {
    const s = await status(key, id).catch(() => undefined);
    return s?.status === 'completed' && s;
  });
  expect(done.completed).toBe(PAGES);
  expect(new Set(done.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL)).size).toBe(PAGES);
  run.proc.kill('SIGTERM');
  expect(await exited(run.proc)).toBe(0);
  expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  expect(existsSync(join(dataDir, 'temporal.pid'))).toBe(false);
});
