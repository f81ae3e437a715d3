// Runs one command of the compose test and answers its stdout; a failure names
// the command and the end of what it printed.
import { spawn } from 'node:child_process';

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Answers the output of a failed command instead of throwing. */
  allowFailure?: boolean;
}

export function run(cmd: string, args: string[], opts: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0 || opts.allowFailure) resolve(stdout);
      else reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}:\n${(stderr || stdout).slice(-3000)}`));
    });
  });
}
