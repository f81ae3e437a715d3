// Jobs of every kind as an operator counts them: started where the gateway
// commits the job (its row is the commitment, so a job is counted once however
// its workflow start goes), ended where the worker writes the end, and running
// as the rows that have not ended. A map is a job too, with a row of its own.
import type { JobKind } from './job-kind.ts';
import { counter } from '../platform/metrics/registry.ts';
import { sharedGauge } from '../platform/metrics/shared-gauges.ts';

export type MetricJobKind = JobKind | 'map' | 'extract';
export type JobEnd = 'completed' | 'failed' | 'cancelled';

const started = counter({
  name: 'jobs_started_total',
  help: 'Jobs committed by this gateway, by kind (crawl, batch_scrape, scrape, map, extract)',
  labelNames: ['kind'],
});

const ended = counter({
  name: 'jobs_ended_total',
  help: 'Jobs whose end this worker wrote, by kind and status (completed, failed, cancelled)',
  labelNames: ['kind', 'status'],
});

export function countJobStarted(kind: MetricJobKind): void {
  started.inc({ kind });
}

export function countJobEnded(kind: MetricJobKind, status: JobEnd): void {
  ended.inc({ kind, status });
}

sharedGauge({
  name: 'jobs_running',
  help: 'Jobs that have not ended, by kind',
  labelNames: ['kind'],
  async query(db) {
    const rows = await db.$queryRaw<{ kind: string; n: bigint }[]>`
      SELECT kind, count(*) AS n FROM job WHERE status = 'scraping' GROUP BY kind
      UNION ALL
      SELECT 'map', count(*) FROM map_job WHERE status = 'running'`;
    return rows.map((r) => ({ labels: { kind: r.kind }, value: Number(r.n) }));
  },
});
