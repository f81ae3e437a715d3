// kill -9 of the Temporal server during a crawl, then a restart on the same
// SQLite file: the worker and the gateway reconnect, and the crawl ends with
// exactly the expected pages. This test runs its own dev server.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/log.ts';
import { pidAlive } from '../../src/platform/process/detached.ts';
import { startTemporalDevServer, type TemporalDevServer } from '../../src/platform/temporal/dev-server.ts';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import { freePort } from '../../src/platform/process/ports.ts';

const PAGES = 30;
let h: Harness;
let site: FixtureSite;
let temporal: TemporalDevServer;
let dir: string;
let port: number;
const log = createLogger('warn', { process: 'test' });

const startTemporal = () => startTemporalDevServer({ cliPath: process.env.TEMPORAL_CLI_PATH!, dataDir: dir, port, namespace: 'default', persist: true, log });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crawl-temporal-kill-'));
  port = await freePort();
  temporal = await startTemporal();
  h = await startHarness({ temporalAddress: temporal.address });
  await h.spawnWorker();
  site = await startFixtureSite(treeSite(PAGES), { delayMs: () => 150 });
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
  await temporal?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('finishes a crawl whose Temporal server was killed with SIGKILL and restarted', async () => {
  const { id } = await (await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 100 } })).json();
  await waitFor('some pages', async () => (await h.db.jobPage.count({ where: { jobId: id } })) >= 3, 60_000, 50);
  const pid = Number(readFileSync(join(dir, 'temporal.pid'), 'utf8'));
  process.kill(-pid, 'SIGKILL');
  await waitFor('the server to die', async () => !pidAlive(pid), 10_000, 50);
  expect(await h.db.jobPage.count({ where: { jobId: id } })).toBeLessThan(PAGES);
  temporal = await startTemporal();

  const status = await waitForCrawl(h, id, 240_000);
  expect(status.status).toBe('completed');
  expect(status.completed).toBe(PAGES);
  expect(await h.db.jobPage.count({ where: { jobId: id } })).toBe(PAGES);
  for (let i = 0; i < PAGES; i++) expect(site.hits.get(i === 0 ? '/' : `/p/${i}`)).toBe(1);
});
