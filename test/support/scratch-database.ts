// A migrated database of a test file's own on the suite's PostgreSQL server, for
// tests that count rows deployment-wide (shared gauges) and so must not see the
// jobs of the integration files running beside them.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { migrate } from '../../src/platform/db/migrate.ts';
import { createLogger } from '../../src/platform/log.ts';

export interface ScratchDatabase {
  url: string;
  /** Drops it, closing whatever connections are left. */
  drop(): Promise<void>;
}

async function serverQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('postgresServerUrl') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomUUID().replaceAll('-', '')}`;
  await serverQuery(`CREATE DATABASE ${name}`);
  const url = inject('postgresServerUrl').replace(/\/postgres$/, `/${name}`);
  await migrate(url, createLogger('error'));
  return { url, drop: () => serverQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
