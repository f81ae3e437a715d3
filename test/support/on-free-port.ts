// A process started on a port freePort found: that port was free a moment ago, and
// on a busy machine another process (a Chromium, a server of a test beside this
// one) can take it first. Started again on another port when that happened.
import { freePort } from '../../src/platform/process/ports.ts';

const ATTEMPTS = 3;

/** Calls `start` with a free port and a list for the process's output lines; again with another port when its output says EADDRINUSE. */
export async function onFreePort<T>(start: (port: number, output: string[]) => Promise<T>): Promise<{ port: number; started: T }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const output: string[] = [];
    try {
      return { port, started: await start(port, output) };
    } catch (err) {
      if (attempt >= ATTEMPTS || !output.some((line) => line.includes('EADDRINUSE'))) throw err;
    }
  }
}
