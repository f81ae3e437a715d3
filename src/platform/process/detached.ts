// Servers we start (PostgreSQL, the Temporal dev server) run detached in their
// own process group: a Ctrl-C in the terminal must not reach them before the
// worker has drained, and a start that was killed can adopt them next time.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { createConnection } from 'node:net';

/** Whether a process of this id exists (one of another user's counts: signalling it is refused, not failed). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function portOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

export function tail(path: string, lines = 8): string {
  return existsSync(path) ? readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '';
}

export interface DetachedProcess {
  pid: number;
  hasExited(): boolean;
}

export function spawnDetached(
  cmd: string,
  args: string[],
  opts: { logPath: string; uid?: number; gid?: number; env?: NodeJS.ProcessEnv; /** For the files the process creates. */ umask?: number },
): DetachedProcess {
  const logFd = openSync(opts.logPath, 'a', 0o600);
  // The child inherits the umask at spawn; ours is back before anything else runs.
  const previousUmask = opts.umask === undefined ? undefined : process.umask(opts.umask);
  let child;
  try {
    child = spawn(cmd, args, { uid: opts.uid, gid: opts.gid, env: opts.env ?? process.env, detached: true, stdio: ['ignore', logFd, logFd] });
  } finally {
    if (previousUmask !== undefined) process.umask(previousUmask);
    closeSync(logFd);
  }
  child.unref();
  let exited = false;
  child.once('exit', () => (exited = true));
  child.once('error', () => (exited = true));
  if (child.pid === undefined) throw new Error(`could not start ${cmd}`);
  return { pid: child.pid, hasExited: () => exited };
}

/** Waits for `ready`, failing early (with the log's tail) if the process dies. */
export async function waitForReady(
  proc: DetachedProcess,
  ready: () => Promise<boolean>,
  opts: { timeoutMs: number; what: string; logPath: string },
): Promise<void> {
  try {
    await waitUntil(
      async () => {
        if (proc.hasExited()) throw new Error(`${opts.what} exited during start-up; last lines of ${opts.logPath}:\n${tail(opts.logPath)}`);
        return ready();
      },
      opts.timeoutMs,
      opts.what,
    );
  } catch (err) {
    if (!proc.hasExited()) process.kill(proc.pid, 'SIGKILL');
    throw err;
  }
}

export async function stopPid(pid: number, signal: NodeJS.Signals, timeoutMs: number, what: string): Promise<void> {
  if (!pidAlive(pid)) return;
  process.kill(pid, signal);
  try {
    await waitUntil(() => !pidAlive(pid), timeoutMs, `${what} to stop`);
  } catch {
    process.kill(pid, 'SIGKILL');
  }
}
