// The pages a check compares: those its jobs stored now (with their change-tracking
// result, not their content) and those of the monitor's last check that ran.
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import type { TargetRun } from './definitions.ts';
import type { CurrentPage, PreviousPage } from './page-statuses.ts';
import type { CheckPageStatus } from './monitor-request.ts';
import type { MonitorsFeatureSettings } from './config.ts';

interface StoredPage {
  url_key: string;
  url: string;
  success: boolean;
  status_code: number | null;
  error: string | null;
  ct: Record<string, unknown> | null;
}

/** The pages the check's jobs stored; a job that ended without a page (its start URL never answered) is the target's error. */
export async function currentPages({ db }: Pick<ActivityDeps<MonitorsFeatureSettings>, 'db'>, runs: TargetRun[]): Promise<CurrentPage[]> {
  const pages: CurrentPage[] = [];
  for (const run of runs) {
    if (!run.jobId) continue;
    const rows = await db.$queryRaw<
      StoredPage[]
    >`SELECT url_key, url, success, status_code, error, document->'changeTracking' AS ct FROM job_page WHERE job_id = ${run.jobId}::uuid ORDER BY id`;
    for (const r of rows) {
      pages.push({
        targetId: run.targetId,
        urlKey: r.url_key,
        url: r.url,
        jobId: run.jobId,
        success: r.success,
        statusCode: r.status_code,
        error: r.error,
        changeStatus: typeof r.ct?.changeStatus === 'string' ? r.ct.changeStatus : undefined,
        diff: r.ct?.diff,
        jsonDiff: r.ct?.json,
      });
    }
    if (rows.length === 0) {
      const job = await db.job.findUnique({ where: { id: run.jobId }, select: { url: true, status: true, error: true } });
      if (job && job.status === 'failed') {
        pages.push({
          targetId: run.targetId,
          urlKey: job.url,
          url: job.url,
          jobId: run.jobId,
          success: false,
          statusCode: null,
          error: job.error ?? 'The job failed',
        });
      }
    }
  }
  return pages;
}

/** The pages of the monitor's last check that ran before this one, which this one is compared with. */
export async function previousPages(
  { db }: Pick<ActivityDeps<MonitorsFeatureSettings>, 'db'>,
  monitorId: string,
  before: Date,
  checkId: string,
): Promise<PreviousPage[]> {
  const previous = await db.monitorCheck.findFirst({
    where: { monitorId, id: { not: checkId }, status: { in: ['completed', 'partial'] }, createdAt: { lte: before } },
    orderBy: { createdAt: 'desc' },
    select: { id: true },
  });
  if (!previous) return [];
  const rows = await db.monitorCheckPage.findMany({
    where: { checkId: previous.id },
    select: { targetId: true, urlKey: true, url: true, status: true, currentScrapeId: true },
  });
  return rows.map((r) => ({ ...r, status: r.status as CheckPageStatus }));
}
