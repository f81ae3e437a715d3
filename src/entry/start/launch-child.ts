// A supervised child: spawned, ready once its ready URL answers 200, and started
// again when it dies, unless it keeps dying.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Supervised } from './children.ts';
import { progress, type Supervision } from './supervision.ts';
import { TYPESCRIPT_NODE_ARGS } from '../../platform/process/typescript-runtime.mjs';

/** More restarts than this within a minute and `npm start` gives up. */
export const MAX_RESTARTS_PER_MINUTE = 5;

/** The restart times to keep after one at `now`: those of the last minute, and now. */
export function noteRestart(restarts: number[], now: number): number[] {
  return [...restarts.filter((t) => now - t < 60_000), now];
}

/** Polls until `url` answers 200 (true) or the child is gone (false). */
async function waitUntilReady(url: string, gone: () => boolean): Promise<boolean> {
  while (!gone()) {
    const status = await fetch(url, { signal: AbortSignal.timeout(3000) }).then(
      (res) => {
        void res.body?.cancel();
        return res.status;
      },
      () => 0,
    );
    if (status === 200) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/** Resolves once the child is ready; rejects when it exits before. */
export function launch(s: Supervised, env: NodeJS.ProcessEnv, supervision: Supervision): Promise<void> {
  return new Promise((resolve, reject) => {
    // Own process group: a terminal Ctrl-C reaches only this supervisor, which stops children in order.
    const child = spawn(process.execPath, [...TYPESCRIPT_NODE_ARGS, s.script], { env, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    s.child = child;
    let ready = false;
    let exited = false;
    createInterface({ input: child.stdout! }).on('line', (line) => process.stdout.write(`${line}\n`));
    void waitUntilReady(s.readyUrl, () => exited).then((answered) => {
      if (!answered) return;
      ready = true;
      resolve();
    });
    child.once('exit', (code, signal) => {
      exited = true;
      if (supervision.phase === 'stopping') return;
      if (!ready) return reject(new Error(`${s.name} exited during start-up (${signal ?? `code ${code}`}); see its messages above`));
      restart(s, env, supervision, signal ?? `code ${code}`);
    });
  });
}

function restart(s: Supervised, env: NodeJS.ProcessEnv, supervision: Supervision, how: string): void {
  s.restarts = noteRestart(s.restarts, Date.now());
  if (s.restarts.length > MAX_RESTARTS_PER_MINUTE) {
    progress(`${s.name} keeps dying (${s.restarts.length} times in a minute); giving up`);
    void supervision.shutdown(1);
    return;
  }
  progress(`${s.name} exited (${how}); restarting it`);
  launch(s, env, supervision).catch((err) => {
    progress(`${s.name} could not be restarted: ${(err as Error).message}`);
    void supervision.shutdown(1);
  });
}
