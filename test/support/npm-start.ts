// `npm start` as a child process on a scratch data folder and free ports, for the
// tests of the one-machine service: its banner, restarts, adopted and watched servers.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { freePort } from '../../src/platform/process/ports.ts';

export interface NpmStart {
  proc: ChildProcess;
  /** Everything it printed on stderr so far (its `[start]` lines and banner). */
  output(): string;
}

/** Settings of a start on `dataDir` with every port free; `extra` adds or overrides. */
export async function npmStartEnv(dataDir: string, extra: Record<string, string> = {}): Promise<NodeJS.ProcessEnv> {
  const port = async () => String(await freePort());
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: await port(),
    TEMPORAL_DEV_PORT: await port(),
    TEMPORAL_UI_PORT: await port(),
    TEMPORAL_DEV_HTTP_PORT: await port(),
    TEMPORAL_DEV_METRICS_PORT: await port(),
    PORT: await port(),
    WORKER_OPS_PORT: await port(),
    BROWSER_HOST_OPS_PORT: await port(),
    GATEWAY_OPS_PORT: await port(),
    HOST: '127.0.0.1',
    // The fixture sites are on 127.0.0.1, which the address guard refuses by default.
    CRAWL_ALLOW_PRIVATE_ADDRESSES: 'true',
    // The run's bundle of this checkout's workflows (global-setup.ts), so no start spends seconds of CPU on webpack.
    TEMPORAL_WORKFLOW_BUNDLE: inject('workflowBundlePath'),
    ...extra,
  };
  delete env.DATABASE_URL;
  delete env.TEMPORAL_ADDRESS;
  return env;
}

export async function npmStart(env: NodeJS.ProcessEnv, started: ChildProcess[]): Promise<NpmStart> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/entry/start.ts'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  started.push(proc);
  let output = '';
  proc.stderr!.on('data', (d) => (output += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not become ready:\n${output}`)), 120_000);
    proc.stderr!.on('data', () => {
      if (output.includes('ready in')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('exit', (code) => reject(new Error(`start exited with ${code}:\n${output}`)));
  });
  return { proc, output: () => output };
}

export function exited(proc: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (proc.exitCode !== null || proc.signalCode !== null ? resolve(proc.exitCode) : proc.once('exit', (code) => resolve(code))));
}

/** The pid a server's pid file names on its first line (PostgreSQL's postmaster.pid, temporal.pid). */
export function pidFromFile(dataDir: string, file: string): number | undefined {
  const path = join(dataDir, file);
  return existsSync(path) ? Number(readFileSync(path, 'utf8').split('\n')[0]) : undefined;
}

/** A new key of the default team, made with the admin CLI against the running embedded server. */
export async function createKey(env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/entry/cli.ts', 'key', 'create', '--team', 'default'], { env });
  const key = /fc-[0-9a-f]{32}/.exec(stdout)?.[0];
  if (!key) throw new Error(`no key in: ${stdout}`);
  return key;
}

/** Whatever a failed test left running must not outlive it: the servers named by the folder's pid files. */
export function killServers(dataDir: string): void {
  for (const file of ['postgres/postmaster.pid', 'temporal.pid']) {
    const pid = pidFromFile(dataDir, file);
    try {
      if (pid) process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** `pid` and every process below it (a power loss takes them all at once). */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    // pgrep exits 1 when there are none
  }
  return [pid, ...children.flatMap(processTree)];
}
