// How `npm start` treats the machine it runs on: it changes no folder outside its
// own, its PostgreSQL takes no well-known password, SIGTERM to the npm process
// alone (docker stop, systemd) stops everything, and a start that fails midway
// leaves nothing running. The data dir sits in a fresh 0700 folder, like a clone
// under /root or `mktemp -d`: as root, PostgreSQL (run as the `postgres` user)
// cannot enter it, which is the case that used to chmod the folders above it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres.ts';
import { PASSWORD_FILE } from '../../src/platform/db/postgres-password.ts';
import { createLogger } from '../../src/platform/log.ts';
import { freePort } from '../../src/platform/process/ports.ts';
import { READY_LINE } from '../support/npm-start.ts';
import { waitFor } from '../support/wait-for.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
let base: string;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let pgPort: number;
const seen = new Set<number>();

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'host-safety-'));
  dataDir = join(base, 'data');
  pgPort = await freePort();
  env = {
    ...process.env,
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    TEMPORAL_DEV_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    WORKER_SHUTDOWN_GRACE_MS: '2000',
  };
  delete env.DATABASE_URL;
  delete env.TEMPORAL_ADDRESS;
});

afterAll(() => {
  // Whatever a failed test left running must not outlive it.
  for (const pid of seen) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  rmSync(base, { recursive: true, force: true });
});

/** pid -> parent pid of every process, from /proc. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      map.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* exited meanwhile */
    }
  }
  return map;
}

function descendants(root: number): number[] {
  const map = parents();
  const found = [root];
  for (let i = 0; i < found.length; i++) for (const [pid, ppid] of map) if (ppid === found[i]) found.push(pid);
  for (const pid of found) seen.add(pid);
  return found;
}

function alive(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
}

function modes(paths: string[]): string[] {
  return paths.map((p) => `${p} ${(statSync(p).mode & 0o7777).toString(8)}`);
}

function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let d = path; d !== dirname(d); d = dirname(d)) out.push(d);
  return [...out, '/'];
}

