// A session's Chromium, as the browser host runs it: started the way the service
// starts every Chromium (chromiumLaunch: CHROMIUM_USER when root, its sandbox on,
// no secrets in its environment, every connection through the guard proxy), with
// a fresh user-data-dir of its own and its DevTools endpoint on 127.0.0.1 at an
// ephemeral port, which only the host's relay and the session's sandbox bridge
// connect to. setpriv's parent-death signal ends it with the host: a host killed
// with -9 leaves no browser behind.
//
// A session's location is set for the whole process, so that every page, worker
// and browser context a CDP client opens has it without the host attaching to
// them: --accept-lang gives Accept-Language and navigator.languages, TZ the time
// zone. The Intl locale would need --lang, which only takes a locale Chromium
// has a translation of (Debian ships en-US alone without chromium-l10n), or a
// CDP override per target, which a client's own override then collides with.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM_ARGS, chromiumLaunch, PROXY_BYPASS, type ChromiumSettings } from '../../../platform/browser/chromium-launch.ts';
import type { LocationSettings } from '../../../page/location.ts';

export interface SessionChromium {
  /** ws://127.0.0.1:PORT/devtools/browser/ID */
  cdpUrl: string;
  pid: number;
  /** Resolves with a description once the browser process has exited. */
  exited: Promise<string>;
  /** Kills the browser's process group and waits for it. */
  close(): Promise<void>;
}

export interface SessionChromiumOptions {
  settings: ChromiumSettings;
  /** A directory of the session's own; the profile goes in <dir>/profile. */
  dir: string;
  /** The guard proxy (http://127.0.0.1:PORT); undefined only in tests of the browser alone. */
  proxyServer?: string;
  /** The languages and time zone of the session's location; the host's own when absent. */
  location?: LocationSettings;
  startTimeoutMs?: number;
}

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));

export async function launchSessionChromium(opts: SessionChromiumOptions): Promise<SessionChromium> {
  const launch = chromiumLaunch(opts.settings);
  const options = launch.launchOptions(undefined);
  // The wrapper hands the profile to CHROMIUM_USER, who may only pass through `dir`.
  chmodSync(opts.dir, 0o711);
  const profile = join(opts.dir, 'profile');
  mkdirSync(profile, { recursive: true });
  const args = [
    ...CHROMIUM_ARGS,
    ...(opts.settings.headless ? ['--headless'] : []),
    ...(opts.settings.sandbox ? [] : ['--no-sandbox']),
    ...(opts.proxyServer ? [`--proxy-server=${opts.proxyServer}`, `--proxy-bypass-list=${PROXY_BYPASS}`] : []),
    // Canonical BCP 47 tags (locationSettings) hold no comma. Chromium adds q-values by position; the headless shell sends the list as it is.
    ...(opts.location ? [`--accept-lang=${opts.location.languages.join(',')}`] : []),
    '--remote-debugging-address=127.0.0.1',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    'about:blank',
  ];
  const executable = options.executablePath ?? launch.executable;
  // Root's wrapper sets the death signal itself (after dropping to CHROMIUM_USER, which would clear it).
  const [command, commandArgs] = SETPRIV && !launch.user ? [SETPRIV, ['--pdeathsig', 'KILL', '--', executable, ...args]] : [executable, args];
  const env = opts.location ? { ...options.env, TZ: opts.location.timezoneId } : options.env;
  const child: ChildProcess = spawn(command, commandArgs, {
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ? `the browser was killed (${signal})` : `the browser exited with code ${code}`)),
  );
  const timeoutMs = opts.startTimeoutMs ?? 30_000;
  const cdpUrl = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => {
      reject(new Error(`Chromium printed no DevTools URL in ${timeoutMs} ms: ${seen.slice(-500)}`));
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    }, timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (seen.length < 64_000) seen += chunk.toString('utf8');
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((why) => {
      clearTimeout(timer);
      reject(new Error(`Chromium did not start: ${why}: ${seen.slice(-500)}`));
    });
  });
  // Chromium keeps writing to stderr; nobody reads it past start-up.
  child.stderr?.resume();
  return {
    cdpUrl,
    pid: child.pid!,
    exited,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await exited;
    },
  };
}
