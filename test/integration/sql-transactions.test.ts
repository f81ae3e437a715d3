import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.ts';
import { createDb, type Db } from '../../src/platform/db/prisma.ts';
import { SqlTransactions, type SqlTx } from '../../src/platform/db/sql-transactions.ts';

let db: Db;
let sql: SqlTransactions;
const table = `sql_tx_${randomUUID().replaceAll('-', '')}`;

beforeAll(async () => {
  db = createDb(inject('databaseUrl'), 2);
  sql = new SqlTransactions({ databaseUrl: inject('databaseUrl'), max: 2 });
  await db.$executeRawUnsafe(`CREATE TABLE ${table} (id bigserial PRIMARY KEY, name text NOT NULL, tags text[], at timestamptz)`);
});

afterAll(async () => {
  await db.$executeRawUnsafe(`DROP TABLE IF EXISTS ${table}`);
  await sql.end();
  await db.$disconnect();
});

/** The same statements, given a Prisma transaction or a pg one. */
async function insertAndRead(tx: SqlTx, name: string) {
  const inserted =
    await tx.$executeRaw`INSERT INTO ${Prisma.raw(table)} (name, tags, at) VALUES (${name}, ${['a', "b'c", null]}::text[], ${new Date('2026-11-28T12:00:00Z')})`;
  const where = Prisma.sql`name = ${name}`;
  const rows = await tx.$queryRaw<{ id: bigint; name: string; tags: (string | null)[]; at: Date; n: bigint }[]>`
    SELECT id, name, tags, at, count(*) OVER () AS n FROM ${Prisma.raw(table)} WHERE ${where}`;
  return { inserted, rows };
}

describe('SqlTransactions', () => {
  it("answers Prisma's raw statements as Prisma does: row counts, int8 as bigint, arrays, dates, nested fragments", async () => {
    const viaPrisma = await db.$transaction((tx) => insertAndRead(tx, 'prisma'));
    const viaPg = await sql.transaction((tx) => insertAndRead(tx, 'pg'));
    expect(viaPg.inserted).toBe(1);
    expect(viaPg.rows).toEqual([{ ...viaPrisma.rows[0], id: viaPg.rows[0]!.id, name: 'pg' }]);
    expect(typeof viaPg.rows[0]!.id).toBe('bigint');
    expect(viaPg.rows[0]!.n).toBe(1n);
    expect(viaPg.rows[0]!.tags).toEqual(['a', "b'c", null]);
    expect(viaPg.rows[0]!.at.toISOString()).toBe('2026-11-28T12:00:00.000Z');
  });

  it('rolls back all of a transaction that throws, and its connection serves the next one', async () => {
    await expect(
      sql.transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO ${Prisma.raw(table)} (name) VALUES (${'rolled back'})`;
        await tx.$executeRaw`INSERT INTO ${Prisma.raw(table)} (name) VALUES (${null})`;
      }),
    ).rejects.toThrow(/null value/);
    for (let i = 0; i < 3; i++) await sql.transaction((tx) => tx.$executeRaw`SELECT 1`);
    const left = await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${table} WHERE name = 'rolled back'`);
    expect(left[0]!.n).toBe(0n);
  });

  it('runs transactions side by side, each on its own connection', async () => {
    const names = Array.from({ length: 6 }, (_, i) => `parallel ${i}`);
    await Promise.all(names.map((name) => sql.transaction((tx) => tx.$executeRaw`INSERT INTO ${Prisma.raw(table)} (name) VALUES (${name})`)));
    const rows = await db.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM ${table} WHERE name LIKE 'parallel %' ORDER BY name`);
    expect(rows.map((r) => r.name)).toEqual(names);
  });
});
