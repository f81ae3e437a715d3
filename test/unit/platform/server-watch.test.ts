import { describe, expect, it } from 'vitest';
import { watchServer, type ServerWatchOptions } from '../../../src/platform/process/server-watch.ts';

/** A server whose life the test decides; sleeps are recorded and return at once. */
function scenario(opts: { failRestarts: number; dieAfterChecks: number }) {
  let alive = true;
  let checks = 0;
  let restarts = 0;
  const sleeps: number[] = [];
  const lines: string[] = [];
  let gaveUp: string | undefined;
  const options: ServerWatchOptions = {
    name: 'PostgreSQL',
    isAlive: () => {
      checks++;
      if (checks === opts.dieAfterChecks) alive = false;
      return alive;
    },
    restart: async () => {
      restarts++;
      if (restarts <= opts.failRestarts) throw new Error(`port in use\nmore detail`);
      alive = true;
    },
    report: (line) => lines.push(line),
    giveUp: (why) => (gaveUp = why),
    firstDelayMs: 1_000,
    maxDelayMs: 4_000,
    maxFailures: 4,
    checkEveryMs: 10,
    sleep: async (ms) => {
      sleeps.push(ms);
      // Yield to the event loop, so the test can stop the loop once it has seen enough.
      await new Promise((r) => setImmediate(r));
    },
  };
  return {
    options,
    lines,
    sleeps,
    get restarts() {
      return restarts;
    },
    get gaveUp() {
      return gaveUp;
    },
    get checks() {
      return checks;
    },
  };
}

describe('watchServer', () => {
  it('starts a dead server again after a doubling, capped back-off, naming each attempt', async () => {
    const s = scenario({ failRestarts: 2, dieAfterChecks: 3 });
    const watch = watchServer(s.options);
    while (s.restarts < 3) await new Promise((r) => setImmediate(r));
    watch.stop();
    await watch.done;
    expect(s.gaveUp).toBeUndefined();
    expect(s.lines).toEqual([
      'PostgreSQL is not running; starting it again in 1.0 s (attempt 1 of 4)',
      'PostgreSQL did not start: port in use',
      'PostgreSQL is not running; starting it again in 2.0 s (attempt 2 of 4)',
      'PostgreSQL did not start: port in use',
      'PostgreSQL is not running; starting it again in 4.0 s (attempt 3 of 4)',
      'PostgreSQL is running again',
    ]);
  });

  it('gives up once every attempt failed', async () => {
    const s = scenario({ failRestarts: 100, dieAfterChecks: 1 });
    const watch = watchServer(s.options);
    await watch.done;
    expect(s.restarts).toBe(4);
    expect(s.gaveUp).toBe('PostgreSQL could not be started again after 4 attempts');
    // One check, then the back-off before each attempt.
    expect(s.sleeps).toEqual([10, 1_000, 2_000, 4_000, 4_000]);
  });

  it('does nothing while the server lives, and ends when stopped', async () => {
    const s = scenario({ failRestarts: 0, dieAfterChecks: Number.POSITIVE_INFINITY });
    const watch = watchServer(s.options);
    while (s.checks < 5) await new Promise((r) => setImmediate(r));
    watch.stop();
    await watch.done;
    expect(s.restarts).toBe(0);
    expect(s.lines).toEqual([]);
  });
});
