// bench:scale, part 1: one crawl of SCALE_PAGES pages of the generated site
// (scale-site.ts) on the HTTP path, through a gateway and a worker process on
// scratch PostgreSQL (pg_stat_statements preloaded) and a Temporal dev server
// persisted as npm start runs it. Every SCALE_STEP stored pages a row of figures;
// at the end the JS SDK's walk of every `next` link, and the purge of the whole
// crawl after its retention beside another team's small crawl.
import Firecrawl from '@mendable/firecrawl-js';
import type { Client } from '@temporalio/client';
import type { Config } from '../src/config.ts';
import type { Db } from '../src/platform/db/prisma.ts';
import type { Logger } from '../src/platform/log.ts';
import { crawlCounts } from '../src/jobs/job-status.ts';
import { ok, type Api } from '../test/support/mixed-load-jobs.ts';
import { waitFor } from '../test/support/wait-for.ts';
import { percentile } from './percentile.ts';
import { rss } from './processes.ts';
import { startScaleSite } from './scale-site.ts';
import { SCALE_TASK_QUEUE, startScaleService, type ScaleService } from './scale-service.ts';
import { crawlChart, type CrawlStep, crawlStepLine, CRAWL_STEP_HEADER, topStatementLines, type StatementCost } from './scale-figures.ts';

export interface CrawlPartSettings {
  pages: number;
  step: number;
  concurrency: number;
  /** Pages of the other team's crawl timed alone and during the purge. */
  otherPages: number;
}

const POLL_MS = 2_000;
const SAMPLES = 20;
/** The claim's selection as frontier.ts's claimMore runs it (without its row locks, so the bench takes no row from the worker). */
const CLAIM_SQL = `SELECT id FROM job_url WHERE job_id = $1::uuid AND state = 'queued' ORDER BY depth, id LIMIT 16`;

async function startCrawl(api: Api, url: string, limit: number): Promise<string> {
  return ok('the crawl', await api('/v2/crawl', { method: 'POST', json: { url, limit, sitemap: 'include' } })).id as string;
}

/** The crawl's stored pages as the service keeps them (job_page_tally): counting them cost PostgreSQL 200 ms a read at 750,000. */
const storedPages = async (db: Db, crawlId: string) => (await crawlCounts(db, crawlId)).completed;

/** Bytes of every table of the service with its indexes and TOAST. */
async function databaseBytes(db: Db): Promise<number> {
  const [row] = await db.$queryRaw<{ bytes: bigint }[]>`
    SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'm')`;
  return Number(row!.bytes);
}

/** Server-side time (EXPLAIN ANALYZE) of the frontier claim's selection, SAMPLES times: its p95 in ms. */
async function claimP95(db: Db, crawlId: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const [row] = await db.$queryRawUnsafe<{ 'QUERY PLAN': [{ 'Execution Time': number }] }[]>(`EXPLAIN (ANALYZE, FORMAT JSON) ${CLAIM_SQL}`, crawlId);
    times.push(row!['QUERY PLAN'][0]['Execution Time']);
  }
  return percentile(times, 95);
}

/** p95 of GET `path`, SAMPLES times, in ms. */
async function getP95(api: Api, path: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES / 2; i++) {
    const started = performance.now();
    ok(`GET ${path}`, await api(path));
    times.push(performance.now() - started);
  }
  return percentile(times, 95);
}

/** The crawl's workflow runs so far: history events of all of them, and how many ended by continuing as new. */
async function workflowHistory(temporal: Client, workflowId: string): Promise<{ events: number; continuedAsNew: number }> {
  let events = 0;
  let continuedAsNew = 0;
  for await (const run of temporal.workflow.list({ query: `WorkflowId = "${workflowId}"` })) {
    // The visibility record of a running run does not follow its history: describe it.
    events += run.status.name === 'RUNNING' ? (await temporal.workflow.getHandle(workflowId, run.runId).describe()).historyLength : run.historyLength;
    if (run.status.name === 'CONTINUED_AS_NEW') continuedAsNew++;
  }
  return { events, continuedAsNew };
}

