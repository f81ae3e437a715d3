// The start-up migration runner against the real PostgreSQL, each case on a
// database of its own.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { migrate, MigrationError, readMigrations } from '../../src/platform/db/migrate.ts';
import { createLogger } from '../../src/platform/log.ts';

const log = createLogger('error');
const created: string[] = [];

async function freshDatabase(): Promise<string> {
  const name = `mig_${randomUUID().replaceAll('-', '')}`;
  const client = new pg.Client({ connectionString: inject('postgresServerUrl') });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  created.push(name);
  return inject('postgresServerUrl').replace(/\/postgres$/, `/${name}`);
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  const client = new pg.Client({ connectionString: inject('postgresServerUrl') });
  await client.connect();
  for (const name of created) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.end();
});

describe('migrate', () => {
  it('applies every migration once and records it the way Prisma does', async () => {
    const url = await freshDatabase();
    const files = readMigrations();
    expect(files.length).toBeGreaterThan(0);
    expect(await migrate(url, log)).toEqual(files.map((f) => f.name));
    expect(await migrate(url, log)).toEqual([]);
    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      url,
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(rows.map((r) => [r.migration_name, r.checksum, r.finished_at !== null, r.applied_steps_count])).toEqual(
      files.map((f) => [f.name, f.checksum, true, 1]),
    );
    const tables = await query<{ tablename: string }>(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename");
    expect(tables.map((t) => t.tablename)).toEqual(expect.arrayContaining(['team', 'api_key', 'job', 'job_url', 'job_page', 'activity_log']));
  });

  it('is safe when several replicas start at the same time', async () => {
    const url = await freshDatabase();
    const results = await Promise.all(Array.from({ length: 5 }, () => migrate(url, log)));
    expect(results.flat().sort()).toEqual(
      readMigrations()
        .map((f) => f.name)
        .sort(),
    );
    const [{ count }] = await query<{ count: string }>(url, 'SELECT count(*) FROM _prisma_migrations');
    expect(Number(count)).toBe(readMigrations().length);
  });

  it('refuses to start when an applied migration file was changed', async () => {
    const url = await freshDatabase();
    await migrate(url, log);
    const tampered = readMigrations().map((m, i) => (i === 0 ? { ...m, checksum: 'f'.repeat(64), sql: `${m.sql}\n-- edited` } : m));
    await expect(migrate(url, log, tampered)).rejects.toThrow(MigrationError);
    await expect(migrate(url, log, tampered)).rejects.toThrow(/was changed after it was applied/);
  });

  it('refuses to start when the database has a migration this code does not know', async () => {
    const url = await freshDatabase();
    await migrate(url, log);
    await expect(migrate(url, log, readMigrations().slice(0, -1))).rejects.toThrow(/not in prisma\/migrations/);
  });

  it('rolls back a failing migration completely', async () => {
    const url = await freshDatabase();
    const broken = [...readMigrations(), { name: '99990101000000_broken', sql: 'CREATE TABLE half_done (id int); SELECT no_such_function();', checksum: 'x' }];
    await expect(migrate(url, log, broken)).rejects.toThrow(/99990101000000_broken failed/);
    expect(await query(url, "SELECT 1 FROM pg_tables WHERE tablename = 'half_done'")).toEqual([]);
    expect(await query(url, "SELECT 1 FROM _prisma_migrations WHERE migration_name = '99990101000000_broken'")).toEqual([]);
  });
});
