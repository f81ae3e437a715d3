// `npm start` watches the servers it runs: kill -9 of its embedded PostgreSQL and
// then of its Temporal dev server mid-crawl, and each is started again on the same
// data while the worker, host and gateway keep running; the crawl finishes with
// every page once. (Its own file, so it runs beside start.test.ts.)
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.ts';
import { createKey, exited, npmStart, npmStartSuite, pidFromFile, QUICK_RECOVERY } from '../support/npm-start.ts';

const PAGES = 16;
const suite = npmStartSuite({
  prefix: 'start-servers-test-',
  pages: PAGES,
  delayMs: 500,
  settings: QUICK_RECOVERY,
});

const { started, crawlStatus, startCrawl } = suite;

it('starts PostgreSQL and the Temporal dev server again when they die, and the crawl finishes exactly', async () => {
  const run = await npmStart(suite.env, started);
  const key = await createKey(suite.env);
  const id = await startCrawl(key);
  await waitFor('a few pages', async () => ((await crawlStatus(key, id).catch(() => undefined))?.completed ?? 0) >= 2);

  process.kill(pidFromFile(suite.dataDir, 'postgres/postmaster.pid')!, 'SIGKILL');
  await waitFor('PostgreSQL restarted', () => run.output().includes('PostgreSQL is running again'), 120_000);
  process.kill(pidFromFile(suite.dataDir, 'temporal.pid')!, 'SIGKILL');
  await waitFor('Temporal restarted', () => run.output().includes('the Temporal dev server is running again'), 120_000);
  expect(run.output()).toContain('PostgreSQL is not running; starting it again');

  const done = await waitFor('the crawl to complete', async () => {
    const s = await crawlStatus(key, id).catch(() => undefined);
    return s?.status === 'completed' && s;
  });
  expect(done.completed).toBe(PAGES);
  expect(new Set(done.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL)).size).toBe(PAGES);
  run.proc.kill('SIGTERM');
  expect(await exited(run.proc)).toBe(0);
  expect(existsSync(join(suite.dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  expect(existsSync(join(suite.dataDir, 'temporal.pid'))).toBe(false);
});
