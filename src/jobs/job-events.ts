// Job events for live watchers (the crawl WebSocket): a stored page, a job's end.
// They are PostgreSQL notifications sent inside the transaction that makes them
// true, so a listener hears of a page only once it can be read, and nothing is
// sent for a transaction that rolls back. They carry ids only; listeners read
// the documents. A notification is best effort (a listener that was away misses
// it), so watchers catch up from the tables on (re)connect.
import { Prisma } from '../generated/prisma/client.ts';
import type { SqlTx } from '../platform/db/sql-transactions.ts';

export const JOB_EVENTS_CHANNEL = 'job_events';

export type JobEvent = { jobId: string; pageId: bigint } | { jobId: string; ended: true };

/**
 * One notification per page a statement stores, in id order: a part of that statement, which
 * selects from its own expression `stored` (rows with the page's `id`); the statement must read
 * the part for it to run (an expression that only selects runs when read).
 */
export function notifyStoredPages(jobId: string, stored: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`SELECT pg_notify(${JOB_EVENTS_CHANNEL}, ${jobId} || ' ' || s.id) FROM ${stored} s ORDER BY s.id`;
}

export async function notifyJobEnded(db: SqlTx, jobId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${JOB_EVENTS_CHANNEL}, ${`${jobId} end`})`;
}

export function parseJobEvent(payload: string): JobEvent | undefined {
  const [jobId, what] = payload.split(' ');
  if (!jobId || !what) return undefined;
  if (what === 'end') return { jobId, ended: true };
  return /^\d+$/.test(what) ? { jobId, pageId: BigInt(what) } : undefined;
}
