// How the embedded PostgreSQL's programs (initdb, postgres) are run. PostgreSQL
// refuses to run as root, so as root they run as the `postgres` system user,
// which must reach both the binaries (in node_modules) and the data dir. When a
// folder above either is closed to that user (/root and `mktemp -d` folders are
// 0700), the programs run in a private mount namespace instead: a fresh tmpfs
// holding the two folders bind-mounted, seen by PostgreSQL alone. Nothing on the
// host changes and the mounts vanish with the process. A machine that allows no
// mount namespace (a container without CAP_SYS_ADMIN) gets one line saying what
// to do instead. No folder's mode is ever changed to make room.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, isAbsolute, sep } from 'node:path';
import type { Logger } from '../log.ts';
import { runsAsRoot } from '../process/data-dir.ts';

const SYSTEM_USER = 'postgres';
/** Existing folders a private tmpfs may cover while PostgreSQL runs (never one holding the binaries or the data). */
const MOUNT_POINTS = ['/mnt', '/media', '/srv', '/opt', '/run', '/var/tmp', '/tmp'];

// $1 mount point, $2 data dir, $3 binaries folder, $4 uid, $5 gid, then the program and its arguments.
const NAMESPACE_SCRIPT = [
  'set -e',
  'mnt=$1 data=$2 native=$3 uid=$4 gid=$5',
  'shift 5',
  'mount -t tmpfs -o mode=0755,size=1m crawl-service-postgres "$mnt"',
  'mkdir "$mnt/data" "$mnt/pg"',
  'mount --bind "$data" "$mnt/data"',
  'mount --bind -o ro "$native" "$mnt/pg"',
  'exec setpriv --reuid="$uid" --regid="$gid" --clear-groups -- "$@"',
].join('\n');

export interface Ids {
  uid: number;
  gid: number;
}

export interface Command {
  cmd: string;
  args: string[];
  uid?: number;
  gid?: number;
}

export interface PostgresRunner {
  /** Who must own the data dir: the `postgres` user when we are root; undefined means this process's user. */
  owner?: Ids;
  /** The data dir as PostgreSQL's programs see it. */
  pgdata: string;
  /** For logs: how the programs are run. */
  how: string;
  command(program: 'initdb' | 'postgres', args: string[]): Command;
}

function systemUser(log: Logger): Ids {
  const id = (flag: string) => Number(execFileSync('id', [flag, SYSTEM_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    // The one change this service makes outside its folders, as the Debian postgresql package would.
    log.info(`creating the system user ${SYSTEM_USER} to run the embedded PostgreSQL as (it refuses to run as root)`);
    execFileSync('sh', [
      '-c',
      `getent group ${SYSTEM_USER} >/dev/null || groupadd --system ${SYSTEM_USER}; useradd --system -g ${SYSTEM_USER} --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin ${SYSTEM_USER}`,
    ]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/** `test -x` as that user: search permission on a folder (or execute on a file) and on every folder above it. */
function reaches(ids: Ids, path: string): boolean {
  return spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', path], { ...ids, stdio: 'ignore' }).status === 0;
}

/** The first folder from / down that the user cannot walk through, for the message. */
function closedFolder(ids: Ids, path: string): string {
  let d = '/';
  for (const part of path.split(sep).filter(Boolean)) {
    d = join(d, part);
    if (!reaches(ids, d)) return d;
  }
  return path;
}

function describe(path: string): string {
  const st = statSync(path);
  return `${path} is mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}`;
}

function namespacesWork(ids: Ids): boolean {
  return (
    spawnSync('unshare', ['--mount', '--', 'setpriv', `--reuid=${ids.uid}`, `--regid=${ids.gid}`, '--clear-groups', '--', 'true'], { stdio: 'ignore' })
      .status === 0
  );
}

function within(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function mountPoint(sources: string[]): string | undefined {
  const real = sources.map((s) => realpathSync(s));
  return MOUNT_POINTS.find((m) => existsSync(m) && lstatSync(m).isDirectory() && !real.some((s) => within(s, m)));
}

export function postgresRunner(opts: { nativeDir: string; pgdata: string; log: Logger }): PostgresRunner {
  const bin = (program: string) => join(opts.nativeDir, 'bin', program);
  if (!runsAsRoot()) {
    return { pgdata: opts.pgdata, how: 'as this user', command: (program, args) => ({ cmd: bin(program), args }) };
  }
  const ids = systemUser(opts.log);
  const dataParent = dirname(opts.pgdata);
  const closed = [bin('postgres'), dataParent].find((p) => !reaches(ids, p));
  if (closed === undefined) {
    return { owner: ids, pgdata: opts.pgdata, how: `as the ${SYSTEM_USER} user`, command: (program, args) => ({ cmd: bin(program), args, ...ids }) };
  }

  const mnt = namespacesWork(ids) ? mountPoint([opts.nativeDir, dataParent]) : undefined;
  if (mnt === undefined) {
    const what = closed === dataParent ? `the data dir ${dataParent}` : `the PostgreSQL binaries in ${opts.nativeDir}`;
    const fix =
      closed === dataParent
        ? 'set DATA_DIR to a folder below ones other users may enter'
        : 'move the project below folders other users may enter (not /root or a `mktemp -d` folder)';
    throw new Error(
      `PostgreSQL refuses to run as root and the ${SYSTEM_USER} user cannot reach ${what} (${describe(closedFolder(ids, closed))}), ` +
        `and this machine allows no private mount namespace (unshare --mount) to bridge that: ${fix}, run as a non-root user, or set DATABASE_URL to an existing PostgreSQL`,
    );
  }
  return {
    owner: ids,
    pgdata: join(mnt, 'data'),
    how: `as the ${SYSTEM_USER} user in a private mount namespace (it cannot reach ${closedFolder(ids, closed)})`,
    command: (program, args) => ({
      cmd: 'unshare',
      args: [
        '--mount',
        '--',
        'sh',
        '-c',
        NAMESPACE_SCRIPT,
        'sh',
        mnt,
        opts.pgdata,
        opts.nativeDir,
        String(ids.uid),
        String(ids.gid),
        join(mnt, 'pg', 'bin', program),
        ...args,
      ],
    }),
  };
}
