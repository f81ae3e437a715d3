// The tests' polling wait: returns the first truthy answer of a sync or async
// check, and names what it waited for, and for how long, when it gives up.
import { expect, it } from 'vitest';
import { waitFor } from '../../support/wait-for.ts';

it('returns the first truthy answer, sync or async', async () => {
  let calls = 0;
  expect(await waitFor('the third call', () => ++calls >= 3 && calls, 1_000, 1)).toBe(3);
  calls = 0;
  expect(await waitFor('a row', async () => (++calls < 2 ? undefined : { id: 'r' }), 1_000, 1)).toEqual({ id: 'r' });
});

it('gives up after the timeout, naming what it waited for', async () => {
  let calls = 0;
  const started = Date.now();
  await expect(waitFor('the moon', () => (calls++, false), 50, 10)).rejects.toThrow('timed out after 50 ms waiting for the moon');
  expect(Date.now() - started).toBeGreaterThanOrEqual(50);
  expect(calls).toBeGreaterThan(1);
});

it('ends the wait with an error of the check', async () => {
  await expect(waitFor('nothing', async () => Promise.reject(new Error('boom')), 1_000, 1)).rejects.toThrow('boom');
});