function run(args: string[]): { proc: ChildProcess; output: () => string; exited: Promise<number | null> } {
  // Its own process group, like a terminal's job: signals below go to one pid only.
  const proc = spawn(args[0], args.slice(1), { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  seen.add(proc.pid!);
  let output = '';
  proc.stdout!.on('data', (d) => (output += d));
  proc.stderr!.on('data', (d) => (output += d));
  // 'close': every process holding the pipes (npm, bootstrap, start, its children) is gone.
  const exited = new Promise<number | null>((r) => proc.once('close', (code) => r(code)));
  return { proc, output: () => output, exited };
}

async function loginError(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  } finally {
    await client.end().catch(() => undefined);
  }
}

it('changes no folder above its own, refuses postgres/postgres, and stops everything on SIGTERM to the npm process alone', async () => {
  const watched = [...ancestors(base), ...ancestors(ROOT)];
  const before = modes(watched);

  const start = run(['npm', 'start']);
  await waitFor('npm start to become ready', () => READY_LINE.test(start.output()) || start.proc.exitCode !== null, 150_000, 200);
  expect(start.output()).toMatch(READY_LINE);
  expect(modes(watched)).toEqual(before);

  const passwordFile = join(dataDir, PASSWORD_FILE);
  expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
  const password = readFileSync(passwordFile, 'utf8').trim();
  expect(password).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(await loginError(`postgresql://postgres:postgres@127.0.0.1:${pgPort}/postgres`)).toBe('28P01');
  expect(await loginError(`postgresql://postgres:${password}@127.0.0.1:${pgPort}/crawl`)).toBeUndefined();
  for (const file of ['postgres.log', 'temporal.log', 'temporal.db']) expect(statSync(join(dataDir, file)).mode & 0o077, file).toBe(0);

  const tree = descendants(start.proc.pid!);
  const postmaster = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const temporal = Number(readFileSync(join(dataDir, 'temporal.pid'), 'utf8'));
  expect(tree).toEqual(expect.arrayContaining([postmaster, temporal]));

  process.kill(start.proc.pid!, 'SIGTERM');
  await waitFor('every process of the start to end', () => alive(tree).length === 0, 60_000, 200);
  await start.exited;
  expect(start.output()).toContain('[start] shutting down: gateway, then worker (draining), then Temporal and PostgreSQL');
  expect(start.output()).toContain('"msg":"gateway stopped"');
  expect(start.output()).toContain('"msg":"worker stopped"');
  expect(start.output()).toMatch(/\[start\] stopped\s*$/);
  expect(readFileSync(join(dataDir, 'postgres.log'), 'utf8').trimEnd()).toMatch(/database system is shut down$/);
  expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  expect(existsSync(join(dataDir, 'temporal.pid'))).toBe(false);
  expect(modes(watched)).toEqual(before);
});

it('fails with one line when the Temporal port is taken, and leaves no PostgreSQL running', async () => {
  const squatter: Server = createServer();
  await new Promise<void>((r) => squatter.listen(Number(env.TEMPORAL_DEV_PORT), '127.0.0.1', r));
  try {
    const start = run([process.execPath, 'scripts/bootstrap.mjs', 'start']);
    expect(await start.exited).toBe(1);
    const failures = start
      .output()
      .split('\n')
      .filter((l) => l.includes('cannot continue'));
    expect(failures).toEqual([
      `[start] cannot continue: port ${env.TEMPORAL_DEV_PORT} is already in use by another program; stop it, or set TEMPORAL_DEV_PORT, or point TEMPORAL_ADDRESS at that server`,
    ]);
    expect(start.output()).toContain('PostgreSQL: embedded server');
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(readFileSync(join(dataDir, 'postgres.log'), 'utf8').trimEnd()).toMatch(/database system is shut down$/);
  } finally {
    await new Promise((r) => squatter.close(r));
  }
});

it('stops what it had started when SIGTERM arrives during start-up', async () => {
  const start = run([process.execPath, 'scripts/bootstrap.mjs', 'start']);
  // PostgreSQL is up and the Temporal dev server is being started.
  await waitFor('PostgreSQL to be started', () => start.output().includes('[start] migrations') || start.proc.exitCode !== null, 120_000, 200);
  const tree = descendants(start.proc.pid!);
  process.kill(start.proc.pid!, 'SIGTERM');
  await waitFor('every process of the start to end', () => alive(tree).length === 0, 60_000, 200);
  expect(await start.exited).toBe(0);
  // The Temporal dev server may have been spawned after the snapshot above: its pid file goes only when it is stopped.
  expect(start.output()).toContain('[start] SIGTERM: stopping after the current start-up step');
  expect(start.output()).toMatch(/\[start\] stopped\s*$/);
  expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  expect(existsSync(join(dataDir, 'temporal.pid'))).toBe(false);
});

it('upgrades a data dir made by an older version (password "postgres", its own pg_hba.conf) in place', async () => {
  const log = createLogger('warn');
  // Make it look as an older version left it: superuser password "postgres", no password file, trust for TCP.
  const current = await startEmbeddedPostgres({ dataDir, port: pgPort, database: 'crawl', log });
  const client = new pg.Client({ connectionString: current.url });
  await client.connect();
  await client.query(`ALTER ROLE postgres PASSWORD 'postgres'`);
  await client.end();
  await current.stop();
  rmSync(join(dataDir, PASSWORD_FILE));
  writeFileSync(join(dataDir, 'postgres', 'pg_hba.conf'), 'host all all 127.0.0.1/32 trust\n');

  const upgraded = await startEmbeddedPostgres({ dataDir, port: pgPort, database: 'crawl', log });
  try {
    const password = readFileSync(join(dataDir, PASSWORD_FILE), 'utf8').trim();
    expect(password).not.toBe('postgres');
    expect(upgraded.url).toContain(`:${password}@`);
    expect(await loginError(upgraded.url)).toBeUndefined();
    expect(await loginError(`postgresql://postgres:postgres@127.0.0.1:${pgPort}/postgres`)).toBe('28P01');
    expect(readFileSync(join(dataDir, 'postgres', 'pg_hba.conf'), 'utf8')).not.toContain('trust');
  } finally {
    await upgraded.stop();
  }
});
