// startHttpLanes with a scripted source: every target loaded once, never more
// than `lanes` at a time, stores behind the lanes, slots kept over a short gap
// and freed when idle, and failures and give-backs as the batch needs them.
import { describe, expect, it } from 'vitest';
import { startHttpLanes, type HttpLanesOptions, type LaneSupply } from '../../../src/jobs/batch/http-lanes.ts';

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

/** A source that hands out `total` numbered targets, `perCall` at a time at most. */
function source(total: number, perCall = Infinity) {
  let next = 0;
  const asked: number[] = [];
  return {
    asked,
    more: async (room: number): Promise<LaneSupply<number>> => {
      asked.push(room);
      await tick();
      const n = Math.min(room, perCall, total - next);
      const targets = Array.from({ length: n }, (_, i) => next + i);
      next += n;
      return { targets, exhausted: next >= total };
    },
  };
}

function lanesOf(overrides: Partial<HttpLanesOptions<number>> & Pick<HttpLanesOptions<number>, 'more' | 'load'>) {
  const slots = { open: 0, opened: 0, peak: 0 };
  const run = startHttpLanes<number>({
    lanes: 3,
    openLane: async () => {
      slots.opened++;
      slots.peak = Math.max(slots.peak, ++slots.open);
      return { waitedMs: 0, release: async () => void slots.open-- };
    },
    stopTaking: () => false,
    giveBack: async () => undefined,
    signal: new AbortController().signal,
    pollMs: 20,
    ...overrides,
  }).done;
  return { run, slots };
}

describe('startHttpLanes', () => {
  it('loads every target once, at most `lanes` at a time, and stores them all', async () => {
    const src = source(50, 4);
    const loaded: number[] = [];
    const stored: number[] = [];
    let loading = 0;
    let peak = 0;
    const { run, slots } = lanesOf({
      more: src.more,
      load: async (t) => {
        peak = Math.max(peak, ++loading);
        await tick(1);
        loading--;
        loaded.push(t);
        return async () => {
          await tick(2);
          stored.push(t);
        };
      },
    });
    await run;
    expect(loaded.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(stored.sort((a, b) => a - b)).toEqual(loaded);
    expect(peak).toBe(3);
    expect(slots).toMatchObject({ open: 0, peak: 3 });
    // Asked for room up to twice the lanes, never for nothing.
    expect(Math.max(...src.asked)).toBeLessThanOrEqual(6);
    expect(Math.min(...src.asked)).toBeGreaterThanOrEqual(1);
  });

  it("runs a page's store behind its lane: the lane loads its next page meanwhile", async () => {
    const events: string[] = [];
    let releaseStore!: () => void;
    const storeGate = new Promise<void>((resolve) => (releaseStore = resolve));
    const { run } = lanesOf({
      lanes: 1,
      more: source(2).more,
      load: async (t) => {
        events.push(`load ${t}`);
        if (t === 1) releaseStore();
        return async () => {
          if (t === 0) await storeGate;
          events.push(`stored ${t}`);
        };
      },
    });
    await run;
    // Page 1 loaded while page 0 was still being stored; with one lane, one store runs at a time.
    expect(events).toEqual(['load 0', 'load 1', 'stored 0', 'stored 1']);
  });

  it('frees its slot while the source has nothing, and a stored page asks again before the poll', async () => {
    let calls = 0;
    const { run, slots } = lanesOf({
      lanes: 1,
      pollMs: 60_000,
      // First one page, then nothing until that page is stored, then one more, then the end.
      more: async () => {
        calls++;
        if (calls === 1) return { targets: [1], exhausted: false };
        if (calls === 2) return { targets: [], exhausted: false };
        return calls === 3 ? { targets: [2], exhausted: false } : { targets: [], exhausted: true };
      },
      load: async () => async () => void (await tick(5)),
    });
    const started = Date.now();
    await run;
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(slots).toMatchObject({ open: 0, opened: 2 });
  });

  it('keeps its slot while the source is being asked for its next page', async () => {
    const { run, slots } = lanesOf({ lanes: 1, more: source(5, 1).more, load: async () => undefined });
    await run;
    expect(slots).toMatchObject({ open: 0, opened: 1 });
  });

  it('fails when a store fails, and stops loading', async () => {
    let loads = 0;
    const { run } = lanesOf({
      lanes: 1,
      more: source(100, 2).more,
      load: async (t) => {
        loads++;
        return async () => {
          if (t === 3) throw new Error('the database said no');
        };
      },
    });
    await expect(run).rejects.toThrow('the database said no');
    expect(loads).toBeLessThan(100);
  });

  it('fails when the source fails', async () => {
    const { run, slots } = lanesOf({ more: async () => Promise.reject(new Error('claim failed')), load: async () => undefined });
    await expect(run).rejects.toThrow('claim failed');
    expect(slots.open).toBe(0);
  });

  it('when told to stop taking, gives the queued targets back and loads no more', async () => {
    const loaded: number[] = [];
    const given: number[] = [];
    let stop = false;
    const { run } = lanesOf({
      lanes: 1,
      more: source(10).more,
      load: async (t) => {
        loaded.push(t);
        if (t === 2) stop = true;
      },
      stopTaking: () => stop,
      giveBack: async (t) => void given.push(t),
    });
    await run;
    expect(loaded).toEqual([0, 1, 2]);
    expect([...loaded, ...given].sort((a, b) => a - b)).toEqual(Array.from({ length: loaded.length + given.length }, (_, i) => i));
    expect(given.length).toBeGreaterThan(0);
  });

  it('stops on abort without giving anything back', async () => {
    const ac = new AbortController();
    const given: number[] = [];
    const { run } = lanesOf({
      lanes: 2,
      signal: ac.signal,
      more: source(1_000, 10).more,
      load: async (t) => {
        if (t === 5) ac.abort();
        await tick();
      },
      giveBack: async (t) => void given.push(t),
    });
    await run;
    expect(given).toEqual([]);
  });
});
