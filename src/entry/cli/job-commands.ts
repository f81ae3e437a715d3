// Jobs of every team: those of the crawl pipeline (crawls, batch scrapes, single
// scrapes) and maps. List, inspect, cancel; cancelling goes through the engine's
// own cancelCrawl, as DELETE /v2/crawl/{id} and DELETE /v2/batch/scrape/{id} do.
// Searches keep no job row, so they are not listed.
import type { Job, MapJob } from '../../generated/prisma/client.ts';
import { mapWorkflowId } from '../../features/map/definitions.ts';
import { jobDetails } from '../../jobs/job-details.ts';
import { jobWorkflowId, progressQuery, type JobRunStatus } from '../../jobs/definitions.ts';
import { cancelCrawl } from '../../jobs/job-admin.ts';
import { JOB_KINDS } from '../../jobs/job-kind.ts';
import { crawlCounts } from '../../jobs/job-status.ts';
import { DomainError } from '../../platform/domain-error.ts';
import type { Db } from '../../platform/db/prisma.ts';
import { creditsUsedByJob } from '../../platform/usage/credits.ts';
import { findTeam, NotFoundError } from '../../platform/teams/teams.ts';
import { oneOf, positiveInt, uuidArg, type CliContext, type Command } from './command.ts';
import { describeWorkflow, queryWorkflow } from './temporal-access.ts';
import { age, table } from './table.ts';

const STATUSES: readonly JobRunStatus[] = ['scraping', 'completed', 'failed', 'cancelled'];
const KINDS = [...JOB_KINDS, 'map'] as const;
/** A map row says running where a crawl says scraping; a map is never cancelled. */
const MAP_STATUS: Record<JobRunStatus, string | undefined> = { scraping: 'running', completed: 'completed', failed: 'failed', cancelled: undefined };
const DEFAULT_LIST_LIMIT = 50;

type Named<T> = T & { team: { name: string } };

async function jobById(db: Db, id: string): Promise<{ crawl: Named<Job> } | { map: Named<MapJob> }> {
  const where = { where: { id: uuidArg(id, 'job') }, include: { team: { select: { name: true } } } };
  const crawl = await db.job.findUnique(where);
  if (crawl) return { crawl };
  const map = await db.mapJob.findUnique(where);
  if (map) return { map };
  throw new NotFoundError(`no job ${id}`);
}

/** Pages stored, pages in the total GET /v2/crawl/{id} reports, and credits, of each listed job at once. */
async function listCounts(db: Db, ids: string[]) {
  const [stored, total, credits] = await Promise.all([
    db.jobPage.groupBy({ by: ['jobId'], where: { jobId: { in: ids }, success: true }, _count: { _all: true } }),
    db.jobUrl.groupBy({ by: ['jobId'], where: { jobId: { in: ids }, state: { in: ['queued', 'claimed', 'done'] } }, _count: { _all: true } }),
    db.usageEntry.groupBy({ by: ['jobId'], where: { jobId: { in: ids } }, _sum: { credits: true } }),
  ]);
  const of = <T extends { _count: { _all: number } }>(rows: T[], key: (r: T) => string) => new Map(rows.map((r) => [key(r), r._count._all]));
  return {
    stored: of(stored, (r) => r.jobId),
    total: of(total, (r) => r.jobId),
    credits: new Map(credits.map((r) => [r.jobId, r._sum.credits ?? 0])),
  };
}

interface ListedJob {
  id: string;
  kind: string;
  teamId: string;
  team: string;
  status: string;
  url: string;
  /** Null for a map: it stores links, not pages. */
  pagesStored: number | null;
  pagesTotal: number | null;
  credits: number;
  createdAt: string;
  completedAt: string | null;
}

