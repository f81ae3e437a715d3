import { EventEmitter } from 'node:events';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { PageSlots, SlotWaitInterrupted, type SlotLease } from '../../../src/page/page-slots.ts';

/** Just what PageSlots uses of a Playwright page: its `close` event. */
function fakePage(): Page & { close(): Promise<void> } {
  const page = new EventEmitter() as EventEmitter & { close(): Promise<void> };
  page.close = async () => void page.emit('close');
  return page as unknown as Page & { close(): Promise<void> };
}

function countingLeases() {
  const released: string[] = [];
  const signals: AbortSignal[] = [];
  const acquire = async (target: string, signal: AbortSignal): Promise<SlotLease> => {
    signals.push(signal);
    return { waitedMs: 5, release: async () => void released.push(target) };
  };
  return { released, signals, acquire };
}

describe('PageSlots', () => {
  it('waits nothing without a slot function', async () => {
    const slots = new PageSlots<string>(undefined);
    expect(await slots.take(fakePage(), 'a')).toBe(0);
    await slots.close();
  });

  it('releases a slot once when its page closes, even if released earlier', async () => {
    const { released, acquire } = countingLeases();
    const slots = new PageSlots(acquire);
    const page = fakePage();
    expect(await slots.take(page, 'a')).toBe(5);
    await slots.release(page);
    await page.close();
    await slots.close();
    expect(released).toEqual(['a']);
  });

  it('releases what is still held when the batch ends, and aborts waits', async () => {
    const { released, signals, acquire } = countingLeases();
    const slots = new PageSlots(acquire);
    await slots.take(fakePage(), 'a');
    await slots.take(fakePage(), 'b');
    await slots.close();
    expect(released.sort()).toEqual(['a', 'b']);
    expect(signals.every((s) => s.aborted)).toBe(true);
  });

  it('gives a slot straight back if its page closed during the wait', async () => {
    const released: string[] = [];
    let grant!: (lease: SlotLease) => void;
    const slots = new PageSlots<string>(async (_target, signal) => {
      expect(signal.aborted).toBe(false);
      return new Promise<SlotLease>((resolve) => (grant = resolve));
    });
    const page = fakePage();
    const taking = slots.take(page, 'a');
    await new Promise((resolve) => setImmediate(resolve));
    await page.close();
    grant({ waitedMs: 1, release: async () => void released.push('a') });
    await expect(taking).rejects.toBeInstanceOf(SlotWaitInterrupted);
    expect(released).toEqual(['a']);
  });

  it('turns a wait ended by the batch closing into SlotWaitInterrupted, and passes other errors through', async () => {
    const slots = new PageSlots<string>((target, signal) =>
      target === 'broken'
        ? Promise.reject(new Error('db down'))
        : new Promise<SlotLease>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
    );
    await expect(slots.take(fakePage(), 'broken')).rejects.toThrow('db down');
    const waiting = slots.take(fakePage(), 'a');
    await slots.close();
    await expect(waiting).rejects.toBeInstanceOf(SlotWaitInterrupted);
  });

  it('reports a failed release when the batch ends, not when a page closes', async () => {
    const slots = new PageSlots<string>(async () => ({ waitedMs: 0, release: async () => Promise.reject(new Error('db down')) }));
    const page = fakePage();
    await slots.take(page, 'a');
    await page.close();
    await expect(slots.close()).rejects.toThrow('db down');
  });
});
