// A Chromium with its DevTools endpoint on 127.0.0.1 (an ephemeral port), started
// exactly as a browser host starts a session's (launchSessionChromium), without
// the guard proxy, in a directory of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchSessionChromium } from '../../src/features/browser-sessions/host/session-chromium.ts';
import { loadConfig } from '../../src/config.ts';

export interface DebugChromium {
  /** ws://127.0.0.1:PORT/devtools/browser/ID */
  cdpUrl: string;
  port: number;
  close(): Promise<void>;
}

export async function startDebugChromium(): Promise<DebugChromium> {
  const dir = mkdtempSync(join(tmpdir(), 'debug-chromium-'));
  const browser = await launchSessionChromium({ settings: loadConfig().chromium, dir });
  return {
    cdpUrl: browser.cdpUrl,
    port: Number(new URL(browser.cdpUrl).port),
    async close() {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
