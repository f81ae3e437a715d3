// Takes docs/images/temporal-ui-signal-dialog.png, the picture in docs/operations.md
// (Pause, resume and adjust a running job): the Temporal Web UI's signal dialog on a
// running crawl, filled in to pause it. Runs everything in this process on scratch
// servers (an embedded PostgreSQL, a Temporal dev server with its UI), a local slow
// site, and the installed Chromium. After a first `npm test` (which installs the
// Temporal CLI into .tools), with the worktree's Node:
//   TEMPORAL_CLI_PATH=.tools/temporal/temporal CHROMIUM_PATH=/usr/bin/chromium \
//     .tools/node/node_modules/node/bin/node --experimental-transform-types scripts/docs-signal-dialog.ts
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { chromium } from 'playwright';
import { createActivities } from '../activities/index.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { FEATURES } from '../src/features/index.ts';
import { jobWorkflowId, progressQuery } from '../src/jobs/definitions.ts';
import { chromiumLaunch } from '../src/platform/browser/chromium-launch.ts';
import { createDb } from '../src/platform/db/prisma.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded-postgres.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { createApp } from '../src/platform/http/app.ts';
import { createLogger } from '../src/platform/log.ts';
import { scratchDataDir } from '../src/platform/process/data-dir.ts';
import { freePort } from '../src/platform/process/ports.ts';
import { connectTemporal, temporalClient } from '../src/platform/temporal/connection.ts';
import { temporalEndpoint } from '../src/platform/temporal/connection-options.ts';
import { startTemporalDevServer } from '../src/platform/temporal/dev-server.ts';
import { ensureSearchAttributes } from '../src/platform/temporal/search-attributes.ts';
import { createWorkers } from '../src/platform/temporal/worker-registry.ts';
import { createTeam, issueApiKey } from '../src/platform/teams/teams.ts';
import { startFixtureSite, treeSite } from '../test/support/fixture-site.ts';

const OUT = 'docs/images/temporal-ui-signal-dialog.png';

async function main(): Promise<void> {
  const log = createLogger('warn', { process: 'docs-screenshot' });
  const dir = scratchDataDir('docs-signal-dialog-');
  const base = loadConfig();
  const [pgPort, port, uiPort, apiPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const pg = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: pgPort, database: 'docs', log });
  const temporalServer = await startTemporalDevServer({
    cliPath: base.temporal.cliPath,
    dataDir: join(dir, 'temporal'),
    port,
    uiPort,
    namespace: 'default',
    persist: false,
    log,
  });
  const stops: (() => Promise<unknown>)[] = [() => pg.stop(), () => temporalServer.stop()];
  try {
    await migrate(pg.url, log);
    const config: Config = {
      ...base,
      database: { ...base.database, url: pg.url },
      temporal: { ...base.temporal, address: temporalServer.address },
      crawl: { ...base.crawl, allowPrivateAddresses: true },
      // The crawl is terminated once the picture is taken: its batch need not be waited for.
      worker: { ...base.worker, shutdownGraceMs: 1_000 },
    };
    const db = createDb(pg.url);
    const connection = await connectTemporal(temporalEndpoint(temporalServer.address, config.temporal), log);
    await ensureSearchAttributes(connection, config.temporal.namespace, log);
    const temporal = temporalClient(connection, config.temporal.namespace, log);
    const native = await NativeConnection.connect(temporalEndpoint(temporalServer.address, config.temporal));
    const workers = await createWorkers(native, config, await createActivities({ db, config, log, temporal }));
    const running = Promise.all(workers.map((w) => w.run()));
    stops.unshift(async () => {
      for (const w of workers) w.shutdown();
      await running;
      await native.close();
      await connection.close();
      await db.$disconnect();
    });
    const server = createApp({ db, temporal, config, log }, FEATURES).listen(apiPort, '127.0.0.1');
    stops.unshift(() => new Promise((resolve) => server.close(resolve)));
    const site = await startFixtureSite(treeSite(400), { delayMs: () => 1_500 });
    stops.unshift(() => site.close());

    const team = await createTeam(db, { name: 'docs', credits: 100_000, concurrencyLimit: 2 });
    const { key } = await issueApiKey(db, team.id);
    const res = await fetch(`http://127.0.0.1:${apiPort}/v2/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}/`, sitemap: 'skip', limit: 400 }),
    });
    const { id } = (await res.json()) as { id: string };
    const workflowId = jobWorkflowId(await db.job.findUniqueOrThrow({ where: { id }, select: { id: true, workflowId: true } }));
    const handle = temporal.workflow.getHandle(workflowId);
    stops.unshift(() => handle.terminate('screenshot taken'));
    for (let p = await handle.query(progressQuery); p.completed < 6; p = await handle.query(progressQuery)) await new Promise((r) => setTimeout(r, 500));

    const browser = await chromium.launch(chromiumLaunch(config.chromium).launchOptions(undefined));
    stops.unshift(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${temporalServer.uiUrl}/namespaces/default/workflows/${workflowId}`);
    await page
      .getByText(/batch 1: up to \d+ pages of 127\.0\.0\.1:\d+/)
      .first()
      .waitFor({ timeout: 60_000 });
    // The workflow's actions menu, then its signal dialog.
    await page.getByRole('button', { name: /More Actions/ }).click();
    await page.getByRole('menuitem', { name: /Send a Signal/i }).click();
    // The signal names are those the workflow declares (the UI asks its metadata query).
    await page.locator('[data-testid="signal-select"]:visible').locator('..').click();
    await page.getByRole('option', { name: 'pause', exact: true }).click();
    const editor = page.locator('.cm-content:visible').first();
    await editor.click();
    await page.keyboard.type('{"by": "alice"}');
    await page.screenshot({ path: OUT });
    process.stdout.write(`wrote ${OUT}\n`);
  } finally {
    for (const stop of stops) await stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
// The worker's page machinery (conversion threads, its database pool) keeps the event loop alive.
process.exit(0);
