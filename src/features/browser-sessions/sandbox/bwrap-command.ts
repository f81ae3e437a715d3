// The bubblewrap command line of one sandbox: new pid, network, ipc, uts and
// cgroup namespaces (the network namespace has a loopback and nothing else), a
// root that is an empty tmpfs with only the system libraries, the runtimes and
// the session's bridge mounted read-only, a private /tmp, /proc of its own pid
// namespace, and the caller's uid dropped to the session's before anything of
// the caller runs.
import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { prlimitArgs, type SandboxSettings } from './sandbox-limits.ts';

export const SETPRIV = '/usr/bin/setpriv';

export interface Mount {
  source: string;
  target: string;
  /** Read-write; everything else is read-only. */
  writable?: boolean;
}

export interface SandboxPlan {
  /** The uid and gid the code runs as; undefined when the host is not root (bwrap then maps the host's own uid). */
  user: { uid: number; gid: number } | undefined;
  mounts: Mount[];
  /** Per-process CPU seconds; undefined for the long-lived daemon sandbox. */
  cpuSeconds: number | undefined;
  /** A path that reads the given descriptor of whichever process opens it (a symlink into /proc/self/fd). */
  fdLink?: { fd: number; target: string };
  command: string[];
}

// Merged-/usr systems have these as symlinks into /usr; others as directories.
const ROOT_LINKS = ['/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32'];
// What the dynamic loader and the C library read; no account, host or network file.
const ETC_FILES = ['/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/localtime', '/etc/alternatives'];

function systemMounts(): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const path of ROOT_LINKS) {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else if (stat?.isDirectory()) args.push('--ro-bind', path, path);
  }
  args.push('--perms', '0755', '--dir', '/etc');
  for (const path of ETC_FILES) if (existsSync(path)) args.push('--ro-bind', path, path);
  return args;
}

/** Every directory above the given paths, outermost first, each once. */
function parentDirs(targets: string[]): string[] {
  const dirs = new Set<string>();
  for (const target of targets) {
    const parts = target.split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i++) dirs.add(`/${parts.slice(0, i).join('/')}`);
  }
  return [...dirs].sort((a, b) => a.split('/').length - b.split('/').length);
}

export function bwrapArgs(settings: SandboxSettings, plan: SandboxPlan): string[] {
  const args = [
    '--die-with-parent',
    '--new-session',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    // Without a uid to drop to, a user namespace is how an unprivileged host gets the other namespaces.
    ...(plan.user ? [] : ['--unshare-user']),
    '--hostname',
    'sandbox',
    ...systemMounts(),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--perms',
    '1777',
    '--size',
    String(settings.tmpBytes),
    '--tmpfs',
    '/tmp',
  ];
  // bwrap would make the directories above a mount point 0700 root, which the session's uid cannot cross.
  for (const dir of parentDirs([...plan.mounts.map((m) => m.target), ...(plan.fdLink ? [plan.fdLink.target] : [])])) {
    args.push('--perms', '0755', '--dir', dir);
  }
  for (const m of plan.mounts) args.push(m.writable ? '--bind' : '--ro-bind', m.source, m.target);
  if (plan.fdLink) args.push('--symlink', `/proc/self/fd/${plan.fdLink.fd}`, plan.fdLink.target);
  args.push('--chdir', '/tmp');
  let command = [...prlimitArgs(settings, plan.cpuSeconds), ...plan.command];
  if (plan.user) {
    // Root outside: bwrap keeps only what setpriv needs to become the session's uid, which then
    // drops every capability and forbids gaining any back (setuid binaries under /usr included).
    args.push('--cap-drop', 'ALL', '--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP');
    const { uid, gid } = plan.user;
    command = [SETPRIV, `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--no-new-privs', '--inh-caps=-all', '--bounding-set=-all', '--', ...command];
  }
  return [...args, '--', ...command];
}
