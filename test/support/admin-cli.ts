// The admin CLI as operators run it: a child process against the harness's
// database and Temporal.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Harness } from './harness.ts';

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function adminCli(h: Harness, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/entry/cli.ts', ...args], {
      env: { ...process.env, DATABASE_URL: h.config.database.url, TEMPORAL_ADDRESS: h.config.temporal.address, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