const jobsLs: Command = {
  summary: 'List jobs (crawls, batch scrapes, scrapes, maps) of every team or one, newest first.',
  usage: `jobs ls [--team <team-id-or-name>] [--status ${STATUSES.join('|')}] [--kind ${KINDS.join('|')}] [--limit <n>] [--json]`,
  options: { team: { type: 'string' }, status: { type: 'string' }, kind: { type: 'string' }, limit: { type: 'string' } },
  async run({ db }, v) {
    const status = oneOf(v.status, 'status', STATUSES);
    const kind = oneOf(v.kind, 'kind', KINDS);
    const limit = positiveInt(v.limit, 'limit') ?? DEFAULT_LIST_LIMIT;
    const team = v.team === undefined ? undefined : await findTeam(db, String(v.team));
    const teamWhere = team && { teamId: team.id };
    const include = { team: { select: { name: true } } };
    const mapStatus = status && MAP_STATUS[status];
    const [crawls, maps] = await Promise.all([
      kind === 'map'
        ? []
        : db.job.findMany({
            where: { ...teamWhere, ...(status && { status }), ...(kind && { kind }) },
            orderBy: { createdAt: 'desc' },
            take: limit,
            include,
          }),
      (kind !== undefined && kind !== 'map') || (status && !mapStatus)
        ? []
        : db.mapJob.findMany({ where: { ...teamWhere, ...(mapStatus && { status: mapStatus }) }, orderBy: { createdAt: 'desc' }, take: limit, include }),
    ]);
    const counts = await listCounts(
      db,
      [...crawls, ...maps].map((r) => r.id),
    );
    const rows = [
      ...crawls.map((r) => ({ row: r, kind: r.kind, pagesStored: counts.stored.get(r.id) ?? 0, pagesTotal: counts.total.get(r.id) ?? 0 })),
      ...maps.map((r) => ({ row: r, kind: 'map', pagesStored: null, pagesTotal: null })),
    ]
      .sort((a, b) => b.row.createdAt.getTime() - a.row.createdAt.getTime())
      .slice(0, limit);
    const jobs: ListedJob[] = rows.map(({ row: r, kind, pagesStored, pagesTotal }) => ({
      id: r.id,
      kind,
      teamId: r.teamId,
      team: r.team.name,
      status: r.status,
      url: r.url,
      pagesStored,
      pagesTotal,
      credits: counts.credits.get(r.id) ?? 0,
      createdAt: r.createdAt.toISOString(),
      completedAt: r.completedAt?.toISOString() ?? null,
    }));
    if (jobs.length === 0) return { data: { jobs }, text: ['no jobs'] };
    const now = new Date();
    return {
      data: { jobs },
      text: table(
        ['ID', 'KIND', 'TEAM', 'STATUS', 'PAGES', 'CREDITS', 'CREATED', 'AGE'],
        jobs.map((j, i) => [
          j.id,
          j.kind,
          j.team,
          j.status,
          j.pagesStored === null ? '-' : `${j.pagesStored}/${j.pagesTotal}`,
          j.credits,
          j.createdAt,
          age(rows[i].row.createdAt, now),
        ]),
        ['PAGES', 'CREDITS'],
      ),
    };
  },
};

const line = (label: string, value: unknown) => `${`${label}:`.padEnd(14)}${value}`;

/** What `jobs show` says of any job: who, what, and when. */
function jobHeader(job: Named<Job | MapJob>, kind: string) {
  const data = {
    id: job.id,
    kind,
    teamId: job.teamId,
    team: job.team.name,
    status: job.status,
    url: job.url,
    error: job.error,
    createdAt: job.createdAt.toISOString(),
    completedAt: job.completedAt?.toISOString() ?? null,
  };
  const text = [
    line('job', `${job.id} (${kind})`),
    line('team', `${job.team.name} (${job.teamId})`),
    line('url', job.url),
    line('status', job.status + (job.error ? ` (${job.error})` : '')),
    line('created', `${data.createdAt} (${age(job.createdAt)} ago)`),
    line('completed', data.completedAt ?? '-'),
  ];
  return { data, text };
}

