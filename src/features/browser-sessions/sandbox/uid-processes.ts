// A session's uid goes back to the pool only once nothing runs under it: a
// killed sandbox's bwrap exits before the kernel has finished tearing down the
// rest of its pid namespace, and a straggler left there would belong to
// whichever session gets the uid next.
import { readdirSync, statSync } from 'node:fs';

function processesOf(uid: number): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (statSync(`/proc/${name}`).uid === uid) pids.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return pids;
}

/** Kills every process of `uid` and waits until none is left; false when some still were after `timeoutMs`. */
export async function endProcessesOf(uid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pids = processesOf(uid);
    if (pids.length === 0) return true;
    if (Date.now() > deadline) return false;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone, or a zombie its parent has yet to reap.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
