// The readiness probe of PostgreSQL (platform/db/database-probe.ts) asks the server
// on connections of its own: a pool whose every connection the process's own work
// holds is not a server that does not answer, and a connection that stopped
// answering is not asked again.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../src/platform/db/prisma.ts';
import { probe, serviceChecks } from '../../src/platform/process/readiness.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

/** Far longer than a SELECT 1 takes on the loaded machine: what fails here fails by waiting for good, not by being slow. */
const PROBE_WAIT_MS = 5000;

let proxy: TcpProxy;
let db: Db;

beforeAll(async () => {
  const url = new URL(inject('databaseUrl'));
  proxy = await startTcpProxy(url.host);
  url.host = proxy.address;
  // One connection: a transaction of the test's own takes the whole pool.
  db = createDb(url.toString(), 1);
});

afterAll(async () => {
  await db?.$disconnect();
  await proxy?.close();
});

const postgresCheck = (timeoutMs = PROBE_WAIT_MS) =>
  probe(serviceChecks({ db, temporal: { workflowService: { getSystemInfo: async () => ({}) } } }).postgres, timeoutMs);

it('answers while the process holds every connection of its pool', async () => {
  let letGo!: () => void;
  const held = new Promise<void>((resolve) => (letGo = resolve));
  let inside!: () => void;
  const entered = new Promise<void>((resolve) => (inside = resolve));
  const transaction = db.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT 1`;
      inside();
      await held;
    },
    { timeout: 60_000 },
  );
  await entered;
  try {
    expect(await postgresCheck()).toMatchObject({ ok: true });
  } finally {
    letGo();
    await transaction;
  }
});

it('says so while the server does not answer, and answers again once it does', async () => {
  expect(await postgresCheck()).toMatchObject({ ok: true });
  proxy.hold();
  try {
    expect(await postgresCheck(1000)).toMatchObject({ ok: false });
  } finally {
    proxy.release();
  }
  expect(await postgresCheck()).toMatchObject({ ok: true });
});
