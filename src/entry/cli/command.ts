// What every admin CLI command is: its usage, its options (node:util parseArgs
// shapes) and a run that answers a report, printed as text or, under --json, as
// one JSON document.
import type { Client } from '@temporalio/client';
import type { Db } from '../../platform/db/prisma.ts';

export type Options = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

export interface CliContext {
  db: Db;
  /** Connects on first use; fails with TemporalUnreachable when Temporal does not answer. */
  temporal(): Promise<Client>;
}

/** What a command found or did: `data` is the --json document, `text` the lines a person reads. */
export interface Report {
  data: unknown;
  text: string[];
}

export interface Command {
  summary: string;
  usage: string;
  options: Options;
  positionals?: number;
  run(ctx: CliContext, values: Record<string, unknown>, positionals: string[]): Promise<Report>;
}

/** Wrong use of a command: exit code 2, with the message. */
export class UsageError extends Error {}

export function nonNegativeInt(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a non-negative integer`);
  return n;
}

export function oneOf<T extends string>(value: unknown, name: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

export function positiveInt(value: unknown, name: string): number | undefined {
  const n = nonNegativeInt(value, name);
  if (n === 0) throw new UsageError(`--${name} must be a positive integer`);
  return n;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A job or session id as given, lower-cased as stored; anything else is misuse. */
export function uuidArg(value: string, what: string): string {
  if (!UUID.test(value)) throw new UsageError(`"${value}" is not a ${what} id (a UUID)`);
  return value.toLowerCase();
}
