// bench:scale's rows, tables and charts: what a step of the big crawl measured, and
// what the thousand jobs at once measured, as printed lines and as SVG.
import { svgChart, type Panel } from './svg-chart.ts';

export interface StatementCost {
  query: string;
  calls: number;
  totalMs: number;
  meanMs: number;
  maxMs: number;
}

export interface CrawlStep {
  /** Pages stored when the step's figures were taken. */
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  /** CPU ms a page of the step, per process (gateway, worker, postgres, temporal). */
  cpuMsPerPage: Record<string, number>;
  workerRssMb: number;
  /** Bytes the service's tables (with indexes and TOAST) grew by since the crawl started. */
  dbBytes: number;
  dbBytesPerPage: number;
  /** The frontier claim's selection, p95 of its server-side time sampled by the bench. */
  claimP95Ms: number;
  /** The worker's own claims in the step, mean server time (pg_stat_statements). */
  claimMeanMs: number | undefined;
  firstPageP95Ms: number;
  deepNextP95Ms: number;
  historyEventsPer1000: number;
  continuedAsNew: number;
  /** The statements that took the most server time in the step. */
  statements: StatementCost[];
}

const CPU_PROCESSES = ['gateway', 'worker', 'postgres', 'temporal'];

const col = (v: number | undefined, width: number, digits = 1) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(digits)).padStart(width);

export const CRAWL_STEP_HEADER = [
  '| pages | pages/s | CPU ms/page gateway / worker / postgres / temporal | worker RSS MB | PostgreSQL MB | B/page | claim p95 ms (bench) | claim mean ms (worker) | GET first p95 ms | GET deep next p95 ms | history events /1000 pages | continue-as-new |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
].join('\n');

export function crawlStepLine(s: CrawlStep): string {
  const cpu = CPU_PROCESSES.map((p) => col(s.cpuMsPerPage[p], 0, 2)).join(' / ');
  return `| ${s.pages} | ${col(s.pagesPerSecond, 0)} | ${cpu} | ${col(s.workerRssMb, 0, 0)} | ${col(s.dbBytes / 2 ** 20, 0, 0)} | ${col(s.dbBytesPerPage, 0, 0)} | ${col(s.claimP95Ms, 0, 2)} | ${col(s.claimMeanMs, 0, 2)} | ${col(s.firstPageP95Ms, 0, 0)} | ${col(s.deepNextP95Ms, 0, 0)} | ${col(s.historyEventsPer1000, 0, 0)} | ${s.continuedAsNew} |`;
}

/** The step's costliest statements, one line each (the text cut short). */
export function topStatementLines(statements: StatementCost[], count = 5): string[] {
  return statements
    .slice(0, count)
    .map(
      (s) =>
        `    ${col(s.totalMs / 1000, 7)} s in ${String(s.calls).padStart(7)} calls, mean ${col(s.meanMs, 7, 2)} ms, max ${col(s.maxMs, 7, 0)} ms: ${s.query.replace(/\s+/g, ' ').slice(0, 140)}`,
    );
}

export function crawlChart(title: string, steps: CrawlStep[]): string {
  const line = (name: string, y: (s: CrawlStep) => number | undefined) => ({
    name,
    points: steps.flatMap((s) => {
      const v = y(s);
      return v === undefined || Number.isNaN(v) ? [] : [[s.pages, v] as [number, number]];
    }),
  });
  const xLabel = 'pages stored';
  const panels: Panel[] = [
    { title: 'pages per second', kind: 'lines', xLabel, series: [line('pages/s', (s) => s.pagesPerSecond)] },
    { title: 'CPU ms per page', kind: 'lines', xLabel, series: CPU_PROCESSES.map((p) => line(p, (s) => s.cpuMsPerPage[p])) },
    { title: 'worker RSS (MB)', kind: 'lines', xLabel, series: [line('RSS', (s) => s.workerRssMb)] },
    { title: 'PostgreSQL bytes per stored page', kind: 'lines', xLabel, series: [line('bytes/page', (s) => s.dbBytesPerPage)] },
    {
      title: 'frontier claim (ms)',
      kind: 'lines',
      xLabel,
      series: [line('p95, bench', (s) => s.claimP95Ms), line('mean, worker', (s) => s.claimMeanMs)],
    },
    {
      title: 'GET /v2/crawl/{id} p95 (ms)',
      kind: 'lines',
      xLabel,
      series: [line('first page', (s) => s.firstPageP95Ms), line('deep next', (s) => s.deepNextP95Ms)],
    },
    { title: 'workflow history events per 1,000 pages', kind: 'lines', xLabel, series: [line('events', (s) => s.historyEventsPer1000)] },
    { title: 'continue-as-new (count)', kind: 'lines', xLabel, series: [line('runs continued', (s) => s.continuedAsNew)] },
  ];
  return svgChart(title, panels);
}

export interface JobsRun {
  /** Seconds from the first start to each job's end, in order of ending. */
  ends: number[];
  last: number;
}

export function jobsChart(
  title: string,
  together: JobsRun,
  groupedEnds: number[],
  p95ByRoute: Record<string, number>,
  startsPerSecond: [number, number][],
): string {
  const cumulative = (ends: number[]) => [...ends].sort((a, b) => a - b).map((t, i) => [t, i + 1] as [number, number]);
  return svgChart(title, [
    {
      title: 'jobs completed over time (s)',
      kind: 'lines',
      xLabel: 'seconds since the first start',
      series: [
        { name: 'all at once', points: cumulative(together.ends) },
        { name: 'in groups of ten', points: cumulative(groupedEnds) },
      ],
    },
    {
      title: 'job starts accepted per second',
      kind: 'lines',
      xLabel: 'seconds since the first start',
      series: [{ name: 'starts/s', points: startsPerSecond }],
    },
    {
      title: 'p95 per route, all at once (ms)',
      kind: 'bars',
      bars: Object.entries(p95ByRoute).map(([label, value]) => ({ label, value })),
    },
  ]);
}
