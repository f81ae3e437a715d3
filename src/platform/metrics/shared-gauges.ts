// Gauges that describe the whole deployment, read from PostgreSQL (queued URLs,
// slots and leases held, the webhook outbox): declared beside the tables they
// read, served only by processes that bind a database to them (the workers), so
// the gateway and the browser hosts never query for them.
import type { Db } from '../db/prisma.ts';
import { sampledGauge, type Sample } from './sampled-gauge.ts';

let boundDb: Db | undefined;

/** The worker calls this once at start; until then (and in other processes) shared gauges have no values. */
export function serveSharedGauges(db: Db): void {
  boundDb = db;
}

export function sharedGauge<L extends string = never>(config: {
  name: string;
  help: string;
  labelNames?: readonly L[];
  query: (db: Db) => Promise<Sample<L>>;
}): void {
  sampledGauge<L>({
    name: config.name,
    help: config.help,
    labelNames: config.labelNames,
    read: async () => (boundDb ? config.query(boundDb) : []),
  });
}
