// Reading /proc: the parsers take the text Linux wrote for a real Chromium
// (test/fixtures/proc, copied from /proc/<pid>/ of a headless shell and of
// Debian's chromium), and the live table holds this very process.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  descendantsOf,
  parseCommandLine,
  parseResidentBytes,
  parseStat,
  readProcessDetails,
  readProcessTable,
  type ProcessEntry,
} from '../../../src/platform/process/process-table.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../fixtures/proc', name), 'utf8');

describe('parseStat', () => {
  it('reads pid, name, state and parent of a real stat line', () => {
    expect(parseStat(fixture('browser.stat'))).toEqual({ pid: 16747, name: 'chromium-headle', state: 'S', ppid: 16745 });
    expect(parseStat(fixture('renderer.stat'))).toEqual({ pid: 15170, name: 'chromium', state: 'S', ppid: 15092 });
  });

  it('takes a name with spaces and parentheses whole, and the fields after its last parenthesis', () => {
    expect(parseStat('42 (a (b) c) Z 7 42 42 0 -1 4194560')).toEqual({ pid: 42, name: 'a (b) c', state: 'Z', ppid: 7 });
  });

  it('refuses text that is not a stat line', () => {
    expect(parseStat('')).toBeUndefined();
    expect(parseStat('42 no-name S 7')).toBeUndefined();
    expect(parseStat('x (name) S 7')).toBeUndefined();
  });
});

describe('parseResidentBytes', () => {
  it('reads VmRSS in bytes', () => {
    expect(parseResidentBytes(fixture('browser.status'))).toBe(93868 * 1024);
    expect(parseResidentBytes(fixture('renderer.status'))).toBe(79396 * 1024);
  });

  it('is 0 for a process without memory (a zombie has no VmRSS line)', () => {
    expect(parseResidentBytes('Name:\tchromium\nState:\tZ (zombie)\nPPid:\t1\n')).toBe(0);
  });
});

describe('parseCommandLine', () => {
  it('joins NUL-separated arguments and keeps a rewritten title as it is', () => {
    expect(parseCommandLine(fixture('browser.cmdline'))).toBe(
      '/usr/lib/chromium/chromium-headless-shell --no-sandbox --disable-gpu --remote-debugging-port=0 about:blank',
    );
    expect(parseCommandLine(fixture('zygote.cmdline'))).toBe(
      '/usr/lib/chromium/chromium-headless-shell --type=zygote --no-zygote-sandbox --no-sandbox --headless=old',
    );
  });
});

describe('descendantsOf', () => {
  const entry = (pid: number, ppid: number): ProcessEntry => ({ pid, ppid, name: `p${pid}`, state: 'S' });

  it('finds children and their children, not the root, its parent or its siblings', () => {
    const table = [entry(1, 0), entry(10, 1), entry(11, 1), entry(20, 10), entry(21, 10), entry(30, 20), entry(40, 11)];
    expect(
      descendantsOf(10, table)
        .map((p) => p.pid)
        .sort(),
    ).toEqual([20, 21, 30]);
    expect(descendantsOf(30, table)).toEqual([]);
  });

  it('ends on a table with a cycle (read while pids were being reused)', () => {
    expect(descendantsOf(1, [entry(2, 1), entry(3, 2), entry(2, 3)]).map((p) => p.pid)).toEqual([2, 3]);
  });
});

describe('the live table', () => {
  it('holds this process under its parent, with its command line and memory', async () => {
    const table = await readProcessTable();
    expect(table.find((p) => p.pid === process.pid)).toMatchObject({ ppid: process.ppid, state: expect.stringMatching(/^[RS]$/) });
    const details = await readProcessDetails(process.pid);
    expect(details?.commandLine).toContain(process.execPath.split('/').pop());
    expect(details?.residentBytes).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('has no details for a process that is gone', async () => {
    // Above the largest pid Linux can give (PID_MAX_LIMIT, 2^22).
    expect(await readProcessDetails(2 ** 22 + 1)).toBeUndefined();
  });
});
