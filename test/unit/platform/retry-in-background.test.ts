import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { eventually, retryInBackground } from '../../../src/platform/retry-in-background.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** An attempt that fails its first `failures` calls, then succeeds; and the times of its calls. */
function flaky(failures: number) {
  const calls: number[] = [];
  const attempt = async () => {
    calls.push(Date.now());
    if (calls.length <= failures) throw new Error(`down (call ${calls.length})`);
    return 'done';
  };
  return { calls, attempt };
}

it('answers the first outcome and stops at the first success', async () => {
  const ok = flaky(0);
  await expect(retryInBackground(ok.attempt, { everyMs: 1000, forMs: 10_000 })).resolves.toBe('done');
  await vi.advanceTimersByTimeAsync(20_000);
  expect(ok.calls).toHaveLength(1);

  const later = flaky(2);
  const start = Date.now();
  await expect(retryInBackground(later.attempt, { everyMs: 1000, forMs: 10_000 })).rejects.toThrow('down (call 1)');
  await vi.advanceTimersByTimeAsync(20_000);
  expect(later.calls.map((t) => t - start)).toEqual([0, 1000, 2000]);
});

it('makes no attempt past forMs', async () => {
  const never = flaky(Infinity);
  const start = Date.now();
  await expect(retryInBackground(never.attempt, { everyMs: 1000, forMs: 3500 })).rejects.toThrow();
  await vi.advanceTimersByTimeAsync(60_000);
  expect(never.calls.map((t) => t - start)).toEqual([0, 1000, 2000, 3000]);
});

it('eventually: resolves whether an attempt succeeded in time, never rejecting', async () => {
  const later = flaky(2);
  const done = eventually(later.attempt, { everyMs: 1000, forMs: 10_000 });
  await vi.advanceTimersByTimeAsync(5000);
  await expect(done).resolves.toBe(true);
  expect(later.calls).toHaveLength(3);

  const never = flaky(Infinity);
  const start = Date.now();
  const gaveUp = eventually(never.attempt, { everyMs: 1000, forMs: 2500 });
  await vi.advanceTimersByTimeAsync(10_000);
  await expect(gaveUp).resolves.toBe(false);
  expect(never.calls.map((t) => t - start)).toEqual([0, 1000, 2000]);
});
