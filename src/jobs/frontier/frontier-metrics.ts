// How much crawling is still ahead across the deployment: the frontier rows of
// running jobs that wait for a batch (queued) or are being loaded (claimed).
import { sharedGauge } from '../../platform/metrics/shared-gauges.ts';

sharedGauge({
  name: 'frontier_urls',
  help: 'URLs in the frontiers of running jobs, by job kind and state (queued: waiting for a batch; claimed: a batch is loading them)',
  labelNames: ['kind', 'state'],
  async query(db) {
    const rows = await db.$queryRaw<{ kind: string; state: string; n: bigint }[]>`
      SELECT c.kind, u.state, count(*) AS n
        FROM job c JOIN job_url u ON u.job_id = c.id AND u.state IN ('queued', 'claimed')
       WHERE c.status = 'scraping'
       GROUP BY c.kind, u.state`;
    return rows.map((r) => ({ labels: { kind: r.kind, state: r.state }, value: Number(r.n) }));
  },
});
