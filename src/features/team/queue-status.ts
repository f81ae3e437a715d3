// What the team's jobs hold of its concurrency: a job is active while one of its pages holds a
// team slot (a live lease), waiting while it runs without one. Jobs are rows of the crawl
// pipeline (crawls, batch scrapes, scrapes); another kind of job adds its own count here.
import { z } from 'zod';
import type { Db } from '../../platform/db/prisma.ts';

export const queueStatusSchema = z.object({
  jobsInQueue: z.number().int().describe('Jobs running.'),
  activeJobsInQueue: z.number().int().describe('Jobs holding a slot of the team’s concurrency now.'),
  waitingJobsInQueue: z.number().int().describe('Jobs running without one.'),
  maxConcurrency: z.number().int(),
  mostRecentSuccess: z.string().nullable().describe('When a page of the team last succeeded.'),
});
export type QueueStatus = z.infer<typeof queueStatusSchema>;

export const concurrencySchema = z.object({
  concurrency: z.number().int().describe('Pages of the team being scraped now.'),
  maxConcurrency: z.number().int(),
});

export async function queueStatus(db: Db, team: { id: string; concurrencyLimit: number }): Promise<QueueStatus> {
  const [counts] = await db.$queryRaw<{ running: bigint; active: bigint }[]>`
    SELECT count(*) AS running,
           count(*) FILTER (WHERE EXISTS (
             SELECT 1 FROM team_slot s WHERE s.team_id = c.team_id AND s.holder_group = c.id::text AND s.leased_until > now()
           )) AS active
    FROM job c WHERE c.team_id = ${team.id}::uuid AND c.status = 'scraping'`;
  // A successful page is a charged one (a crawl prompt's 0-credit token row is none): the ledger's
  // (team, created_at) index finds the newest at once.
  const [last] = await db.$queryRaw<{ at: Date }[]>`
    SELECT created_at AS at FROM usage_entry
    WHERE team_id = ${team.id}::uuid AND endpoint IN ('crawl', 'batch_scrape', 'scrape') AND credits > 0
    ORDER BY created_at DESC LIMIT 1`;
  const running = Number(counts.running);
  const active = Number(counts.active);
  return {
    jobsInQueue: running,
    activeJobsInQueue: active,
    waitingJobsInQueue: running - active,
    maxConcurrency: team.concurrencyLimit,
    mostRecentSuccess: last ? last.at.toISOString() : null,
  };
}

/** Pages of the team being scraped now (leased slots), beside its limit. */
export async function concurrencyOf(db: Db, team: { id: string; concurrencyLimit: number }): Promise<z.infer<typeof concurrencySchema>> {
  const [row] = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM team_slot WHERE team_id = ${team.id}::uuid AND holder IS NOT NULL AND leased_until > now()`;
  return { concurrency: Number(row.n), maxConcurrency: team.concurrencyLimit };
}
