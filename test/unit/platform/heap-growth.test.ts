// setHeapGrowth in a fresh Node process: with pages' worth of short-lived data
// that outlives the young generation (as a worker's pages in flight do), the
// old generation follows the growth it sets.
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TYPESCRIPT_NODE_ARGS } from '../../../src/platform/process/typescript-runtime.mjs';

const MODULE = pathToFileURL(new URL('../../../src/platform/process/heap-growth.ts', import.meta.url).pathname).href;

/** Peak old-space size (MB) of a process that keeps ~40 MB live and allocates ~700 MB of blocks, each dead 300 blocks later. */
function oldSpacePeak(percent: number): number {
  const script = `
    import v8 from 'node:v8';
    import { setHeapGrowth } from '${MODULE}';
    setHeapGrowth(${percent});
    const block = (i) => Array.from({ length: 1000 }, (_, k) => ({ k, i }));
    const live = Array.from({ length: 1000 }, (_, i) => block(i));
    const ring = new Array(300).fill(null);
    let peak = 0;
    for (let i = 0; i < 20000; i++) {
      ring[i % ring.length] = block(i);
      if (i % 200 === 0) peak = Math.max(peak, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_size);
    }
    // live is read last, so it stays live to the end.
    process.stdout.write(String(live.length && peak / 1048576));`;
  // A young generation pinned small, so the blocks reach the old one however loaded the machine is:
  // left to itself V8 may grow the young generation until nothing is promoted at all.
  return Number(
    execFileSync(process.execPath, ['--max-semi-space-size=1', ...TYPESCRIPT_NODE_ARGS, '--input-type=module', '-e', script], { encoding: 'utf8' }),
  );
}

describe('setHeapGrowth', () => {
  // Both factors are set, so V8's own choice (which depends on how busy the machine is) plays no part.
  it('keeps the old generation nearer to what is live the lower the growth it sets', () => {
    const tight = oldSpacePeak(25);
    const loose = oldSpacePeak(300);
    expect(tight).toBeLessThan(loose * 0.6);
  }, 60_000);
});
