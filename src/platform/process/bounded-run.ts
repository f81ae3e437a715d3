// Runs a tool on untrusted input (an OCR engine on a stranger's image) as a
// child process that cannot outgrow its bounds: the shell that starts it sets
// an address-space limit and a CPU-time limit before it execs the tool, so
// even a process whose parent is gone (a conversion thread stopped mid-page)
// dies on its own, and a wall-clock timer kills it sooner. Its output is read
// up to a cap; the tool never reads the parent's environment.
import { spawn } from 'node:child_process';

export interface BoundedRunOptions {
  /** Written to the tool's stdin, then closed. */
  input?: Uint8Array;
  timeoutMs: number;
  /** Address space (ulimit -v). */
  memoryMb: number;
  /** More stdout than this kills the tool. */
  maxOutputBytes: number;
  /** The tool's whole environment (PATH is added). */
  env?: Record<string, string>;
  /** Names the limit in the timeout's message (`OCR_PAGE_TIMEOUT_MS`). */
  timeoutSetting?: string;
  signal?: AbortSignal;
}

export type BoundedRunFailure = 'missing' | 'timeout' | 'output' | 'exit' | 'aborted';

export class BoundedRunError extends Error {
  constructor(
    message: string,
    readonly failure: BoundedRunFailure,
  ) {
    super(message);
    this.name = 'BoundedRunError';
  }
}

// `sh -c SCRIPT NAME ARGS...`: $1 and $2 are the limits, the rest the command. POSIX sh exits 127
// and says so when exec finds no such command (the dynamic loader also exits 127, when a library
// does not fit in the memory limit).
const LIMITED_EXEC = 'ulimit -v "$1" && ulimit -t "$2" && shift 2 && exec "$@"';
const COMMAND_NOT_FOUND = 127;
const EXEC_NOT_FOUND = /exec: .*not found/;
const STDERR_KEPT = 2_000;

/** The tool's stdout; rejects with a BoundedRunError that says which bound it met or how it failed. */
export function boundedRun(command: string, args: string[], opts: BoundedRunOptions): Promise<Buffer> {
  const cpuSeconds = Math.ceil(opts.timeoutMs / 1000) + 1;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new BoundedRunError(`${command} was not started: the work was cancelled`, 'aborted'));
    const child = spawn('/bin/sh', ['-c', LIMITED_EXEC, 'bounded-run', String(opts.memoryMb * 1024), String(cpuSeconds), command, ...args], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let failed: BoundedRunError | undefined;
    const fail = (error: BoundedRunError) => {
      failed ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => fail(new BoundedRunError(`${command} took longer than ${opts.timeoutMs} ms${opts.timeoutSetting ? ` (${opts.timeoutSetting})` : ''}`, 'timeout')),
      opts.timeoutMs,
    );
    const onAbort = () => fail(new BoundedRunError(`${command} was stopped: the work was cancelled`, 'aborted'));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > opts.maxOutputBytes) return fail(new BoundedRunError(`${command} wrote more than ${opts.maxOutputBytes} bytes`, 'output'));
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
    });
    // A tool that exits before reading all of its input closes the pipe: its exit status tells why.
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? Buffer.alloc(0));
    child.on('error', (err) => fail(new BoundedRunError(`${command} could not be started: ${err.message}`, 'exit')));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (failed) return reject(failed);
      if (code === 0) return resolve(Buffer.concat(chunks));
      if (code === COMMAND_NOT_FOUND && EXEC_NOT_FOUND.test(stderr)) return reject(new BoundedRunError(`${command} was not found`, 'missing'));
      const said = lastLine(stderr);
      // A signal we did not send is the CPU limit (SIGXCPU, then SIGKILL); past the memory limit a tool's allocation fails and it exits or aborts.
      const how = signal ? `was killed by ${signal}` : `exited with status ${code}`;
      reject(new BoundedRunError(`${command} ${how}${said ? `: ${said}` : ''}`, 'exit'));
    });
  });
}

function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.at(-1) ?? '';
}
