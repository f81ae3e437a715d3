// The log's section of the settings (src/config.ts composes them all).
import { str } from './config/env.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export function logLevelConfig(): LogLevel {
  const v = str('LOG_LEVEL') ?? 'info';
  if (!['debug', 'info', 'warn', 'error'].includes(v)) throw new Error(`LOG_LEVEL must be debug, info, warn or error, got "${v}"`);
  return v as LogLevel;
}

/** LOG_LEVEL asks for debug: read on its own, for a process whose settings could not be loaded. */
export function debugLogRequested(): boolean {
  return str('LOG_LEVEL') === 'debug';
}
