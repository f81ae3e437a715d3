// `npm start` as a user runs it: embedded PostgreSQL, the Temporal dev server,
// worker and gateway, on fresh data. A crawl interrupted by Ctrl-C finishes
// after the next start; a start killed with SIGKILL leaves servers that the
// next start adopts.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { waitFor } from '../support/wait-for.ts';
import { scratchDataDir } from '../../src/platform/process/data-dir.ts';
import { freePort } from '../../src/platform/process/ports.ts';

const PAGES = 16;
let dataDir: string;
let site: FixtureSite;
let env: NodeJS.ProcessEnv;
let apiBase: string;
const started: ChildProcess[] = [];

beforeAll(async () => {
  dataDir = scratchDataDir('start-test-');
  site = await startFixtureSite(treeSite(PAGES), { delayMs: () => 500 });
  const [pgPort, temporalPort, uiPort, apiPort, httpPort, metricsPort, workerOpsPort, hostOpsPort, gatewayOpsPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  apiBase = `http://127.0.0.1:${apiPort}`;
  env = {
    ...process.env,
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    TEMPORAL_DEV_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(uiPort),
    TEMPORAL_DEV_HTTP_PORT: String(httpPort),
    TEMPORAL_DEV_METRICS_PORT: String(metricsPort),
    PORT: String(apiPort),
    WORKER_OPS_PORT: String(workerOpsPort),
    BROWSER_HOST_OPS_PORT: String(hostOpsPort),
    GATEWAY_OPS_PORT: String(gatewayOpsPort),
    HOST: '127.0.0.1',
    CRAWL_HEARTBEAT_TIMEOUT_MS: '3000',
    WORKER_SHUTDOWN_GRACE_MS: '2000',
    CRAWL_PAGES_PER_BROWSER: '2',
    DEFAULT_TEAM_CONCURRENCY: '2',
    // The fixture site is on 127.0.0.1, which the address guard refuses by default.
    CRAWL_ALLOW_PRIVATE_ADDRESSES: 'true',
  };
  delete env.DATABASE_URL;
  delete env.TEMPORAL_ADDRESS;
});

afterAll(async () => {
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  await site?.close();
  // Whatever a failed test left running must not outlive it.
  for (const pidFile of ['postgres/postmaster.pid', 'temporal.pid']) {
    const path = join(dataDir, pidFile);
    if (existsSync(path)) {
      const pid = Number((await import('node:fs')).readFileSync(path, 'utf8').split('\n')[0]);
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<{ proc: ChildProcess; output: () => string }> {
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

function exited(proc: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (proc.exitCode !== null ? resolve(proc.exitCode) : proc.once('exit', (code) => resolve(code))));
}

async function status(key: string, id: string) {
  return (await fetch(`${apiBase}/v2/crawl/${id}?limit=1000`, { headers: { authorization: `Bearer ${key}` } })).json();
}

it('starts everything, survives Ctrl-C mid-crawl and kill -9 of itself, and finishes the crawl', async () => {
  const first = await start();
  const key = /API key:\s+(fc-[0-9a-f]{32})/.exec(first.output())?.[1];
  expect(key, first.output()).toBeDefined();
  expect(first.output()).toContain(`API:          http://127.0.0.1:${env.PORT}/v2`);
  expect(first.output()).toContain(`Temporal UI:  http://localhost:${env.TEMPORAL_UI_PORT}`);
  expect(first.output()).toMatch(/migrations applied: \d+_init/);
  const metricsUrls = [env.GATEWAY_OPS_PORT, env.WORKER_OPS_PORT, env.BROWSER_HOST_OPS_PORT].map((port) => `http://127.0.0.1:${port}/metrics`);
  for (const url of metricsUrls) {
    expect(first.output()).toContain(url);
    const answer = await fetch(url);
    expect(answer.headers.get('content-type')).toContain('text/plain');
    expect(await answer.text()).toContain('process_cpu_seconds_total');
  }

  const health = await (await fetch(`${apiBase}/health`)).json();
  expect(health).toMatchObject({ postgres: { ok: true }, temporal: { ok: true } });
  // The banner waits for every child's ready endpoint; the ports set are the ones the children serve.
  for (const url of [`${apiBase}/health/ready`, `http://127.0.0.1:${env.WORKER_OPS_PORT}/ready`, `http://127.0.0.1:${env.BROWSER_HOST_OPS_PORT}/ready`]) {
    expect((await fetch(url)).status, url).toBe(200);
  }

  const { id } = await (
    await fetch(`${apiBase}/v2/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}/` }),
    })
  ).json();
  // In these polls a failed status request counts as "not yet".
  await waitFor('a few pages', async () => {
    const s = await status(key!, id).catch(() => undefined);
    return s?.status === 'scraping' && s.completed >= 2;
  });

  // Ctrl-C: everything stops in order, cleanly.
  first.proc.kill('SIGINT');
  expect(await exited(first.proc)).toBe(0);
  expect(first.output()).toContain('[start] stopped');
  expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  expect(existsSync(join(dataDir, 'temporal.pid'))).toBe(false);
  await expect(fetch(`${apiBase}/health`)).rejects.toThrow();

  // Start again: same data, same key, no new key printed; the crawl goes on.
  const second = await start();
  expect(second.output()).not.toMatch(/API key:\s+fc-/);
  expect(second.output()).toContain('migrations: up to date');
  const done = await waitFor('the interrupted crawl to complete', async () => {
    const s = await status(key!, id).catch(() => undefined);
    return s?.status === 'completed' && s;
  });
  const errors = await (await fetch(`${apiBase}/v2/crawl/${id}/errors`, { headers: { authorization: `Bearer ${key}` } })).json();
  expect(done.completed, `failed pages: ${JSON.stringify(errors)}`).toBe(PAGES);
  expect(new Set(done.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL)).size).toBe(PAGES);

  // kill -9 of the supervisor: worker and gateway follow it down, the servers keep
  // running, and the next start adopts them.
  second.proc.kill('SIGKILL');
  await waitFor(
    'the orphaned gateway to stop',
    async () =>
      await fetch(`${apiBase}/health`).then(
        () => false,
        () => true,
      ),
    60_000,
  );
  const third = await start();
  expect(third.output()).toContain('PostgreSQL: adopted the embedded server');
  expect(third.output()).toContain('Temporal: adopted the dev server');
  expect((await status(key!, id)).status).toBe('completed');
  third.proc.kill('SIGTERM');
  expect(await exited(third.proc)).toBe(0);
  expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
});

/** A new key of the default team, made with the admin CLI against the running embedded server. */
async function createKey(): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/entry/cli.ts', 'key', 'create', '--team', 'default'], { env });
  const key = /fc-[0-9a-f]{32}/.exec(stdout)?.[0];
  if (!key) throw new Error(`no key in: ${stdout}`);
  return key;
}

