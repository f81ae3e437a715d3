// A Chromium with its DevTools endpoint on 127.0.0.1 (an ephemeral port), the
// way a browser session's host runs one: started as the service starts every
// Chromium (chromiumLaunch: CHROMIUM_USER when root, sandbox on, no secrets in
// its environment), with a user-data-dir of its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, chromiumLaunch } from '../../src/platform/browser/chromium-launch.ts';
import { loadConfig } from '../../src/platform/config.ts';

export interface DebugChromium {
  /** ws://127.0.0.1:PORT/devtools/browser/ID */
  cdpUrl: string;
  port: number;
  close(): Promise<void>;
}

export async function startDebugChromium(): Promise<DebugChromium> {
  const settings = loadConfig().chromium;
  const launch = chromiumLaunch(settings);
  const options = launch.launchOptions(undefined);
  const dir = mkdtempSync(join(tmpdir(), 'debug-chromium-'));
  // The profile must exist for the wrapper to hand it to CHROMIUM_USER, who passes through `dir` only.
  chmodSync(dir, 0o711);
  mkdirSync(join(dir, 'profile'));
  const args = [
    ...CHROMIUM_ARGS,
    '--headless',
    '--remote-debugging-address=127.0.0.1',
    '--remote-debugging-port=0',
    `--user-data-dir=${join(dir, 'profile')}`,
    'about:blank',
  ];
  const child: ChildProcess = spawn(options.executablePath ?? launch.executable, args, {
    env: options.env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const cdpUrl = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`Chromium printed no DevTools URL in 30 s: ${seen.slice(-500)}`)), 30_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited with ${code}: ${seen.slice(-500)}`));
    });
  });
  child.stderr?.resume();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    cdpUrl,
    port: Number(new URL(cdpUrl).port),
    async close() {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
