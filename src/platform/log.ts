// Structured logs: one JSON object per line on stdout, with ids as fields so a
// crawl or request can be followed across processes. Fields bound to a unit of
// work (a request's id, an activity's workflow) reach every line written inside
// it through the async context, without a logger being passed down to it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LogLevel } from './log-config.ts';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

const boundFields = new AsyncLocalStorage<LogFields>();

/** Runs `work` with `fields` on every line any logger writes inside it (async continuations included). */
export function withLogFields<T>(fields: LogFields, work: () => T): T {
  return boundFields.run({ ...boundFields.getStore(), ...fields }, work);
}

/** The fields bound by the withLogFields calls around the caller. */
export function boundLogFields(): LogFields {
  return boundFields.getStore() ?? {};
}

/** An Error would print as {}, a bigint would throw. */
function jsonValue(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

export function createLogger(level: LogLevel, base: LogFields = {}): Logger {
  const min = ORDER[level];
  const write = (lvl: LogLevel, msg: string, fields?: LogFields) => {
    if (ORDER[lvl] < min) return;
    const entry: LogFields = { time: new Date().toISOString(), level: lvl, msg, ...base, ...boundFields.getStore(), ...fields };
    process.stdout.write(`${JSON.stringify(entry, jsonValue)}\n`);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger(level, { ...base, ...fields }),
  };
}
