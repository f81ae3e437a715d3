import { describe, expect, it } from 'vitest';
import { TopUp, type TopUpBatch } from '../../../src/page/batch-top-up.ts';
import type { ScrapeTarget, TargetSupply } from '../../../src/page/browser-scraper.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));
const targets = (n: number, from = 0): ScrapeTarget[] => Array.from({ length: n }, (_, i) => ({ url: `https://a.example/${from + i}`, key: `${from + i}` }));

function batch(overrides: Partial<TopUpBatch> = {}) {
  const added: ScrapeTarget[][] = [];
  let stopped = false;
  const fake: TopUpBatch = {
    stopped: () => stopped,
    stop: () => (stopped = true),
    running: () => true,
    add: async (more) => void added.push(more),
    ...overrides,
  };
  return { fake, added, isStopped: () => stopped };
}

describe('TopUp', () => {
  it('asks for room up to twice the concurrency once the pages in the browser drop to it, and ends when exhausted', async () => {
    const asked: number[] = [];
    const answers: TargetSupply[] = [
      { targets: targets(3, 10), exhausted: false },
      { targets: targets(2, 20), exhausted: true },
    ];
    const { fake, added } = batch();
    const topUp = new TopUp(async (room) => (asked.push(room), answers.shift()!), 4, 3, fake);
    topUp.pageDone(); // 3 left: at the concurrency, room for 3
    await topUp.settled();
    expect(asked).toEqual([3]);
    expect(added).toEqual([targets(3, 10)]);
    expect(topUp.done()).toBe(false);
    topUp.pageDone(); // 5 left: over the concurrency, nothing asked
    await topUp.settled();
    expect(asked).toEqual([3]);
    topUp.pageDone();
    topUp.pageDone(); // 3 left
    await topUp.settled();
    expect(asked).toEqual([3, 3]);
    expect(added).toEqual([targets(3, 10), targets(2, 20)]);
    expect(topUp.done()).toBe(true);
    topUp.pageDone();
    await topUp.settled();
    expect(asked).toEqual([3, 3]);
  });

  it('never asks twice at once, and asks again after a request when called during it', async () => {
    let inFlight = 0;
    let most = 0;
    const asked: number[] = [];
    const { fake } = batch();
    const topUp = new TopUp(
      async (room) => {
        most = Math.max(most, ++inFlight);
        asked.push(room);
        await tick();
        inFlight--;
        return { targets: [], exhausted: false };
      },
      0,
      2,
      fake,
    );
    topUp.refill();
    topUp.refill();
    topUp.refill();
    await topUp.settled();
    await topUp.settled();
    expect(most).toBe(1);
    expect(asked).toEqual([4, 4]);
  });

  it('asks nothing without a source, before the run, or once the batch stopped', async () => {
    const withoutSource = new TopUp(undefined, 0, 2, batch().fake);
    withoutSource.refill();
    expect(withoutSource.done()).toBe(true);
    let asked = 0;
    const source = async () => (asked++, { targets: [], exhausted: false });
    new TopUp(source, 0, 2, batch({ running: () => false }).fake).refill();
    new TopUp(source, 0, 2, batch({ stopped: () => true }).fake).refill();
    await tick();
    expect(asked).toBe(0);
  });

  it("stops the batch and keeps the source's error, unless the batch had stopped already", async () => {
    const boom = new Error('database gone');
    const { fake, isStopped } = batch();
    const topUp = new TopUp(() => Promise.reject(boom), 0, 1, fake);
    topUp.refill();
    await topUp.settled();
    expect(isStopped()).toBe(true);
    expect(topUp.failure).toEqual({ error: boom });
    expect(topUp.done()).toBe(true);

    let stopped = false;
    const late = new TopUp(
      async () => {
        stopped = true;
        throw boom;
      },
      0,
      1,
      batch({ stopped: () => stopped }).fake,
    );
    late.refill();
    await late.settled();
    expect(late.failure).toBeUndefined();
  });
});
