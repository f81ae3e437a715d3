// How far V8 lets a process's old generation grow past what its last full
// collection left live. Left to itself, V8 picks the factor from how fast the
// process allocates, up to 4x: a worker converting a couple of hundred pages a
// second then carries hundreds of MB of dead page data (pages in flight outlive
// the young generation) between full collections, and its RSS climbs through a
// long crawl. A fixed factor costs a few more full collections and keeps the
// heap near what is live (bench:crawl, one crawl of 10,000 pages: +45 % RSS
// from 1,000 to 10,000 pages with V8's own sizing, +7 % at 50 %). The flag is
// process-wide, conversion threads included, and read at every full
// collection, so setting it once the process runs takes effect.
import { setFlagsFromString } from 'node:v8';

/** `percent` > 0: the old generation may grow to (1 + percent/100) x what was live; 0 leaves V8's own sizing. */
export function setHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