/** Statements' cost since the last reset, most total time first, and a reset for the next step. */
async function statementCosts(db: Db): Promise<StatementCost[]> {
  const rows = await db.$queryRaw<{ query: string; calls: bigint; total: number; mean: number; max: number }[]>`
    SELECT query, calls, total_exec_time AS total, mean_exec_time AS mean, max_exec_time AS max FROM pg_stat_statements
    WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
    ORDER BY query LIKE '%claimed_by%SKIP LOCKED%' DESC, total_exec_time DESC LIMIT 9`;
  await db.$queryRaw`SELECT pg_stat_statements_reset()`;
  // The claim first (its row, whatever its rank), then the costliest.
  const [claim, ...rest] = rows;
  const byTotal = claim?.query.includes('SKIP LOCKED') ? [...rest, claim].sort((a, b) => b.total - a.total) : rows;
  return byTotal.map((r) => ({ query: r.query, calls: Number(r.calls), totalMs: r.total, meanMs: r.mean, maxMs: r.max }));
}

async function stepFigures(
  service: ScaleService,
  api: Api,
  crawlId: string,
  workflowId: string,
  at: { pages: number; time: number; cpu: Record<string, number> },
  prev: { pages: number; time: number; cpu: Record<string, number> },
  baseBytes: number,
): Promise<CrawlStep> {
  const pages = at.pages - prev.pages;
  const cpuMsPerPage = Object.fromEntries(Object.entries(at.cpu).map(([name, s]) => [name, ((s - prev.cpu[name]!) * 1000) / pages]));
  const statements = await statementCosts(service.db);
  const claimStatement = statements.find((s) => s.query.includes('claimed_by') && s.query.includes('SKIP LOCKED'));
  const bytes = (await databaseBytes(service.db)) - baseBytes;
  // A deep `next`: the one a client is handed after reading up to 200 pages before the last stored.
  const deep = ok('a deep page', await api(`/v2/crawl/${crawlId}?skip=${Math.max(0, at.pages - 200)}`));
  const history = await workflowHistory(service.temporal, workflowId);
  return {
    pages: at.pages,
    seconds: (at.time - prev.time) / 1000,
    pagesPerSecond: pages / ((at.time - prev.time) / 1000),
    cpuMsPerPage,
    workerRssMb: rss(service.children.worker!.pid!).own / 2 ** 20,
    dbBytes: bytes,
    dbBytesPerPage: bytes / at.pages,
    claimP95Ms: await claimP95(service.db, crawlId),
    claimMeanMs: claimStatement?.meanMs,
    firstPageP95Ms: await getP95(api, `/v2/crawl/${crawlId}`),
    deepNextP95Ms: deep.next ? await getP95(api, (deep.next as string).slice(service.base.length)) : NaN,
    historyEventsPer1000: (history.events * 1000) / at.pages,
    continuedAsNew: history.continuedAsNew,
    statements,
  };
}

/** Runs the crawl to its end, printing a row every `step` pages; returns the rows. */
async function crawlInSteps(service: ScaleService, api: Api, crawlId: string, s: CrawlPartSettings): Promise<CrawlStep[]> {
  const { workflowId } = await service.db.job.findUniqueOrThrow({ where: { id: crawlId }, select: { workflowId: true } });
  // What the tables of an empty service weigh: the rows are the crawl's growth.
  const baseBytes = await databaseBytes(service.db);
  let prev = { pages: 0, time: Date.now(), cpu: service.cpu() };
  const steps: CrawlStep[] = [];
  console.log(CRAWL_STEP_HEADER);
  for (let mark = Math.min(s.step, s.pages); ; mark = Math.min(mark + s.step, s.pages)) {
    const at = await waitFor(
      `${mark} pages stored`,
      async () => {
        const pages = await storedPages(service.db, crawlId);
        return pages >= mark && { pages, time: Date.now(), cpu: service.cpu() };
      },
      30 * 60_000,
      POLL_MS,
    );
    const step = await stepFigures(service, api, crawlId, workflowId ?? `crawl-${crawlId}`, at, prev, baseBytes);
    steps.push(step);
    console.log(crawlStepLine(step));
    for (const line of topStatementLines(step.statements)) console.log(line);
    // The next step's time and CPU start after this one's figures were taken.
    prev = { pages: at.pages, time: Date.now(), cpu: service.cpu() };
    if (at.pages >= s.pages) return steps;
  }
}

async function crawlToEnd(api: Api, crawlId: string, pages: number): Promise<number> {
  const started = Date.now();
  const body = await waitFor(
    `crawl ${crawlId} to end`,
    async () => {
      const body = ok(crawlId, await api(`/v2/crawl/${crawlId}?limit=1`));
      return body.status !== 'scraping' && body;
    },
    30 * 60_000,
    500,
  );
  if (body.status !== 'completed' || body.completed !== pages)
    throw new Error(`crawl ${crawlId} ended ${body.status} with ${body.completed} of ${pages} pages`);
  return (Date.now() - started) / 1000;
}

