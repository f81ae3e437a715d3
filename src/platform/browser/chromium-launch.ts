// How the service starts Chromium, for the scraper and for anything else that
// needs a browser. Pages are hostile, so:
// - the sandbox is on (Playwright's default adds --no-sandbox; we do not);
// - Chromium refuses to sandbox itself as root, so a root worker starts it as
//   CHROMIUM_USER through a small wrapper that drops to that uid and execs it,
//   keeping Playwright's pipe (fds 3 and 4);
// - its environment is CHROMIUM_ENVIRONMENT only, never the worker's secrets;
// - every connection goes through the proxy given, loopback included, and
//   WebRTC may not send UDP around it (QUIC is off too).
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type LaunchOptions } from 'playwright';
import type { ChromiumSettings } from './config.ts';

export type { ChromiumSettings };

export const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // WebRTC would otherwise send STUN/ICE packets over UDP straight to any address a page names.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  // QUIC is UDP too; with it off every HTTP request is a proxied TCP connection.
  '--disable-quic',
];

/** Every connection goes to the proxy: <-loopback> stops Chromium's built-in bypass of localhost. */
export const PROXY_BYPASS = '<-loopback>';

export interface ChromiumUser {
  uid: number;
  gid: number;
}

export interface ChromiumLaunch {
  /** Playwright launch options (also valid for launchPersistentContext); all traffic goes to `proxyServer`. */
  launchOptions(proxyServer: string | undefined): LaunchOptions;
  /** The uid Chromium runs as when the worker is root; undefined when it runs as the worker. */
  user: ChromiumUser | undefined;
  /** The binary the wrapper (if any) finally starts. */
  executable: string;
}

const SETPRIV_CANDIDATES = ['/usr/bin/setpriv', '/bin/setpriv'];
const CHOWN_CANDIDATES = ['/usr/bin/chown', '/bin/chown'];

