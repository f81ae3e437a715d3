// `npm run migration:new -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql
// with the SQL that turns the schema of the newest migration into
// prisma/schema.prisma. Each migration folder keeps a copy of the schema it was
// made from (schema.prisma), because Prisma's WASM engine, the only one that works
// offline, cannot diff against a database when an adapter is configured. The
// engine still needs a live connection, so a throwaway embedded PostgreSQL runs
// meanwhile; the new SQL is applied to it as a check before anything is written.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startEmbeddedPostgres } from '../src/platform/db/embedded-postgres.ts';
import { MIGRATIONS_DIR, migrate, readMigrations } from '../src/platform/db/migrate.ts';
import { createLogger } from '../src/platform/log.ts';
import { scratchDataDir } from '../src/platform/process/data-dir.ts';
import { freePort } from '../src/platform/process/ports.ts';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run migration:new -- <name>   (lower-case letters, digits and _)');
  process.exit(2);
}

const log = createLogger('warn');
const dir = scratchDataDir('migration-');
const pg = await startEmbeddedPostgres({ dataDir: dir, port: await freePort(), database: 'diff', log });
try {
  const existing = readMigrations();
  const latest = existing.at(-1);
  const fromSchema = latest ? join(MIGRATIONS_DIR, latest.name, 'schema.prisma') : undefined;
  if (fromSchema && !existsSync(fromSchema)) throw new Error(`${fromSchema} is missing; every migration folder keeps the schema it was made from`);
  const sql = execFileSync(
    process.execPath,
    [
      resolve('node_modules/prisma/build/index.js'),
      'migrate',
      'diff',
      ...(fromSchema ? ['--from-schema-datamodel', fromSchema] : ['--from-empty']),
      '--to-schema-datamodel',
      'prisma/schema.prisma',
      '--script',
    ],
    { encoding: 'utf8', env: { ...process.env, DATABASE_URL: pg.url }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (!/\b(CREATE|ALTER|DROP)\b/.test(sql)) {
    console.log('prisma/schema.prisma matches the newest migration; nothing to write');
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const migrationName = `${stamp}_${name}`;
    await migrate(pg.url, log, [...existing, { name: migrationName, sql, checksum: 'check-only' }]);
    const target = join(MIGRATIONS_DIR, migrationName);
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'migration.sql'), sql);
    copyFileSync('prisma/schema.prisma', join(target, 'schema.prisma'));
    console.log(`wrote ${join(target, 'migration.sql')} (applied cleanly to a scratch database)`);
  }
} finally {
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
