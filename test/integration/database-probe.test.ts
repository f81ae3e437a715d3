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
let proxiedUrl: string;
let db: Db;

beforeAll(async () => {
  const url = new URL(inject('databaseUrl'));
  proxy = await startTcpProxy(url.host);
  url.host = proxy.address;
  proxiedUrl = url.toString();
  // One connection: a transaction of the test's own takes the whole pool.
  db = createDb(proxiedUrl, 1);
});

afterAll(async () => {
  await db?.$disconnect();
  await proxy?.close();
});

const checksOf = (client: Db) => serviceChecks({ db: client, temporal: { workflowService: { getSystemInfo: async () => ({}) } } });
const postgresCheck = (timeoutMs = PROBE_WAIT_MS) => probe(checksOf(db).postgres, timeoutMs);

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

it("takes the process's own statements answered meanwhile for the server answering, when a connection of its own is too slow to come up", async () => {
  // A client whose probe has no connection yet, and whose pool has one open.
  const fresh = createDb(proxiedUrl, 1);
  try {
    await fresh.$queryRaw`SELECT 1`;
    // Every byte 0.7 s late each way: a statement on the open connection is answered in 1.4 s; the probe's
    // new connection needs more round trips (startup, authentication, its statement) than its 2 s allow.
    proxy.delay(700);
    // Sent now: a Prisma query starts only once something waits for it.
    const statement = fresh.$queryRaw`SELECT 1`.then(() => undefined);
    const answer = await probe(checksOf(fresh).postgres, 3000);
    expect(answer, JSON.stringify(answer)).toMatchObject({ ok: true });
    await statement;
  } finally {
    proxy.delay(0);
    await fresh.$disconnect();
  }
});

it('says so, and leaves the process running, when its connection is reset while it waits', async () => {
  expect(await postgresCheck()).toMatchObject({ ok: true });
  proxy.hold();
  const waiting = postgresCheck();
  await new Promise((resolve) => setTimeout(resolve, 300));
  // Unheard, the reset is an 'error' event of the probe's client, which ends the process.
  proxy.reset();
  proxy.release();
  expect(await waiting).toMatchObject({ ok: false });
  expect(await postgresCheck()).toMatchObject({ ok: true });
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
