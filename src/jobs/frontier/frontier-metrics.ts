// How much crawling is still ahead across the deployment: the frontier rows of
// running jobs that wait for a batch (queued) or are being loaded (claimed), and
// those of paused jobs apart (paused), so a paused crawl does not look stuck.
import type { Db } from '../../platform/db/prisma.ts';
import { sharedGauge } from '../../platform/metrics/shared-gauges.ts';

/** The frontier URLs of running jobs by kind and state, as the gauge reports them. */
export async function frontierUrlCounts(db: Db): Promise<{ kind: string; state: string; n: number }[]> {
  const rows = await db.$queryRaw<{ kind: string; state: string; n: bigint }[]>`
    SELECT c.kind, CASE WHEN u.state = 'queued' AND c.paused_at IS NOT NULL THEN 'paused' ELSE u.state END AS state, count(*) AS n
      FROM job c JOIN job_url u ON u.job_id = c.id AND u.state IN ('queued', 'claimed')
     WHERE c.status = 'scraping'
     GROUP BY 1, 2`;
  return rows.map((r) => ({ kind: r.kind, state: r.state, n: Number(r.n) }));
}

sharedGauge({
  name: 'frontier_urls',
  help: 'URLs in the frontiers of running jobs, by job kind and state (queued: waiting for a batch; claimed: a batch is loading them; paused: queued in a paused job)',
  labelNames: ['kind', 'state'],
  async query(db) {
    return (await frontierUrlCounts(db)).map((r) => ({ labels: { kind: r.kind, state: r.state }, value: r.n }));
  },
});
