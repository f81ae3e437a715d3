// Chromium's section of the settings (src/config.ts composes them all).
import { bool, pick, str } from '../config/env.ts';
import { CHROMIUM_ENVIRONMENT } from './chromium-environment.ts';

export function chromiumConfig() {
  return {
    path: str('CHROMIUM_PATH'),
    headless: bool('CHROMIUM_HEADLESS', true),
    /** false runs Chromium with --no-sandbox: only where the sandbox cannot start, accepting the risk. */
    sandbox: bool('CHROMIUM_SANDBOX', true),
    /** Who Chromium runs as when the worker is root (a user name, or uid[:gid]). */
    user: str('CHROMIUM_USER') ?? 'nobody',
    /** The only variables Chromium inherits: never the worker's secrets. */
    environment: pick(CHROMIUM_ENVIRONMENT),
  };
}

export type ChromiumSettings = ReturnType<typeof chromiumConfig>;
