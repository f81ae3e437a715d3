// Browser demand rows (platform/browser/browser-share.ts) that need the job's own
// row: a single scrape's first batch asks for its browser slot before its run has
// read the job, and the demand of crawls that can no longer run (a workflow
// terminated by an operator never reaches finishCrawl) is forgotten, or running
// batches would keep giving their browsers up to a crawl that will never take one.
import type { Db } from '../../platform/db/prisma.ts';

/** The demand of a job's batch, with the job's team, in one statement; none for a job that no longer runs. */
export async function requestJobBrowser(db: Db, work: { holder: string; pool: string; crawlId: string }): Promise<void> {
  await db.$executeRaw`
    INSERT INTO browser_demand (holder, pool, team_id, group_id)
    SELECT ${work.holder}::text, ${work.pool}::text, c.team_id, c.id::text FROM job c WHERE c.id = ${work.crawlId}::uuid AND c.status = 'scraping'
    ON CONFLICT (holder) DO NOTHING`;
}

export async function forgetAbandonedBrowserDemand(db: Db): Promise<number> {
  return db.$executeRaw`
    DELETE FROM browser_demand d
    WHERE d.requested_at < now() - interval '1 minute'
      AND NOT EXISTS (SELECT 1 FROM job c WHERE c.id::text = d.group_id AND c.status = 'scraping')`;
}