/** kill -9 of the server whose pid the file's first line names. */
function killFromPidFile(file: string): void {
  const pid = Number(readFileSync(join(dataDir, file), 'utf8').split('\n')[0]);
  process.kill(pid, 'SIGKILL');
}

it('starts PostgreSQL and the Temporal dev server again when they die, and the crawl finishes exactly', async () => {
  const run = await start();
  const key = await createKey();
  const { id } = await (
    await fetch(`${apiBase}/v2/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}/` }),
    })
  ).json();
  await waitFor('a few pages', async () => ((await status(key, id).catch(() => undefined))?.completed ?? 0) >= 2);

  killFromPidFile('postgres/postmaster.pid');
  await waitFor('PostgreSQL restarted', () => run.output().includes('PostgreSQL is running again'), 120_000);
  killFromPidFile('temporal.pid');
  await waitFor('Temporal restarted', () => run.output().includes('the Temporal dev server is running again'), 120_000);
  expect(run.output()).toContain('PostgreSQL is not running; starting it again');

  const done = await waitFor('the crawl to complete', async () => {
    const s = await status(key, id).catch(() => undefined);
    return s?.status === 'completed' && s;
  });
  expect(done.completed).toBe(PAGES);
  expect(new Set(done.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL)).size).toBe(PAGES);
  run.proc.kill('SIGTERM');
  expect(await exited(run.proc)).toBe(0);
  expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  expect(existsSync(join(dataDir, 'temporal.pid'))).toBe(false);
});
