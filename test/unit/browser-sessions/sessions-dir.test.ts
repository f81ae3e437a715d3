// A browser host that was killed leaves its sessions' directory behind; the next host to start on
// the machine removes it, and only it: not a live host's, another machine's, or one it cannot
// tell the owner of.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { claimSessionsDir } from '../../../src/features/browser-sessions/host/sessions-dir.ts';
import { createLogger } from '../../../src/platform/log.ts';

const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function hostDir(base: string, id: string, owner?: object): string {
  const dir = join(base, `browser-host-${id}`);
  mkdirSync(join(dir, 'session-1'), { recursive: true });
  if (owner) writeFileSync(join(dir, 'owner.json'), JSON.stringify(owner));
  return dir;
}

it('removes the directories of killed hosts of this machine and keeps every other', () => {
  const base = mkdtempSync(join(tmpdir(), 'sessions-dir-'));
  made.push(base);
  const gone = spawnSync('true').pid!;
  const killed = hostDir(base, 'killed', { machine: hostname(), pid: gone });
  const live = hostDir(base, 'live', { machine: hostname(), pid: process.ppid });
  const elsewhere = hostDir(base, 'elsewhere', { machine: `${hostname()}-other`, pid: gone });
  const unknown = hostDir(base, 'unknown');
  const unrelated = join(base, 'other-dir');
  mkdirSync(unrelated);

  const dir = claimSessionsDir(base, 'new', createLogger('error'));

  expect(existsSync(killed)).toBe(false);
  expect([live, elsewhere, unknown, unrelated, dir].map(existsSync)).toEqual([true, true, true, true, true]);
  // The next host to start keeps this one's: its process is alive.
  claimSessionsDir(base, 'next', createLogger('error'));
  expect(existsSync(dir)).toBe(true);
});
