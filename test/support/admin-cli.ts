// The admin CLI against the harness's database and Temporal: in-process (its
// whole command path but the process start, which costs a second of CPU per
// call), or as operators run it, a child process of the real entry point.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runCli } from '../../src/entry/cli/run-cli.ts';
import type { Harness } from './harness.ts';
import { TYPESCRIPT_NODE_ARGS } from '../../src/platform/process/typescript-runtime.mjs';

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `temporalAddress` points the CLI at another Temporal (one that does not answer, say). */
export async function adminCli(h: Harness, args: string[], temporalAddress?: string): Promise<CliResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const config = temporalAddress === undefined ? h.config : { ...h.config, temporal: { ...h.config.temporal, address: temporalAddress } };
  const code = await runCli(args, { loadConfig: () => config, out: (line) => stdout.push(`${line}\n`), err: (line) => stderr.push(`${line}\n`) });
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}

export async function adminCliProcess(h: Harness, args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...TYPESCRIPT_NODE_ARGS, 'src/entry/cli.ts', ...args], {
      env: { ...process.env, DATABASE_URL: h.config.database.url, TEMPORAL_ADDRESS: h.config.temporal.address },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
