// With TEST_CPU_LOG=<file>, each test file appends a line of JSON to that file: the CPU its vitest
// worker spent on it (self) and the CPU of the processes it started and reaped (children), from
// /proc, which `npm test`'s wall time cannot tell apart (issue 40: where the suite's CPU goes).
// Unset (the default), it does nothing.
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

const LOG = process.env.TEST_CPU_LOG;

/** CPU ms of this process and of its reaped children (utime, stime, cutime, cstime; 100 ticks a second). */
function cpuMs(): { self: number; children: number } {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ').map(Number);
  return { self: (fields[11]! + fields[12]!) * 10, children: (fields[13]! + fields[14]!) * 10 };
}

if (LOG) {
  let start = { self: 0, children: 0 };
  let startedAt = 0;
  beforeAll(() => {
    start = cpuMs();
    startedAt = performance.now();
  });
  afterAll(() => {
    const end = cpuMs();
    const file = expect.getState().testPath;
    appendFileSync(
      LOG,
      `${JSON.stringify({ file, selfMs: end.self - start.self, childrenMs: end.children - start.children, wallMs: Math.round(performance.now() - startedAt) })}\n`,
    );
  });
}
