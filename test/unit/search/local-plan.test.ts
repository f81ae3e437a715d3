import { expect, it } from 'vitest';
import { readsEveryMatch, WALK_ROW_COST } from '../../../src/features/search/providers/local.ts';

it('reads every match when they cost less than the walk to `pool` of them, and walks when matches are common', () => {
  // 1,000 matches among 1,000,000 pages: the walk would pass 10,000 pages for 10 matches.
  expect(readsEveryMatch({ matches: 1000, pool: 10, rangeRows: 1_000_000, visibleRows: 1_000_000 }, WALK_ROW_COST)).toBe(true);
  // Half the pages match: the walk reads 20 pages for 10 matches.
  expect(readsEveryMatch({ matches: 500_000, pool: 10, rangeRows: 1_000_000, visibleRows: 1_000_000 }, WALK_ROW_COST)).toBe(false);
  // The boundary: matches equal to the walk's cost still read.
  expect(readsEveryMatch({ matches: 100, pool: 10, rangeRows: 1000, visibleRows: 0 }, 1)).toBe(true);
  expect(readsEveryMatch({ matches: 101, pool: 10, rangeRows: 1000, visibleRows: 0 }, 1)).toBe(false);
  // A narrow date range in score order: the walk passes every visible page's index entry for its few rows.
  const ranged = { matches: 200, pool: 10, rangeRows: 1000, visibleRows: 1_000_000 };
  expect(readsEveryMatch(ranged, 1)).toBe(true);
  expect(readsEveryMatch({ ...ranged, visibleRows: 1000 }, 1)).toBe(false);
  // No estimated match still reads (the cap then catches an estimate far below the truth); 0 always walks, Infinity always reads.
  expect(readsEveryMatch({ matches: 0, pool: 10, rangeRows: 0, visibleRows: 0 }, 1)).toBe(true);
  expect(readsEveryMatch({ matches: 5, pool: 10, rangeRows: 1_000_000, visibleRows: 1_000_000 }, 0)).toBe(false);
  expect(readsEveryMatch({ matches: 1e9, pool: 10, rangeRows: 1, visibleRows: 1 }, Infinity)).toBe(true);
});
