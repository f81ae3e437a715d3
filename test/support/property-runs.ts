// How many samples a property test of `npm test` draws. `npm test` must fit the
// 2-core machine's budget, so it draws a quarter of a property's full count, from a
// new seed every run (over many runs the samples add up); `npm run fuzz`
// (vitest.fuzz.config.ts) sets PROPERTY_RUNS=full and draws them all. The
// property itself is the same in both: only the number of samples differs.

const FULL = process.env.PROPERTY_RUNS === 'full';

/** The samples to draw of a property whose full count is `full`: all of them under `npm run fuzz`, a quarter (at least 1) otherwise. */
export function propertyRuns(full: number): number {
  return FULL ? full : Math.max(1, Math.ceil(full / 4));
}
