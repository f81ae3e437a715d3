// HostGate hands a wide-open host's turn on inside the worker: the next request of
// the same host and team whose predecessor ended well takes the parked turn with
// no statement, for a short while after the database granted it, and only when the
// database said nothing could refuse a request there. Everything else asks
// host_acquire as before. The database is a fake that records the statements.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HostGate } from '../../../src/jobs/politeness/host-gate.ts';
import type { BudgetDb } from '../../../src/jobs/politeness/host-leases.ts';
import type { HostBudgetSettings } from '../../../src/jobs/politeness/config.ts';

const SETTINGS: HostBudgetSettings = {
  hostMaxConcurrency: 16,
  hostMinIntervalMs: 0,
  hostMaxCrawlDelaySeconds: 30,
  hostRetryAfterMaxSeconds: 60,
  hostBackoffBaseMs: 1000,
  hostBackoffMaxMs: 60_000,
  hostSlowResponseMs: 5000,
  hostThrottleMaxRetries: 6,
};
const OK = { status: 200, headers: {}, latencyMs: 5 };

/** A budget that grants every ask, saying `wideOpen` of the host; records which function each statement called. */
function fakeBudget(wideOpen: boolean) {
  const calls: { fn: 'acquire' | 'release'; holder: unknown }[] = [];
  const db: BudgetDb = {
    $queryRaw: (async (strings: TemplateStringsArray, ...values: unknown[]) => {
      const sql = strings.join('?');
      if (sql.includes('host_acquire')) {
        calls.push({ fn: 'acquire', holder: values[1] });
        return [{ granted: true, wait_ms: 0, reason: null, wide_open: wideOpen }];
      }
      calls.push({ fn: 'release', holder: values[1] });
      return [{ paused: null }];
    }) as BudgetDb['$queryRaw'],
  };
  return { db, calls, acquires: () => calls.filter((c) => c.fn === 'acquire').length };
}

function gate(db: BudgetDb, settings: Partial<HostBudgetSettings> = {}) {
  return new HostGate({ db, settings: { ...SETTINGS, ...settings }, warn: () => undefined });
}

const ask = (url: string, teamId = 'team-a', more: { timeoutMs?: number; crawlDelayMs?: number } = {}) => ({
  url,
  teamId,
  holderPrefix: 'batch:1',
  timeoutMs: 30_000,
  ...more,
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('a wide-open host', () => {
  it('hands a turn that ended well on to the next request of its team: one statement for many pages', async () => {
    const budget = fakeBudget(true);
    const g = gate(budget.db);
    const first = await g.take(ask('https://site.test/1'));
    await first.end(OK);
    for (let i = 2; i <= 10; i++) {
      const turn = await g.take(ask(`https://site.test/${i}`));
      expect(turn.waitedMs).toBe(0);
      await turn.end(OK);
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(budget.acquires()).toBe(1);
    // Nothing asks for the last turn: it is ended in the database once its moment passes.
    await vi.advanceTimersByTimeAsync(1000);
    expect(budget.calls.filter((c) => c.fn === 'release')).toEqual([{ fn: 'release', holder: budget.calls[0].holder }]);
  });

  it('keeps a turn that ended well for the next page however slowly it comes, within the moment', async () => {
    const budget = fakeBudget(true);
    const g = gate(budget.db);
    await (await g.take(ask('https://site.test/1'))).end(OK);
    await vi.advanceTimersByTimeAsync(300);
    await (await g.take(ask('https://site.test/2'))).end(OK);
    expect(budget.calls.map((c) => c.fn)).toEqual(['acquire']);
  });

  it('asks the database again once the moment after the grant has passed', async () => {
    const budget = fakeBudget(true);
    const g = gate(budget.db);
    let turn = await g.take(ask('https://site.test/1'));
    for (let i = 0; i < 30; i++) {
      await turn.end(OK);
      await vi.advanceTimersByTimeAsync(20);
      turn = await g.take(ask('https://site.test/1'));
    }
    // 30 pages, 20 ms apart: 600 ms, past one hand-on moment, so a second grant.
    expect(budget.acquires()).toBe(2);
  });

  it('does not hand a turn to another team, another host, a request with an interval, or one that would outlive its lease', async () => {
    const budget = fakeBudget(true);
    const g = gate(budget.db);
    const takeAfterOk = async (next: ReturnType<typeof ask>) => {
      const before = budget.acquires();
      await (await g.take(ask('https://site.test/1'))).end(OK);
      await (await g.take(next)).end({ status: 200, headers: {}, latencyMs: 5 });
      await vi.advanceTimersByTimeAsync(1000);
      return budget.acquires() - before;
    };
    expect(await takeAfterOk(ask('https://site.test/2', 'team-b'))).toBe(2);
    expect(await takeAfterOk(ask('https://other.test/2'))).toBe(2);
    expect(await takeAfterOk(ask('https://site.test/2', 'team-a', { crawlDelayMs: 1000 }))).toBe(2);
    expect(await takeAfterOk(ask('https://site.test/2', 'team-a', { timeoutMs: 60_000 }))).toBe(2);
    expect(await takeAfterOk(ask('https://site.test/2'))).toBe(1);
    expect(await gateWithInterval()).toBe(2);

    async function gateWithInterval() {
      const b = fakeBudget(true);
      const g2 = gate(b.db, { hostMinIntervalMs: 5 });
      await (await g2.take(ask('https://site.test/1'))).end(OK);
      await (await g2.take(ask('https://site.test/2'))).end(OK);
      return b.acquires();
    }
  });

  it('sends a throttled answer to the database at once and never hands its turn on', async () => {
    const budget = fakeBudget(true);
    const g = gate(budget.db);
    const turn = await g.take(ask('https://site.test/1'));
    expect(await turn.end({ status: 429, headers: { 'retry-after': '1' }, latencyMs: 5 })).toMatchObject({ kind: 'throttled' });
    expect(budget.calls.map((c) => c.fn)).toEqual(['acquire', 'release']);
    await g.take(ask('https://site.test/2'));
    expect(budget.acquires()).toBe(2);
  });

  it.each([
    ['throttled', { status: 503, headers: {}, latencyMs: 5 }],
    ['slow', { status: 200, headers: {}, latencyMs: 6000 }],
    ['unanswered', undefined],
  ])('hands on no turn granted before a %s answer of its host in the same process', async (_name, answer) => {
    const budget = fakeBudget(true);
    const g = gate(budget.db);
    const [parkedFirst, troubled] = [await g.take(ask('https://site.test/1')), await g.take(ask('https://site.test/2'))];
    await parkedFirst.end(OK);
    await troubled.end(answer);
    await vi.advanceTimersByTimeAsync(10);
    // The parked turn is still inside its moment, but the host had trouble since its grant: the database is asked.
    const next = await g.take(ask('https://site.test/3'));
    expect(budget.acquires()).toBe(3);
    // A turn granted after the trouble is handed on again.
    await next.end(OK);
    await (await g.take(ask('https://site.test/4'))).end(OK);
    expect(budget.acquires()).toBe(3);
    // Another host of the process is not concerned.
    await (await g.take(ask('https://other.test/1'))).end(OK);
    await (await g.take(ask('https://other.test/2'))).end(OK);
    expect(budget.acquires()).toBe(4);
  });
});

describe('a host that is not wide open', () => {
  it('takes every turn from the database (the ended one handed back with the next ask)', async () => {
    const budget = fakeBudget(false);
    const g = gate(budget.db);
    for (let i = 1; i <= 5; i++) await (await g.take(ask(`https://site.test/${i}`))).end(OK);
    expect(budget.acquires()).toBe(5);
  });
});
