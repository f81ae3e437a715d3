// `npm start` as a child process on a scratch data folder and free ports, for the
// tests of the one-machine service: its banner, restarts, adopted and watched servers.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, inject } from 'vitest';
import { scratchDataDir } from '../../src/platform/process/data-dir.ts';
import { freePort } from '../../src/platform/process/ports.ts';
import { startFixtureSite, treeSite, type FixtureSite } from './fixture-site.ts';
import { killProcessesMarked } from './leftover-processes.ts';
import { TYPESCRIPT_NODE_ARGS } from '../../src/platform/process/typescript-runtime.mjs';

export interface NpmStart {
  proc: ChildProcess;
  /** Everything it printed on stderr so far (its `[start]` lines and banner). */
  output(): string;
}

/** Every process of a start on a folder carries the folder in this variable, so what it leaves behind is found. */
const START_MARKER = 'CRAWL_TEST_START';

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
    [START_MARKER]: dataDir,
    ...extra,
  };
  delete env.DATABASE_URL;
  delete env.TEMPORAL_ADDRESS;
  return env;
}

/** The banner's last line; "ready in" alone also matches "already in use", which a failed start prints. */
export const READY_LINE = /^ {2}ready in \d/m;

/** Lines of its processes' logs (stdout) a start that never became ready reports: why it did not is in them. */
const LOG_LINES_KEPT = 60;

export async function npmStart(env: NodeJS.ProcessEnv, started: ChildProcess[]): Promise<NpmStart> {
  const proc = spawn(process.execPath, [...TYPESCRIPT_NODE_ARGS, 'src/entry/start.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(proc);
  let output = '';
  proc.stderr!.on('data', (d) => (output += d));
  // Always read, or a full pipe would stall the start.
  const logs: string[] = [];
  createInterface({ input: proc.stdout! }).on('line', (line) => logs.push(line) > LOG_LINES_KEPT && logs.shift());
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start did not become ready:\n${output}\nits last ${LOG_LINES_KEPT} log lines:\n${logs.join('\n')}`)),
      120_000,
    );
    proc.stderr!.on('data', () => {
      if (READY_LINE.test(output)) {
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
  const { stdout } = await promisify(execFile)(process.execPath, [...TYPESCRIPT_NODE_ARGS, 'src/entry/cli.ts', 'key', 'create', '--team', 'default'], { env });
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

/** Settings under which a crawl resumes within seconds of a crash or restart, and two pages at a time keep batches in flight. */
export const QUICK_RECOVERY = {
  CRAWL_HEARTBEAT_TIMEOUT_MS: '3000',
  WORKER_SHUTDOWN_GRACE_MS: '2000',
  CRAWL_PAGES_PER_BROWSER: '2',
  DEFAULT_TEAM_CONCURRENCY: '2',
};

/** A test file's `npm start` folder, settings and fixture site, set up before its tests and removed after them. */
export interface NpmStartSuite {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  site: FixtureSite;
  /** The gateway's address, `http://127.0.0.1:<PORT>`. */
  apiBase: string;
  /** Every `npm start` of the file (npmStart), killed after it if still running. */
  started: ChildProcess[];
  /** A crawl's status with up to 1000 pages. */
  crawlStatus(key: string, id: string): Promise<any>;
  /** Starts a crawl of the fixture site; returns its id. */
  startCrawl(key: string, body?: Record<string, unknown>): Promise<string>;
}

/**
 * Registers beforeAll/afterAll: a scratch folder, a tree site of `pages` pages (each answered after
 * `delayMs`), free ports and `settings`; afterwards every start and server of the folder is killed.
 */
export function npmStartSuite(opts: { prefix: string; pages: number; delayMs?: number; settings?: Record<string, string> }): NpmStartSuite {
  const suite = { started: [] as ChildProcess[] } as NpmStartSuite;
  const call = async (key: string, path: string, body?: unknown) =>
    (
      await fetch(`${suite.apiBase}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json() as Promise<any>;
  suite.crawlStatus = (key, id) => call(key, `/v2/crawl/${id}?limit=1000`);
  suite.startCrawl = async (key, body = {}) => (await call(key, '/v2/crawl', { url: `${suite.site.url}/`, ...body })).id;
  beforeAll(async () => {
    suite.dataDir = scratchDataDir(opts.prefix);
    suite.site = await startFixtureSite(treeSite(opts.pages), opts.delayMs === undefined ? {} : { delayMs: () => opts.delayMs! });
    suite.env = await npmStartEnv(suite.dataDir, opts.settings);
    suite.apiBase = `http://127.0.0.1:${suite.env.PORT}`;
  });
  afterAll(async () => {
    for (const p of suite.started) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    await suite.site?.close();
    if (suite.dataDir) {
      killServers(suite.dataDir);
      // Children of a supervisor killed above drain on their own, and a worker draining towards a dead Temporal takes long.
      for (const left of await killProcessesMarked(START_MARKER, suite.dataDir))
        process.stderr.write(`[${opts.prefix}] killed a process npm start left running: ${left}\n`);
      rmSync(suite.dataDir, { recursive: true, force: true });
    }
  });
  return suite;
}
