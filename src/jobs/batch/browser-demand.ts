// Browser demand of crawls that can no longer run (a workflow terminated by an
// operator never reaches finishCrawl): without this, running batches would keep
// giving their browsers up to a crawl that will never take one.
import type { Db } from '../../platform/db/prisma.ts';

export async function forgetAbandonedBrowserDemand(db: Db): Promise<number> {
  return db.$executeRaw`
    DELETE FROM browser_demand d
    WHERE d.requested_at < now() - interval '1 minute'
      AND NOT EXISTS (SELECT 1 FROM crawl c WHERE c.id::text = d.group_id AND c.status = 'scraping')`;
}
