import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.ts';

export type Db = PrismaClient;

export function createDb(databaseUrl: string, poolSize = 10): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, max: poolSize }) });
}

/** The client handed to an interactive transaction's callback. */
export type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];
