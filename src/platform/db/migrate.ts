// Applies prisma/migrations/<name>/migration.sql files that have not been applied
// yet, recording them in _prisma_migrations exactly as `prisma migrate deploy`
// would (that command needs Prisma's native schema engine, which our machines
// cannot download, and fails with the bundled WASM one). A Postgres
// advisory lock serialises replicas that start at the same time.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { Logger } from '../log.ts';

// The key Prisma's own migrate engine uses, so our runner and Prisma's exclude each other.
const ADVISORY_LOCK_KEY = 72707369;

export const MIGRATIONS_DIR = resolve(import.meta.dirname, '..', '..', '..', 'prisma', 'migrations');

export class MigrationError extends Error {}

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): MigrationFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'migration.sql')))
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

const CREATE_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

/** Returns the names of the migrations applied by this call. */
export async function migrate(databaseUrl: string, log: Logger, migrations = readMigrations()): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
    try {
      await client.query(CREATE_TABLE);
      const { rows } = await client.query<AppliedRow>('SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL');
      const applied = new Map(rows.map((r) => [r.migration_name, r]));
      const known = new Set(migrations.map((m) => m.name));
      for (const row of rows) {
        if (!row.finished_at) {
          throw new MigrationError(
            `migration ${row.migration_name} started earlier but never finished; fix the database by hand, then delete its row from _prisma_migrations`,
          );
        }
        if (!known.has(row.migration_name)) {
          throw new MigrationError(`the database has migration ${row.migration_name}, which is not in prisma/migrations; this code is older than the database`);
        }
      }
      const done: string[] = [];
      for (const m of migrations) {
        const prior = applied.get(m.name);
        if (prior) {
          if (prior.checksum !== m.checksum) {
            throw new MigrationError(
              `migration ${m.name} was changed after it was applied (checksum ${prior.checksum.slice(0, 12)} in the database, ${m.checksum.slice(0, 12)} on disk); add a new migration instead of editing an applied one`,
            );
          }
          continue;
        }
        const id = randomUUID();
        log.info('applying migration', { migration: m.name });
        await client.query('BEGIN');
        try {
          await client.query('INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())', [
            id,
            m.checksum,
            m.name,
          ]);
          await client.query(m.sql);
          await client.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [id]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new MigrationError(`migration ${m.name} failed: ${(err as Error).message}`);
        }
        done.push(m.name);
      }
      return done;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}
