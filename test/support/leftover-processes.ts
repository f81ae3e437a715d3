// Processes a test run leaves behind. Every process the run starts inherits
// TEST_RUN_MARKER from global-setup.ts (the forks, what tests spawn, what those
// spawn: workers, hosts, Chromium, `npm start` and its children), so after the
// run whatever still carries it was leaked by a test: the teardown kills it and
// names it, and a run on a fresh clone leaves nothing behind.
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { parseCommandLine } from '../../src/platform/process/process-table.ts';

export const TEST_RUN_MARKER = 'CRAWL_TEST_RUN';

export function markTestRun(): string {
  const marker = randomUUID();
  process.env[TEST_RUN_MARKER] = marker;
  return marker;
}

async function readOr(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Kills every process but this one whose environment holds `name=value` and whose command line `spare` does not pick; returns their command lines. */
export async function killProcessesMarked(name: string, value: string, spare: (command: string) => boolean = () => false): Promise<string[]> {
  const pids = (await readdir('/proc').catch(() => [])).filter((entry) => /^\d+$/.test(entry)).map(Number);
  const killed: string[] = [];
  for (const pid of pids) {
    if (pid === process.pid) continue;
    const environ = await readOr(`/proc/${pid}/environ`);
    if (!environ?.split('\0').includes(`${name}=${value}`)) continue;
    const command = parseCommandLine((await readOr(`/proc/${pid}/cmdline`)) ?? '');
    if (spare(command)) continue;
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(`${pid} ${command}`);
    } catch {
      // gone meanwhile
    }
  }
  return killed;
}

/** Kills every process of the run but this one and Vitest's own, and returns their command lines. */
export function killLeftovers(marker: string): Promise<string[]> {
  return killProcessesMarked(TEST_RUN_MARKER, marker, (command) => command.includes('vitest'));
}
