import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from '../../generated/prisma/client.ts';

export type Db = PrismaClient;

// Prisma's defaults (2 s to get a connection, 5 s to finish) fail page writes on a busy
// 2-core machine; a failed write costs a whole batch retry, waiting longer costs nothing.
/** How long a transaction waits for a connection. */
export const TRANSACTION_WAIT_MS = 20_000;
/** How long a transaction may take. */
export const TRANSACTION_TIMEOUT_MS = 30_000;

export function createDb(databaseUrl: string, poolSize = 10): Db {
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl, max: poolSize }),
    transactionOptions: { maxWait: TRANSACTION_WAIT_MS, timeout: TRANSACTION_TIMEOUT_MS },
  });
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
