// Starts the real servers the integration tests share: an embedded PostgreSQL
// and a Temporal dev server, each on free ports with temporary data (never
// .data/). A server that cannot start fails the run; nothing is skipped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { createLogger } from '../../src/platform/log.ts';
import { startTemporalDevServer } from '../../src/platform/temporal/dev-server.ts';
import { freePort } from '../../src/platform/process/ports.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    /** Server URL of the same PostgreSQL (database `postgres`), for tests that create databases. */
    postgresServerUrl: string;
    temporalAddress: string;
  }
}

export default async function setup(project: TestProject) {
  const cli = process.env.TEMPORAL_CLI_PATH;
  if (!cli) throw new Error('TEMPORAL_CLI_PATH is not set: run the tests with `npm test`, which installs the Temporal CLI');
  if (!process.env.CHROMIUM_PATH) throw new Error('CHROMIUM_PATH is not set: run the tests with `npm test`, which finds or installs Chromium');
  const log = createLogger('warn', { process: 'test-setup' });
  const dir = mkdtempSync(join(tmpdir(), 'crawl-test-'));
  const [pg, temporal] = await Promise.all([
    freePort().then((port) => startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port, database: 'crawl_test', log })),
    freePort().then((port) =>
      startTemporalDevServer({ cliPath: cli, dataDir: join(dir, 'temporal'), port, namespace: 'default', persist: false, log }),
    ),
  ]);
  await migrate(pg.url, log);
  project.provide('databaseUrl', pg.url);
  project.provide('postgresServerUrl', pg.url.replace(/\/crawl_test$/, '/postgres'));
  project.provide('temporalAddress', temporal.address);
  return async () => {
    await temporal.stop();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
