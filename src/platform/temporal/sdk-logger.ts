// The Temporal SDK's log lines (the worker's own, workflow code's `log`, an
// activity's Context.log and the Rust core's forwarded ones) written through our
// logger, so every line a process prints is one JSON object in the same format.
import type { LogLevel as SdkLogLevel, LogMetadata, Logger as SdkLogger } from '@temporalio/common';
import type { LogLevel } from '../log-config.ts';
import type { Logger } from '../log.ts';

const LEVELS: Record<SdkLogLevel, LogLevel> = { TRACE: 'debug', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' };

/** The SDK's own machinery, whose INFO lines (bundle statistics, state changes) our own start and stop lines already cover. */
const MACHINERY = new Set(['worker', 'core']);

/**
 * Warnings the SDK gives about what is so by design: the browser and webhook queues' workers run
 * activities only. As warnings they would greet every start and page an operator for nothing.
 */
const BY_DESIGN = new Set(['No workflows registered, not polling for workflow tasks']);

function levelOf(level: SdkLogLevel, message: string, meta: LogMetadata | undefined): LogLevel {
  if (level === 'INFO' && MACHINERY.has(String(meta?.sdkComponent))) return 'debug';
  if (level === 'WARN' && BY_DESIGN.has(message)) return 'debug';
  return LEVELS[level];
}

export function sdkLogger(log: Logger): SdkLogger {
  const write = (level: SdkLogLevel, message: string, meta?: LogMetadata) => log[levelOf(level, message, meta)](message, meta);
  return {
    log: write,
    trace: (message, meta) => write('TRACE', message, meta),
    debug: (message, meta) => write('DEBUG', message, meta),
    info: (message, meta) => write('INFO', message, meta),
    warn: (message, meta) => write('WARN', message, meta),
    error: (message, meta) => write('ERROR', message, meta),
  };
}
