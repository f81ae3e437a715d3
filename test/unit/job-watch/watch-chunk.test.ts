import { expect, it } from 'vitest';
import { idsWithin } from '../../../src/features/job-watch/watch-session.ts';

it('takes pages in order while they fit the bytes, and always the first', () => {
  const rows = [
    { id: 1n, sizeBytes: 40 },
    { id: 2n, sizeBytes: 50 },
    { id: 3n, sizeBytes: 20 },
    { id: 4n, sizeBytes: 1 },
  ];
  expect(idsWithin(rows, 100)).toEqual([1n, 2n]);
  expect(idsWithin(rows, 110)).toEqual([1n, 2n, 3n]);
  expect(idsWithin(rows, 1000)).toEqual([1n, 2n, 3n, 4n]);
  expect(idsWithin([{ id: 7n, sizeBytes: 500 }, ...rows], 100)).toEqual([7n]);
  expect(idsWithin([], 100)).toEqual([]);
});