/** The JS SDK's getCrawlStatus with auto-pagination: every `next` link of the crawl. */
async function sdkWalk(base: string, key: string, crawlId: string, pages: number): Promise<{ seconds: number; documents: number }> {
  const sdk = new Firecrawl({ apiKey: key, apiUrl: base });
  const started = Date.now();
  const job = await sdk.getCrawlStatus(crawlId, { autoPaginate: true });
  const seconds = (Date.now() - started) / 1000;
  if (job.data.length !== pages) throw new Error(`the SDK's walk returned ${job.data.length} of ${pages} documents`);
  return { seconds, documents: job.data.length };
}

/** Times another team's crawl of its own site of `pages` pages, from its start to its end. */
async function otherCrawl(service: ScaleService, pages: number, name: string): Promise<number> {
  const site = await startScaleSite(pages);
  try {
    const { api } = await service.team(name, 4);
    const started = Date.now();
    const id = await startCrawl(api, `${site.url}/`, pages);
    await crawlToEnd(api, id, pages);
    return (Date.now() - started) / 1000;
  } finally {
    await site.close();
  }
}

/** The purge of the expired crawl by purgeExpiredWorkflow, as its schedule runs it, beside another team's crawl. */
async function purgeBeside(service: ScaleService, crawlId: string, otherPages: number) {
  const alone = await otherCrawl(service, otherPages, 'other team, alone');
  const rowsBefore = await service.db.jobPage.count({ where: { jobId: crawlId } });
  await service.db.job.update({ where: { id: crawlId }, data: { expiresAt: new Date(Date.now() - 1000) } });
  const started = Date.now();
  const purge = service.temporal.workflow
    .execute('purgeExpiredWorkflow', { taskQueue: SCALE_TASK_QUEUE, workflowId: `scale-purge-${crawlId}`, args: [] })
    .then((result) => ({ result, seconds: (Date.now() - started) / 1000 }));
  const during = await otherCrawl(service, otherPages, 'other team, during the purge');
  const { result, seconds } = await purge;
  const left = await service.db.jobPage.count({ where: { jobId: crawlId } });
  return { rowsBefore, left, seconds, result, alone, during };
}

export async function crawlPart(config: Config, log: Logger, s: CrawlPartSettings): Promise<{ steps: CrawlStep[]; summary: string[]; svg: string }> {
  const site = await startScaleSite(s.pages);
  const service = await startScaleService(config, log);
  try {
    const { key, api } = await service.team('scale crawl', s.concurrency);
    console.log(`part 1: one crawl of ${s.pages} pages (${site.url}), a row every ${s.step} pages, ${s.concurrency} pages at a time, HTTP path`);
    const started = Date.now();
    const crawlId = await startCrawl(api, `${site.url}/`, s.pages);
    const steps = await crawlInSteps(service, api, crawlId, s);
    await crawlToEnd(api, crawlId, s.pages);
    const total = (Date.now() - started) / 1000;
    const topTables = await service.db.$queryRaw<{ name: string; bytes: bigint }[]>`
      SELECT c.relname::text AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 2 DESC LIMIT 6`;
    const walk = await sdkWalk(service.base, key, crawlId, s.pages);
    const purge = await purgeBeside(service, crawlId, s.otherPages);
    const summary = [
      `crawl of ${s.pages} pages: ${total.toFixed(0)} s, ${(s.pages / total).toFixed(1)} pages/s overall`,
      `largest tables: ${topTables.map((t) => `${t.name} ${(Number(t.bytes) / 2 ** 20).toFixed(0)} MB (${(Number(t.bytes) / s.pages).toFixed(0)} B/page)`).join(', ')}`,
      `JS SDK getCrawlStatus, auto-pagination over every next link: ${walk.documents} documents in ${walk.seconds.toFixed(1)} s (${(walk.documents / walk.seconds).toFixed(0)} documents/s)`,
      `purge after retention: ${purge.rowsBefore} pages deleted in ${purge.seconds.toFixed(1)} s (${JSON.stringify(purge.result)}; ${purge.left} left)`,
      `another team's ${s.otherPages}-page crawl: ${purge.alone.toFixed(1)} s alone, ${purge.during.toFixed(1)} s during the purge (x${(purge.during / purge.alone).toFixed(2)})`,
    ];
    for (const line of summary) console.log(line);
    return { steps, summary, svg: crawlChart(`bench:scale part 1: one crawl of ${s.pages} pages`, steps) };
  } finally {
    await service.close();
    await site.close();
  }
}