async function showCrawl(ctx: CliContext, job: Named<Job>) {
  const { db } = ctx;
  const [{ completed, total }, queued, failed, credits, webhookBacklog] = await Promise.all([
    crawlCounts(db, job.id),
    db.jobUrl.count({ where: { jobId: job.id, state: { in: ['queued', 'claimed'] } } }),
    db.jobPage.count({ where: { jobId: job.id, success: false } }),
    creditsUsedByJob(db, job.id),
    db.webhookEvent.count({ where: { crawlId: job.id, state: 'pending' } }),
  ]);
  const workflowId = jobWorkflowId(job);
  // Answered by the gateway from the page cache: there is no workflow to describe.
  const workflow = job.answeredFromCacheAt
    ? { id: null, status: null, note: `none: answered from the page cache by the gateway at ${job.answeredFromCacheAt.toISOString()}` }
    : { id: workflowId, ...(await describeWorkflow(ctx, workflowId)) };
  // What the running workflow is doing now, as its current details in the Temporal UI say it.
  const progress = workflow.status === 'RUNNING' ? await queryWorkflow(ctx, workflowId, progressQuery) : undefined;
  const header = jobHeader(job, job.kind);
  const data = {
    ...header.data,
    expiresAt: job.expiresAt?.toISOString() ?? null,
    credits,
    pages: { stored: completed, total, queued, failed },
    workflow,
    ...(progress && { progress: 'answer' in progress ? progress.answer : { note: progress.note } }),
    webhookBacklog,
  };
  return {
    data,
    text: [
      ...header.text,
      line('expires', data.expiresAt ?? '-'),
      line('pages', `${completed} stored of ${total}, ${queued} queued, ${failed} failed`),
      line('credits', credits),
      line('workflow', workflow.id === null ? workflow.note : `${workflowId}: ${workflow.status ?? `unknown (${workflow.note})`}`),
      ...(progress ? [line('now', 'answer' in progress ? jobDetails(progress.answer) : progress.note)] : []),
      line('webhooks', `${webhookBacklog} pending deliveries`),
    ],
  };
}

async function showMap(ctx: CliContext, job: Named<MapJob>) {
  const credits = await creditsUsedByJob(ctx.db, job.id);
  const workflowId = mapWorkflowId(job.id);
  const workflow = { id: workflowId, ...(await describeWorkflow(ctx, workflowId)) };
  const links = Array.isArray(job.links) ? job.links.length : null;
  const header = jobHeader(job, 'map');
  const data = {
    ...header.data,
    credits,
    links,
    workflow,
  };
  return {
    data,
    text: [
      ...header.text,
      line('links', links ?? '-'),
      line('credits', credits),
      line('workflow', workflow.id === null ? workflow.note : `${workflowId}: ${workflow.status ?? `unknown (${workflow.note})`}`),
    ],
  };
}

const jobsShow: Command = {
  summary: "Show one job: its row, page counts, credits, its Temporal workflow's status and its webhook backlog.",
  usage: 'jobs show <job-id> [--json]',
  options: {},
  positionals: 1,
  async run(ctx, _v, [id]) {
    const job = await jobById(ctx.db, id);
    return 'crawl' in job ? showCrawl(ctx, job.crawl) : showMap(ctx, job.map);
  },
};

const jobsCancel: Command = {
  summary: 'Cancel a running crawl or batch as DELETE /v2/crawl/{id} does (needs Temporal); a finished job is an error.',
  usage: 'jobs cancel <job-id> [--json]',
  options: {},
  positionals: 1,
  async run(ctx, _v, [id]) {
    const found = await jobById(ctx.db, id);
    if (!('crawl' in found)) throw new DomainError('conflict', 'A map is not cancelled: it ends with the request that runs it');
    const job = found.crawl;
    // The API answers a repeated DELETE with success; an operator is told the job was not running.
    if (job.status === 'cancelled') throw new DomainError('conflict', `Job ${job.id} is already cancelled`);
    await cancelCrawl(ctx.db, await ctx.temporal(), job);
    return { data: { id: job.id, status: 'cancelled' }, text: [`job ${job.id} (${job.kind} of ${job.team.name}) cancelled`] };
  },
};

export const JOB_COMMANDS: Record<string, Command> = { 'jobs ls': jobsLs, 'jobs show': jobsShow, 'jobs cancel': jobsCancel };
