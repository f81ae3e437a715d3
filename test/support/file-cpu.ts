// With TEST_CPU_LOG=<file>, each test file appends a line of JSON to that file: the CPU its vitest
// worker spent on it (self) and the CPU of the processes it started and reaped (children), from
// /proc, which `npm test`'s wall time cannot tell apart (issue 40: where the suite's CPU goes).
// Unset (the default), it does nothing.
import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { cpu } from '../../bench/processes.ts';

const LOG = process.env.TEST_CPU_LOG;

/** CPU ms of this process and of its reaped children. */
function cpuMs(): { self: number; children: number } {
  const { own, reaped } = cpu('self');
  return { self: Math.round(own * 1000), children: Math.round(reaped * 1000) };
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
