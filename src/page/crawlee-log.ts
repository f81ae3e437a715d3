// A crawler's own log lines (a page that failed for good, mostly) as the service's
// structured JSON lines, with the batch's fields, instead of Crawlee's text on
// stderr. Errors only, as Crawlee's global level is set (its warnings are every
// retried page). A batch that is stopping says nothing about its pages (each one
// it did not store is retried with the batch), and neither does a page whose wait
// for a concurrency slot was cut short: those lines are dropped.
import { Log, Logger as CrawleeLogger, LogLevel } from '@crawlee/core';
import type { Logger } from '../platform/log.ts';

class ForwardingLogger extends CrawleeLogger {
  readonly #log: Logger;
  readonly #quiet: (message: string) => boolean;

  constructor(log: Logger, quiet: (message: string) => boolean) {
    super({});
    this.#log = log;
    this.#quiet = quiet;
  }

  override _log(level: LogLevel, message: string, data?: Record<string, unknown>, exception?: unknown): string {
    if (level !== LogLevel.ERROR || this.#quiet(message)) return '';
    const error = exception instanceof Error ? exception.message : exception === undefined ? undefined : String(exception);
    this.#log.error(message, { component: 'crawlee', ...data, ...(error !== undefined && { error }) });
    return '';
  }
}

/** The `log` of one crawler: its error lines go to `log` unless `quiet(message)`. */
export function crawlerLog(log: Logger, quiet: (message: string) => boolean): Log {
  return new Log({ level: LogLevel.ERROR, logger: new ForwardingLogger(log, quiet) });
}
