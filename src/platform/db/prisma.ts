import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import { ReleasingPool } from './releasing-pool.ts';
import { DatabaseProbe } from './database-probe.ts';

export type Db = PrismaClient;

/** How long a connection and a statement may take (DB_CONNECT_TIMEOUT_MS, DB_QUERY_TIMEOUT_MS). */
export interface DbLimits {
  connectTimeoutMs: number;
  queryTimeoutMs: number;
}

// Prisma's defaults (2 s to get a connection, 5 s to finish) fail page writes on a busy
// 2-core machine; a failed write costs a whole batch retry, waiting longer costs nothing.
export const DEFAULT_DB_LIMITS: DbLimits = { connectTimeoutMs: 20_000, queryTimeoutMs: 30_000 };

/**
 * pg's settings for these limits. Without them a statement sent to a server that has stopped
 * answering (SIGSTOP, a failover in progress, a black-holed network) waits forever: the client
 * counts query_timeout itself and drops the connection; the server ends a statement at
 * statement_timeout. TCP keepalive finds a peer that vanished while the connection was idle.
 */
export function poolLimits(limits: DbLimits) {
  return {
    connectionTimeoutMillis: limits.connectTimeoutMs,
    query_timeout: limits.queryTimeoutMs,
    statement_timeout: limits.queryTimeoutMs,
    keepAlive: true,
  };
}

/** How long a readiness probe's connect and statement may each take before its connection is discarded (the longest probe timeout). */
const PROBE_TIMEOUT_MS = 2000;

/** Each client's probe of its server (database-probe.ts): made with the client, connecting only once asked. */
const probes = new WeakMap<Db, DatabaseProbe>();

export function createDb(databaseUrl: string, poolSize = 10, limits: DbLimits = DEFAULT_DB_LIMITS): Db {
  const pool = new ReleasingPool({ connectionString: databaseUrl, max: poolSize, ...poolLimits(limits) });
  const db = new PrismaClient({
    adapter: new PrismaPg(pool, { disposeExternalPool: true }),
    transactionOptions: { maxWait: limits.connectTimeoutMs, timeout: limits.queryTimeoutMs },
  });
  probes.set(db, new DatabaseProbe(databaseUrl, PROBE_TIMEOUT_MS, pool));
  return db;
}

/** Resolves when db's server answers, asked beside db's pool and watching it (database-probe.ts); a client not made by createDb (a test's stand-in) is asked through itself. */
export async function probeDatabase(db: Db): Promise<void> {
  const probe = probes.get(db);
  if (probe) return probe.probe();
  await db.$queryRaw`SELECT 1`;
}

/** The client handed to an interactive transaction's callback. */
export type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/** A create that met a row with the same unique key (Prisma's P2002). */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}

/**
 * Runs `create`, unless `existing` (given for a row whose id a caller may repeat: a retried tool
 * call's) finds the row first. A unique violation then means the same create ran at the same
 * moment, and counts as found. True when this call created the row.
 */
export async function createOnce(create: () => Promise<unknown>, existing?: () => Promise<unknown>): Promise<boolean> {
  if (!existing) {
    await create();
    return true;
  }
  if (await existing()) return false;
  try {
    await create();
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}
