// setHeapGrowth in a fresh Node process: with pages' worth of short-lived data
// that outlives the young generation (as a worker's pages in flight do), the
// old generation stays much nearer to what is live than under V8's own sizing.
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

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
  return Number(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('setHeapGrowth', () => {
  it("keeps the old generation near what is live, where V8's own sizing lets it grow", () => {
    const own = oldSpacePeak(0);
    const fixed = oldSpacePeak(25);
    expect(fixed).toBeLessThan(own * 0.8);
  }, 60_000);
});