function resolveUser(spec: string): ChromiumUser {
  const numeric = /^(\d+)(?::(\d+))?$/.exec(spec);
  let user: ChromiumUser;
  if (numeric) {
    user = { uid: Number(numeric[1]), gid: Number(numeric[2] ?? numeric[1]) };
  } else {
    try {
      const id = (flag: string) => Number(execFileSync('id', [flag, spec], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
      user = { uid: id('-u'), gid: id('-g') };
    } catch {
      throw new Error(`CHROMIUM_USER=${spec} is not a user on this machine: name an existing user, or give uid:gid`);
    }
  }
  if (user.uid === 0 || user.gid === 0) throw new Error(`CHROMIUM_USER=${spec} is root: Chromium must run as an unprivileged user`);
  return user;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A directory of its own per worker process: the wrapper script (run by root) and a home the
 * unprivileged user can write (fontconfig cache, crash dumps). Removed when the process exits.
 */
function writeWrapper(executable: string, user: ChromiumUser): { wrapper: string; home: string } {
  const setpriv = SETPRIV_CANDIDATES.find((p) => existsSync(p));
  const chown = CHOWN_CANDIDATES.find((p) => existsSync(p));
  if (!setpriv || !chown) {
    throw new Error('setpriv and chown (util-linux, coreutils) are needed: a root worker starts Chromium as CHROMIUM_USER with them');
  }
  const dir = mkdtempSync(join(tmpdir(), 'crawl-chromium-'));
  // Others may pass through to the home below, not list or read the directory.
  chmodSync(dir, 0o711);
  const home = join(dir, 'home');
  mkdirSync(home, { mode: 0o700 });
  chownSync(home, user.uid, user.gid);
  const wrapper = join(dir, 'chromium');
  const owner = `${user.uid}:${user.gid}`;
  // Playwright creates the profile directory (--user-data-dir) as root before it starts the
  // browser; it must belong to the user Chromium runs as. exec keeps the pipe fds 3 and 4.
  writeFileSync(
    wrapper,
    [
      '#!/bin/sh',
      'for arg; do',
      `  case "$arg" in --user-data-dir=*) ${chown} -R ${owner} -- "\${arg#--user-data-dir=}" || exit 1 ;; esac`,
      'done',
      // Out of the worker's directory, which the user may not read; the shell's record of it goes too.
      `cd ${shellQuote(home)} || exit 1`,
      'unset OLDPWD',
      // The death signal, set after the uid change (which clears it), ends the browser with its parent, even on kill -9.
      `exec ${setpriv} --reuid=${user.uid} --regid=${user.gid} --clear-groups --pdeathsig KILL -- ${shellQuote(executable)} "$@"`,
      '',
    ].join('\n'),
    { mode: 0o700 },
  );
  return { wrapper, home };
}

const wrappers = new Map<string, { wrapper: string; home: string }>();
// One listener for every wrapper (a browser host makes one per session uid): their directories go at exit.
process.once('exit', () => {
  for (const { wrapper } of wrappers.values()) rmSync(dirname(wrapper), { recursive: true, force: true });
});

function wrapperFor(executable: string, user: ChromiumUser) {
  const key = `${executable}\0${user.uid}:${user.gid}`;
  let made = wrappers.get(key);
  if (!made) {
    made = writeWrapper(executable, user);
    wrappers.set(key, made);
  }
  return made;
}

/** Whether Chromium must be started as another user: it cannot sandbox itself as root. */
export function runsAsRoot(): boolean {
  return process.getuid?.() === 0;
}

export function chromiumLaunch(settings: ChromiumSettings): ChromiumLaunch {
  const executable = settings.path ?? chromium.executablePath();
  const user = runsAsRoot() ? resolveUser(settings.user) : undefined;
  let env: Record<string, string> = { ...settings.environment };
  let executablePath = settings.path;
  if (user) {
    const { wrapper, home } = wrapperFor(executable, user);
    executablePath = wrapper;
    // Root's own runtime directory and X authority are not the user's to read.
    const { XDG_RUNTIME_DIR: _runtime, XAUTHORITY: _xauthority, ...rest } = env;
    env = { ...rest, HOME: home };
  }
  return {
    user,
    executable,
    launchOptions(proxyServer) {
      return {
        executablePath,
        headless: settings.headless,
        chromiumSandbox: settings.sandbox,
        args: CHROMIUM_ARGS,
        env,
        ...(proxyServer ? { proxy: { server: proxyServer, bypass: PROXY_BYPASS } } : {}),
      };
    },
  };
}

/** Playwright's first line plus what the browser itself wrote to stderr, on one line. */
function summary(text: string): string {
  const lines = text.split('\n').map((l) => l.trim());
  const own = lines.map((l) => /^\[pid=\d+\]\[err\]\s*(.*)$/.exec(l)?.[1]).filter((l): l is string => l !== undefined && l !== '' && !/dbus/i.test(l));
  const first = lines.find((l) => l !== '') ?? 'unknown error';
  return own.length ? `${first}: ${own.slice(-3).join(' | ')}` : first;
}

/** One line for a Chromium that does not start as configured, naming the setting that decides. */
export function explainLaunchFailure(error: unknown, launch: ChromiumLaunch, settings: ChromiumSettings): string {
  const text = (error as Error)?.message ?? String(error);
  const as = launch.user ? ` as uid ${launch.user.uid} (CHROMIUM_USER=${settings.user})` : '';
  if (/No usable sandbox|Failed to move to new namespace|zygote_host_impl_linux/.test(text)) {
    return (
      `Chromium's sandbox cannot start on this machine (${launch.executable}${as}): it needs unprivileged user namespaces ` +
      '(sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces > 0; in Docker a seccomp profile that allows them, e.g. ' +
      'security_opt: seccomp=unconfined) or the setuid helper (Debian: apt-get install chromium-sandbox). ' +
      'Set CHROMIUM_SANDBOX=false to run Chromium without it and accept that a page exploiting Chromium runs unconfined.'
    );
  }
  return `Chromium does not start (${launch.executable}${as}; CHROMIUM_PATH, CHROMIUM_USER, CHROMIUM_SANDBOX decide how): ${summary(text)}`;
}

/**
 * Starts Chromium once as the worker will and loads a page, so that a machine where it cannot run
 * (sandbox unavailable, binary unreadable by CHROMIUM_USER) stops the worker at start-up with one
 * clear line instead of failing every batch.
 */
export async function checkChromiumStarts(settings: ChromiumSettings): Promise<ChromiumLaunch> {
  const launch = chromiumLaunch(settings);
  try {
    const browser = await chromium.launch({ ...launch.launchOptions(undefined), timeout: 60_000 });
    try {
      const page = await browser.newPage();
      await page.setContent('<p>ready</p>');
    } finally {
      await browser.close();
    }
  } catch (err) {
    throw new Error(explainLaunchFailure(err, launch, settings), { cause: err });
  }
  return launch;
}
