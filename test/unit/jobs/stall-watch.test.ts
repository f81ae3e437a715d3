import { expect, it } from 'vitest';
import { StallWatch } from '../../../src/jobs/batch/stall-watch.ts';

it('tells a stall once, past its time, and starts again when a page is settled', () => {
  const watch = new StallWatch(1000);
  expect(watch.check(0, 0, true)).toBeUndefined();
  expect(watch.check(999, 0, true)).toBeUndefined();
  expect(watch.check(1500, 0, true)).toBe(1500);
  expect(watch.check(5000, 0, true)).toBeUndefined();
  // A page settled: a new stall is counted from here.
  expect(watch.check(6000, 1, true)).toBeUndefined();
  expect(watch.check(6900, 1, true)).toBeUndefined();
  expect(watch.check(7000, 1, true)).toBe(1000);
});

it('a batch with nothing in hand (waiting for links, or done) is not stalled', () => {
  const watch = new StallWatch(1000);
  expect(watch.check(0, 4, false)).toBeUndefined();
  expect(watch.check(10_000, 4, false)).toBeUndefined();
  // Pages claimed again: counted from the claim.
  expect(watch.check(11_000, 4, true)).toBeUndefined();
  expect(watch.check(11_500, 4, true)).toBeUndefined();
  expect(watch.check(12_000, 4, true)).toBe(1000);
});
