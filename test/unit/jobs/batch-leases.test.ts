import { describe, expect, it } from 'vitest';
import { BatchLeases } from '../../../src/jobs/batch/batch-leases.ts';
import { MemoryTeamSlots } from '../../support/memory-team-slots.ts';

const fast = { first: 1, max: 2 };

describe('BatchLeases', () => {
  it('hands a released slot straight to the batch next waiter, first come first served, and gives it back to the team when nobody waits', async () => {
    const team = new MemoryTeamSlots(1);
    const leases = new BatchLeases({ holderPrefix: 'b:1', slots: team.store('crawl'), pollMs: fast });
    const first = await leases.take();
    const order: string[] = [];
    const second = leases.take().then((s) => (order.push('second'), s));
    const third = leases.take().then((s) => (order.push('third'), s));
    await new Promise((r) => setTimeout(r, 10));
    expect(leases.state()).toMatchObject({ held: 1, inUse: 1, waiting: 2 });
    expect(first.shouldPass()).toBe(true);
    await first.release();
    const s2 = await second;
    expect([...team.holders.keys()]).toEqual(['b:1:0']);
    await s2.release();
    const s3 = await third;
    expect(order).toEqual(['second', 'third']);
    // A slot that was free at once was not waited for; one handed over was.
    expect(first.waitedMs).toBe(0);
    expect(s2.waitedMs).toBeGreaterThan(0);
    expect(s3.shouldPass()).toBe(false);
    await s3.release();
    expect(team.holders.size).toBe(0);
    expect(leases.state()).toMatchObject({ held: 0, inUse: 0, waiting: 0 });
  });

  it('gives slots over its crawl share back to the team at the next release, so another crawl of the team gets them', async () => {
    const team = new MemoryTeamSlots(4);
    team.running.add('a');
    const a = new BatchLeases({ holderPrefix: 'a:1', slots: team.store('a'), pollMs: fast });
    const held = await Promise.all([a.take(), a.take(), a.take(), a.take()]);
    expect(team.heldBy('a')).toBe(4);
    team.running.add('b');
    const b = new BatchLeases({ holderPrefix: 'b:1', slots: team.store('b'), pollMs: fast });
    const waiting = b.take();
    await a.checkShare();
    expect(a.state().excess).toBe(2);
    expect(held.every((s) => s.shouldPass())).toBe(true);
    await held[0].release();
    await held[1].release();
    const got = await waiting;
    expect(team.heldBy('a')).toBe(2);
    expect(team.heldBy('b')).toBe(1);
    expect(held[2].shouldPass()).toBe(false);
    await got.release();
    await Promise.all(held.slice(2).map((s) => s.release()));
    expect(team.holders.size).toBe(0);
  });

  it('stops a wait when its signal aborts, and close ends every wait and frees every slot', async () => {
    const team = new MemoryTeamSlots(1);
    const leases = new BatchLeases({ holderPrefix: 'b:1', slots: team.store('crawl'), pollMs: fast });
    await leases.take();
    const abort = new AbortController();
    const gaveUp = leases.take(abort.signal);
    const ended = leases.take();
    abort.abort(new Error('page closed'));
    await expect(gaveUp).rejects.toThrow('page closed');
    expect(leases.state().waiting).toBe(1);
    await leases.close();
    await expect(ended).rejects.toThrow('the batch has ended');
    expect(team.holders.size).toBe(0);
    await expect(leases.take()).rejects.toThrow('the batch has ended');
  });

  it('fails every waiter when the slot store fails, instead of leaving them waiting', async () => {
    const team = new MemoryTeamSlots(1);
    const store = { ...team.store('crawl'), tryAcquire: async () => Promise.reject(new Error('database down')) };
    const leases = new BatchLeases({ holderPrefix: 'b:1', slots: store, pollMs: fast });
    await expect(Promise.all([leases.take(), leases.take()])).rejects.toThrow('database down');
    expect(leases.state().waiting).toBe(0);
  });

  it('yields once another crawl should have the browser, and stays yielding', async () => {
    const asked: unknown[] = [];
    let answer: string | undefined;
    const leases = new BatchLeases({
      holderPrefix: 'b:1',
      slots: new MemoryTeamSlots(1).store('crawl'),
      browser: { renew: async () => undefined, shouldYield: async (q) => (asked.push(q), answer) },
    });
    expect(await leases.checkYield({ sliceUsed: false, idle: false })).toBeUndefined();
    answer = 'other-batch';
    expect(await leases.checkYield({ sliceUsed: true, idle: false })).toBe('other-batch');
    answer = undefined;
    expect(await leases.checkYield({ sliceUsed: true, idle: true })).toBe('other-batch');
    expect(asked).toHaveLength(2);
    expect(leases.state()).toMatchObject({ yielding: true, yieldingTo: 'other-batch' });
  });
});
