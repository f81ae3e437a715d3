// The fair-share rule of browser slots, against PostgreSQL: when a running batch
// gives its browser up to a waiting one, and that each waiting batch is promised
// only one browser at a time.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import pg from 'pg';
import { inject } from 'vitest';
import { migrate } from '../../src/platform/db/migrate.ts';
import { createLogger } from '../../src/platform/log.ts';
import { endBrowserLease, requestBrowser, shouldYield, startBrowserLease, type BrowserWork } from '../../src/platform/browser/browser-share.ts';
import { createDb, type Db } from '../../src/platform/db/prisma.ts';

let db: Db;
const LEASE_MS = 60_000;

// A database of its own: the rule looks at every team's rows, and other test files run crawls meanwhile.
beforeAll(async () => {
  const name = `browser_share_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: inject('postgresServerUrl') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = inject('postgresServerUrl').replace(/\/postgres$/, `/${name}`);
  await migrate(url, createLogger('warn'));
  db = createDb(url);
});

afterAll(async () => {
  await db.$disconnect();
});

let teamA: string;
let teamB: string;
beforeEach(async () => {
  await db.browserDemand.deleteMany();
  await db.browserLease.deleteMany();
  teamA = randomUUID();
  teamB = randomUUID();
});

const work = (teamId: string, groupId: string, pool = 'browser'): BrowserWork => ({ holder: `${groupId}:${randomUUID()}`, pool, teamId, groupId });
const running = async (w: BrowserWork) => (await startBrowserLease(db, w, LEASE_MS), w);
/** A demand old enough that no free slot elsewhere took it. */
const waiting = async (w: BrowserWork) => {
  await requestBrowser(db, w);
  await db.browserDemand.update({ where: { holder: w.holder }, data: { requestedAt: new Date(Date.now() - 5_000) } });
  return w;
};
const ask = (w: BrowserWork, opts: { sliceUsed?: boolean; idle?: boolean } = {}) =>
  shouldYield(db, { ...w, sliceUsed: opts.sliceUsed ?? false, idle: opts.idle ?? false });

it('gives a browser at once to a team with two fewer, after the time slice to a team with one fewer, never to one with as many', async () => {
  const a1 = await running(work(teamA, 'crawl-a'));
  const a2 = await running(work(teamA, 'crawl-a'));
  const b = await waiting(work(teamB, 'crawl-b'));
  // A runs 2, B runs 0: B gets one at once.
  expect(await ask(a2)).toBe(b.holder);
  // The demand is promised to a2: a1 does not yield for it too.
  expect(await ask(a1, { sliceUsed: true })).toBeUndefined();

  await endBrowserLease(db, a2, { willRetry: false });
  await running(b);
  // Now A runs 1, B runs 1; A's second batch waits and B's running one keeps its browser, slice or not.
  const a3 = await waiting(work(teamA, 'crawl-a'));
  expect(await ask(b, { sliceUsed: true })).toBeUndefined();
  expect(a3.holder).toBeTruthy();
});

it('time-slices one browser between two teams', async () => {
  const a = await running(work(teamA, 'crawl-a'));
  const b = await waiting(work(teamB, 'crawl-b'));
  // 1 against 0: not before the slice is used, then yes.
  expect(await ask(a)).toBeUndefined();
  expect(await ask(a, { sliceUsed: true })).toBe(b.holder);
});

it('shares between crawls of one team by crawl, and never yields to its own crawl', async () => {
  const x1 = await running(work(teamA, 'crawl-x'));
  const x2 = await running(work(teamA, 'crawl-x'));
  const ownMore = await waiting(work(teamA, 'crawl-x'));
  expect(await ask(x1, { sliceUsed: true, idle: true })).toBeUndefined();
  const y = await waiting(work(teamA, 'crawl-y'));
  expect(await ask(x1)).toBe(y.holder);
  expect(ownMore.holder).not.toBe(y.holder);
  expect(x2.holder).toBeTruthy();
});

it('yields whenever idle, never to a demand younger than the grace, and promises again after a lapse', async () => {
  const a = await running(work(teamA, 'crawl-a'));
  const fresh = work(teamB, 'crawl-b');
  await requestBrowser(db, fresh);
  expect(await ask(a, { idle: true })).toBeUndefined();
  await db.browserDemand.update({ where: { holder: fresh.holder }, data: { requestedAt: new Date(Date.now() - 5_000) } });
  expect(await ask(a, { idle: true })).toBe(fresh.holder);
  // Promised to a; once the promise lapses (the freed slot went elsewhere), another batch may yield for it.
  const a2 = await running(work(teamA, 'crawl-a'));
  expect(await ask(a2, { idle: true })).toBeUndefined();
  await db.browserDemand.update({ where: { holder: fresh.holder }, data: { servedAt: new Date(Date.now() - 60_000) } });
  expect(await ask(a2, { idle: true })).toBe(fresh.holder);
});

it('compares only work of the same browser queue', async () => {
  const a1 = await running(work(teamA, 'crawl-a'));
  await running(work(teamA, 'crawl-a'));
  await waiting(work(teamB, 'crawl-b', 'another-queue'));
  expect(await ask(a1, { sliceUsed: true, idle: true })).toBeUndefined();
});

it('counts only live leases, and a retried batch waits again', async () => {
  const a1 = await running(work(teamA, 'crawl-a'));
  const a2 = await running(work(teamA, 'crawl-a'));
  // a2's worker died: its lease lapsed.
  await db.browserLease.update({ where: { holder: a2.holder }, data: { aliveUntil: new Date(Date.now() - 1_000) } });
  const b = await waiting(work(teamB, 'crawl-b'));
  // A runs 1 live batch against B's 0: no immediate yield.
  expect(await ask(a1)).toBeUndefined();
  await endBrowserLease(db, a1, { willRetry: true });
  expect(await db.browserLease.count({ where: { holder: a1.holder } })).toBe(0);
  expect(await db.browserDemand.count({ where: { holder: a1.holder } })).toBe(1);
  expect(b.holder).toBeTruthy();
});
