// A job start answered 503 at its deadline while the database does not answer, over
// the real middlewares (deadline, activity log, idempotency) and HTTP, with a
// database whose answers the test holds: the 503 leaves at the deadline, not when the
// activity row is written; the handler's answer that comes later is the one the key
// keeps, so the client's retry with the key gets that job instead of waiting on a key
// nobody settles.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterEach, expect, it } from 'vitest';
import { recordActivity } from '../../../src/platform/http/activity-log.ts';
import { errorHandler } from '../../../src/platform/http/errors.ts';
import { idempotency } from '../../../src/platform/http/idempotency.ts';
import { CHECKS_LEAD_MS, requestDeadline } from '../../../src/platform/http/request-deadline.ts';
import type { Db } from '../../../src/platform/db/prisma.ts';
import { createLogger } from '../../../src/platform/log.ts';

const DEADLINE_MS = CHECKS_LEAD_MS + 500;
const log = createLogger('error', { process: 'test' });

/** One team's idempotency keys and activity rows; while `down`, every statement waits until `up()`. */
function heldDatabase() {
  let down = false;
  let waiters: (() => void)[] = [];
  const answered = async <T>(work: () => T): Promise<T> => {
    while (down) await new Promise<void>((resolve) => waiters.push(resolve));
    return work();
  };
  const keys = new Map<string, { fingerprint: string; claimId: string; statusCode: number | null; answer: unknown; jobId: string | null; createdAt: Date }>();
  const activity: { statusCode: number; jobId: string | null }[] = [];
  const held = (where: { key: string; claimId: string }) => keys.get(where.key)?.claimId === where.claimId;
  const db = {
    $queryRaw: (_sql: TemplateStringsArray, _team: string, key: string, fingerprint: string, claimId: string) =>
      answered(() => {
        if (keys.has(key)) return [];
        keys.set(key, { fingerprint, claimId, statusCode: null, answer: null, jobId: null, createdAt: new Date() });
        return [1];
      }),
    idempotencyKey: {
      findUnique: ({ where }: { where: { teamId_key: { key: string } } }) => answered(() => keys.get(where.teamId_key.key) ?? null),
      updateMany: ({ where, data }: { where: { key: string; claimId: string }; data: object }) =>
        answered(() => ({ count: held(where) ? Number(Boolean(Object.assign(keys.get(where.key)!, data))) : 0 })),
      deleteMany: ({ where }: { where: { key: string; claimId: string } }) => answered(() => ({ count: held(where) ? Number(keys.delete(where.key)) : 0 })),
    },
    activityLog: { create: ({ data }: { data: { statusCode: number; jobId: string | null } }) => answered(() => activity.push(data)) },
  };
  return {
    db: db as unknown as Db,
    keys,
    activity,
    isDown: () => down,
    down: () => void (down = true),
    up: () => {
      down = false;
      for (const wake of waiters) wake();
      waiters = [];
    },
  };
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** The gateway's middlewares in front of one job-creating route that waits for `jobDone`; `starts` counts its runs. */
async function gateway(database: ReturnType<typeof heldDatabase>, jobDone: Promise<void>) {
  const runs = { starts: 0 };
  const app = express();
  app.use((_req, res, next) => {
    res.locals.requestId = 'req-1';
    res.locals.auth = { team: { id: 'team-1' }, apiKeyId: 'key-1' };
    next();
  });
  const checks = {
    postgres: () => {
      if (database.isDown()) throw new Error('no answer within 1000 ms');
    },
    temporal: () => undefined,
  };
  app.use(requestDeadline(checks, { deadlineMs: DEADLINE_MS }));
  app.use('/v2', express.json(), recordActivity(database.db, log), idempotency(database.db, log, { windowHours: 24 }));
  app.post('/v2/crawl', async (_req, res) => {
    runs.starts++;
    res.locals.activityJobId = 'job-1';
    await jobDone;
    res.json({ success: true, id: 'job-1' });
  });
  app.use(errorHandler(log));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v2/crawl`;
  const post = async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-idempotency-key': 'k' },
      body: '{"url":"x"}',
      signal: AbortSignal.timeout(DEADLINE_MS + 3000),
    });
    return { status: res.status, body: await res.json() };
  };
  return { post, runs };
}

const unavailable = { status: 503, body: { code: 'SERVICE_UNAVAILABLE', details: { dependency: 'PostgreSQL' } } };
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

it('answers 503 at the deadline without waiting for the activity row, and keeps the later answer for the retry', async () => {
  const database = heldDatabase();
  let finishJob!: () => void;
  const { post, runs } = await gateway(database, new Promise<void>((resolve) => (finishJob = resolve)));

  const first = post();
  // The key is claimed; then the database stops answering and the job's start hangs on it.
  while (!database.keys.has('k')) await new Promise((resolve) => setTimeout(resolve, 10));
  database.down();
  expect(await first).toMatchObject(unavailable);

  // The database comes back and the job's start ends: its answer is kept under the key, and the retry gets it.
  database.up();
  finishJob();
  await settle();
  expect(database.keys.get('k')).toMatchObject({ statusCode: 200, jobId: 'job-1' });
  expect(await post()).toMatchObject({ status: 200, body: { success: true, id: 'job-1' } });
  expect(runs.starts).toBe(1);
  // One activity row for the first request (its 503), one for the replay.
  expect(database.activity.map((a) => a.statusCode)).toEqual([503, 200]);
});

it('keeps the answer of a request whose claim came through only after the deadline had answered it', async () => {
  const database = heldDatabase();
  const { post, runs } = await gateway(database, Promise.resolve());
  database.down();
  // The claim itself waits on the database: the deadline answers first.
  expect(await post()).toMatchObject(unavailable);
  database.up();
  await settle();
  // The claim went through, the job started, and its answer is the key's: the retry is not a second job.
  expect(database.keys.get('k')).toMatchObject({ statusCode: 200, jobId: 'job-1' });
  expect(await post()).toMatchObject({ status: 200, body: { success: true, id: 'job-1' } });
  expect(runs.starts).toBe(1);
});
