// Errors thrown where no caller can catch them (a timer, a stream's 'error' event
// nobody listens to), collected per test of the file that asks, so a test can
// say there were none: Vitest would report them only after the run, against
// whichever file was running.
import { afterEach, beforeEach } from 'vitest';

export function collectUncaughtErrors(): () => string[] {
  let seen: Error[] = [];
  const keep = (err: Error) => seen.push(err);
  beforeEach(() => {
    seen = [];
    process.prependListener('uncaughtException', keep);
  });
  afterEach(() => {
    process.off('uncaughtException', keep);
  });
  return () => seen.map((e) => e.message);
}
