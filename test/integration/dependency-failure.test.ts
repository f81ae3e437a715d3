// What the service's clients of PostgreSQL (Prisma, a pg pool of our own) and of
// Temporal say when their server is refused, reset or black-holed, read through
// a TCP proxy in front of the suite's real servers: dependencyFailure names the
// dependency for each (so the gateway answers 503, not 500), each fails within
// its limit instead of waiting for the server, a connection lost inside a
// transaction is no uncaught error, and everything works again once the
// network does.
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db, type DbLimits } from '../../src/platform/db/prisma.ts';
import { SqlTransactions } from '../../src/platform/db/sql-transactions.ts';
import { dependencyFailure } from '../../src/platform/dependency-failure.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

const LIMITS: DbLimits = { connectTimeoutMs: 1000, queryTimeoutMs: 1500 };
/** How much later than its limit a failure may come on a loaded machine. */
const SLACK_MS = 1500;

let pgProxy: TcpProxy;
let db: Db;
let sql: SqlTransactions;
let temporalProxy: TcpProxy;
let connection: Connection;
let temporal: Client;
const uncaught: unknown[] = [];
const onUncaught = (err: unknown) => uncaught.push(err);

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  const url = new URL(inject('databaseUrl'));
  pgProxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  url.host = pgProxy.address;
  db = createDb(url.toString(), 2, LIMITS);
  sql = new SqlTransactions({ databaseUrl: url.toString(), max: 2, limits: LIMITS });
  temporalProxy = await startTcpProxy(inject('temporalAddress'));
  connection = await Connection.connect({ address: temporalProxy.address });
  temporal = new Client({ connection });
});

afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  pgProxy?.release();
  pgProxy?.refuse(false);
  temporalProxy?.release();
  temporalProxy?.refuse(false);
  // A connection kept by a failed transaction would hold up the pools' end.
  await db?.$disconnect();
  await sql?.end();
  await connection?.close();
  await pgProxy?.close();
  await temporalProxy?.close();
});

/** The error `work` fails with, and how long it took. */
async function failure(work: () => Promise<unknown>): Promise<{ err: unknown; ms: number }> {
  const started = Date.now();
  try {
    await work();
  } catch (err) {
    return { err, ms: Date.now() - started };
  }
  throw new Error('expected a failure');
}

const prismaRead = () => db.team.findFirst();
const prismaRaw = () => db.$queryRaw`SELECT 1`;
const prismaTx = () => db.$transaction(async (tx) => tx.team.findFirst());
const sqlTx = () => sql.transaction((tx) => tx.$queryRaw`SELECT 1`);

async function pgWorksAgain() {
  pgProxy.release();
  pgProxy.refuse(false);
  // Each pool may hold one connection broken by the fault: the first use drops it.
  for (const work of [prismaRead, prismaRaw, prismaTx, sqlTx]) await work().catch(() => work());
  for (const work of [prismaRead, prismaRaw, prismaTx, sqlTx]) await work();
}

describe('PostgreSQL', () => {
  it('refused and reset: every kind of statement fails at once, named PostgreSQL', async () => {
    await pgWorksAgain();
    pgProxy.refuse(true);
    pgProxy.reset();
    for (const work of [prismaRead, prismaRaw, prismaTx, sqlTx]) {
      const { err, ms } = await failure(work);
      expect(dependencyFailure(err), String(err)).toMatchObject({ dependency: 'PostgreSQL' });
      expect(ms).toBeLessThan(LIMITS.connectTimeoutMs + SLACK_MS);
    }
    await pgWorksAgain();
  });

  it('reset between two statements of a transaction: the transaction fails, the process does not, no pool slot is kept', async () => {
    await pgWorksAgain();
    const resetInside = (query: () => Promise<unknown>) => async () => {
      await query();
      pgProxy.reset();
      await new Promise((r) => setTimeout(r, 100));
      await query();
    };
    const viaPrisma = await failure(() => db.$transaction((tx) => resetInside(() => tx.team.findFirst())()));
    const viaPg = await failure(() => sql.transaction((tx) => resetInside(() => tx.$queryRaw`SELECT 1`)()));
    expect(dependencyFailure(viaPrisma.err), String(viaPrisma.err)).toMatchObject({ dependency: 'PostgreSQL' });
    expect(dependencyFailure(viaPg.err), String(viaPg.err)).toMatchObject({ dependency: 'PostgreSQL' });
    // More failed transactions than the pools have connections: each gave its connection back.
    for (let i = 0; i < 2; i++) {
      await failure(() => db.$transaction((tx) => resetInside(() => tx.team.findFirst())()));
      await failure(() => sql.transaction((tx) => resetInside(() => tx.$queryRaw`SELECT 1`)()));
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(uncaught).toEqual([]);
    await pgWorksAgain();
  });

  it('black-holed: a statement on an open connection fails at the query timeout, a new connection at the connect timeout', async () => {
    await pgWorksAgain();
    pgProxy.hold();
    for (const work of [prismaRead, sqlTx]) {
      const { err, ms } = await failure(work);
      expect(dependencyFailure(err), String(err)).toMatchObject({ dependency: 'PostgreSQL' });
      expect(ms).toBeLessThan(LIMITS.queryTimeoutMs + LIMITS.connectTimeoutMs + SLACK_MS);
    }
    await pgWorksAgain();
  });

  it('black-holed for less than the query timeout: statements in flight complete once the network heals', async () => {
    await pgWorksAgain();
    pgProxy.hold();
    const started = Date.now();
    const inFlight = [prismaRead(), prismaTx(), sqlTx()].map((p) => p.then(() => Date.now() - started));
    await new Promise((r) => setTimeout(r, LIMITS.queryTimeoutMs / 2));
    pgProxy.release();
    for (const ms of await Promise.all(inFlight)) expect(ms).toBeLessThan(LIMITS.queryTimeoutMs);
    await pgWorksAgain();
  });

  it('a statement the server refuses is no dependency failure', async () => {
    await pgWorksAgain();
    const { err } = await failure(() => db.$queryRawUnsafe('SELECT * FROM no_such_table'));
    expect(dependencyFailure(err)).toBeUndefined();
  });
});

describe('Temporal', () => {
  const describeMissing = () => temporal.workflow.getHandle('no-such-workflow').describe();

  it('refused: UNAVAILABLE, named Temporal; a workflow that does not exist is no dependency failure', async () => {
    expect(dependencyFailure((await failure(describeMissing)).err)).toBeUndefined();
    temporalProxy.refuse(true);
    temporalProxy.reset();
    const { err } = await failure(() => connection.withDeadline(Date.now() + 3000, describeMissing));
    expect(dependencyFailure(err), String(err)).toMatchObject({ dependency: 'Temporal' });
    temporalProxy.refuse(false);
  });

  it('black-holed: DEADLINE_EXCEEDED at the call deadline, named Temporal; answers again after', async () => {
    await connection.withDeadline(Date.now() + 10_000, () => temporal.workflowService.getSystemInfo({}));
    temporalProxy.hold();
    const { err, ms } = await failure(() => connection.withDeadline(Date.now() + 1000, describeMissing));
    expect(dependencyFailure(err), String(err)).toMatchObject({ dependency: 'Temporal' });
    expect(ms).toBeLessThan(1000 + SLACK_MS);
    temporalProxy.release();
    await connection.withDeadline(Date.now() + 10_000, () => temporal.workflowService.getSystemInfo({}));
  });
});
