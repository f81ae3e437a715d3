// Starts the real servers the integration tests share: an embedded PostgreSQL
// and a Temporal dev server, each on free ports with temporary data (never
// .data/). A server that cannot start fails the run, nothing is skipped, and
// the other server is stopped. The workflow code is bundled once here, as an
// image does at build time: every worker of the run (in-process or spawned)
// loads that bundle instead of running webpack for seconds of CPU at its start.
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { cpu, cpuOfTree } from '../../bench/processes.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/platform/db/embedded-postgres.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { createLogger } from '../../src/platform/log.ts';
import { startTemporalDevServer, type TemporalDevServer } from '../../src/platform/temporal/dev-server.ts';
import { bundleWorkflows } from '../../src/platform/temporal/workflow-code.ts';
import { killLeftovers, markTestRun } from './leftover-processes.ts';
import { scratchDataDir } from '../../src/platform/process/data-dir.ts';
import { freePort } from '../../src/platform/process/ports.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    /** Server URL of the same PostgreSQL (database `postgres`), for tests that create databases. */
    postgresServerUrl: string;
    temporalAddress: string;
    /** The workflow code of this checkout, bundled (TEMPORAL_WORKFLOW_BUNDLE). */
    workflowBundlePath: string;
  }
}

/** With TEST_CPU_LOG (test/support/file-cpu.ts), the shared servers' CPU too, which no test file's line holds. */
function logServerCpu(started: PromiseSettledResult<{ pid?: number }>[]): void {
  const log = process.env.TEST_CPU_LOG;
  if (!log) return;
  const [postgres, temporal] = started.map((s) => (s.status === 'fulfilled' && s.value.pid ? Math.round(cpuOfTree(s.value.pid) * 1000) : null));
  appendFileSync(
    log,
    `${JSON.stringify({ sharedServers: { postgresMs: postgres, temporalMs: temporal }, vitestMainMs: Math.round(cpu('self').own * 1000) })}\n`,
  );
}

export default async function setup(project: TestProject) {
  const cli = process.env.TEMPORAL_CLI_PATH;
  if (!cli) throw new Error('TEMPORAL_CLI_PATH is not set: run the tests with `npm test`, which installs the Temporal CLI');
  if (!process.env.CHROMIUM_PATH) throw new Error('CHROMIUM_PATH is not set: run the tests with `npm test`, which finds or installs Chromium');
  const log = createLogger('warn', { process: 'test-setup' });
  const marker = markTestRun();
  const dir = scratchDataDir('crawl-test-');
  const workflowBundlePath = join(dir, 'workflow-bundle.js');
  const started = await Promise.allSettled([
    freePort().then((port) => startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port, database: 'crawl_test', log })),
    freePort().then((port) => startTemporalDevServer({ cliPath: cli, dataDir: join(dir, 'temporal'), port, namespace: 'default', persist: false, log })),
  ]);
  const teardown = async () => {
    logServerCpu(started);
    for (const s of started.toReversed()) if (s.status === 'fulfilled') await s.value.stop();
    for (const leftover of await killLeftovers(marker)) process.stderr.write(`[test teardown] killed a process a test left running: ${leftover}\n`);
    rmSync(dir, { recursive: true, force: true });
  };
  // A setup that fails returns no teardown: stop here whatever did start.
  try {
    const [pg, temporal] = started.map((s) => {
      if (s.status === 'rejected') throw s.reason;
      return s.value;
    }) as [EmbeddedPostgres, TemporalDevServer];
    await migrate(pg.url, log);
    writeFileSync(workflowBundlePath, await bundleWorkflows());
    project.provide('databaseUrl', pg.url);
    project.provide('postgresServerUrl', pg.url.replace(/\/crawl_test$/, '/postgres'));
    project.provide('temporalAddress', temporal.address);
    project.provide('workflowBundlePath', workflowBundlePath);
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
