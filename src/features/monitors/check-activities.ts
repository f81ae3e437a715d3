// The activities of a monitor check (check-workflow.ts). Each is idempotent: the
// check row is found by its workflow id, the target jobs have ids derived from the
// check and the target, the page rows are unique per check, target and URL; so a
// retry after kill -9 of the worker redoes nothing that was done.
import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';
import { Context } from '@temporalio/activity';
import type { FeatureActivityDeps } from '../../platform/feature.ts';
import { DomainError } from '../../platform/domain-error.ts';
import { creditsUsedByJob } from '../../platform/usage/credits.ts';
import { insertJob } from '../../jobs/commit-job.ts';
import { seedRow } from '../../jobs/job-options.ts';
import type { NewFrontierUrl } from '../../jobs/frontier/frontier.ts';
import type { CheckOutcome, CommittedJobs, MonitorCheckInput, OpenedCheck, TargetRun } from './definitions.ts';
import { checkPageRows, emptySummary, summarise, type CurrentPage, type PreviousPage } from './page-statuses.ts';
import { targetJob, type StoredTarget } from './target-jobs.ts';
import { creditsPerCheck } from './monitor-estimate.ts';
import type { CheckPageStatus } from './monitor-request.ts';
import { judgeCheck } from './judge.ts';
import { runSearchTarget, searchRefused, type SearchTarget, type SearchTargetResult } from './search-targets.ts';
import type { MonitorsFeatureSettings } from './config.ts';

/** Namespace of the ids of a check's jobs (uuid v5 of `<checkId>/<targetId>`). */
const CHECK_JOB_NAMESPACE = '6f0e4c52-8a3b-4d1e-9c57-2b8f3e1a7d40';

export const ENDED_CHECK_STATUSES = ['completed', 'partial', 'failed'];

export function createMonitorCheckActivities({ db, config, log, tools }: FeatureActivityDeps<MonitorsFeatureSettings>) {
  const notifyTaskQueue = config.temporal.webhookTaskQueue;
  async function failCheck(checkId: string, error: string): Promise<void> {
    await db.monitorCheck.updateMany({
      where: { id: checkId, status: { notIn: ENDED_CHECK_STATUSES } },
      data: { status: 'failed', error, finishedAt: new Date(), updatedAt: new Date() },
    });
  }

  /** The check's final status, once: a retried or repeated end finds it set. */
  async function endCheck(checkId: string, status: string, refused: string | undefined): Promise<void> {
    if (!ENDED_CHECK_STATUSES.includes(status)) return;
    const now = new Date();
    const { count } = await db.monitorCheck.updateMany({
      where: { id: checkId, status: { notIn: ENDED_CHECK_STATUSES } },
      data: { status, finishedAt: now, updatedAt: now, ...(refused !== undefined && { error: refused }) },
    });
    if (count > 0) log.info('monitor check ended', { checkId, status });
  }

  /** The pages the check's jobs stored, with their change-tracking result (not their content). */
  async function currentPages(runs: TargetRun[]): Promise<CurrentPage[]> {
    const pages: CurrentPage[] = [];
    for (const run of runs) {
      if (!run.jobId) continue;
      const rows = await db.$queryRaw<
        { url_key: string; url: string; success: boolean; status_code: number | null; error: string | null; ct: Record<string, unknown> | null }[]
      >`SELECT url_key, url, success, status_code, error, document->'changeTracking' AS ct FROM crawl_page WHERE crawl_id = ${run.jobId}::uuid ORDER BY id`;
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
      // A job that ended without a page (its start URL never answered) is the target's error.
      if (rows.length === 0) {
        const job = await db.crawl.findUnique({ where: { id: run.jobId }, select: { url: true, status: true, error: true } });
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

  /** The result URLs of the check's search targets, as pages of those targets. */
  function searchPages(results: SearchTargetResult[]): CurrentPage[] {
    return results.flatMap((r) =>
      r.resultUrls.map((url) => ({ targetId: r.targetId, urlKey: url, url, success: true, statusCode: null, error: null, searchResult: true })),
    );
  }

  /** The pages of the monitor's last check that ran, which this one is compared with. */
  async function previousPages(monitorId: string, before: Date, checkId: string): Promise<PreviousPage[]> {
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

  return {
    /** Finds or makes the check's row and marks it running; `done` when there is nothing to run. */
    async openMonitorCheck(input: MonitorCheckInput & { workflowId: string; scheduledFor: string }): Promise<OpenedCheck> {
      const monitor = await db.monitor.findUnique({ where: { id: input.monitorId } });
      const now = new Date();
      let checkId = input.checkId;
      if (!checkId) {
        // A schedule left behind by a deleted monitor starts nothing; the reconciler deletes it.
        if (!monitor || monitor.status === 'deleted') return { checkId: '', done: true, notifyTaskQueue };
        const check = await db.monitorCheck.upsert({
          where: { workflowId: input.workflowId },
          create: {
            id: uuidv7(),
            monitorId: monitor.id,
            workflowId: input.workflowId,
            status: 'running',
            trigger: input.trigger,
            scheduledFor: new Date(input.scheduledFor),
            startedAt: now,
            summary: emptySummary() as object,
            estimatedCredits: creditsPerCheck(monitor.targets as unknown[], monitor.id),
          },
          update: {},
        });
        checkId = check.id;
      }
      const check = await db.monitorCheck.findUnique({ where: { id: checkId } });
      if (!check || ENDED_CHECK_STATUSES.includes(check.status)) return { checkId, done: true, notifyTaskQueue };
      if (!monitor || monitor.status === 'deleted') {
        await failCheck(checkId, 'The monitor was deleted before the check ran');
        return { checkId, done: true, notifyTaskQueue };
      }
      await db.monitorCheck.updateMany({ where: { id: checkId, status: 'queued' }, data: { status: 'running', startedAt: now, updatedAt: now } });
      await db.monitor.update({ where: { id: monitor.id }, data: { lastRunAt: check.startedAt ?? now } });
      return { checkId, notifyTaskQueue };
    },

    /**
     * Commits a job of the engine per scrape and crawl target (fair share, credits and limits apply
     * to them as to any job); the workflow starts them. A job the team cannot have (no credits, too
     * many crawls) stops the commits there and is the check's error.
     */
    async commitMonitorCheckJobs(input: { checkId: string }): Promise<CommittedJobs> {
      const check = await db.monitorCheck.findUnique({ where: { id: input.checkId }, include: { monitor: { include: { team: true } } } });
      // The monitor was deleted with its checks: nothing to run.
      if (!check) return { runs: [] };
      const { monitor } = check;
      const runs: TargetRun[] = [];
      let refused: string | undefined;
      for (const target of monitor.targets as StoredTarget[]) {
        const job = targetJob(target, monitor.id);
        if (!job) {
          runs.push({ targetId: target.id, type: target.type });
          continue;
        }
        const jobId = uuidv5(`${check.id}/${target.id}`, CHECK_JOB_NAMESPACE);
        const seed = job.urls?.flatMap((url): NewFrontierUrl[] => {
          const seeded = seedRow(url, config);
          return 'row' in seeded ? [seeded.row] : [];
        });
        try {
          await insertJob({ db, config }, monitor.team, monitor.apiKeyId, { id: jobId, kind: job.kind, url: job.url, options: job.options, seed }, true);
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          refused = err.message;
          break;
        }
        runs.push({ targetId: target.id, type: target.type, jobId, teamId: monitor.teamId, url: job.url });
      }
      await db.monitorCheck.update({
        where: { id: check.id },
        data: {
          targetResults: runs.map((r) =>
            r.type === 'crawl'
              ? { targetId: r.targetId, type: r.type, crawlId: r.jobId }
              : r.type === 'scrape'
                ? { targetId: r.targetId, type: r.type, expectedJobs: [r.jobId] }
                : ({
                    targetId: r.targetId,
                    type: 'search',
                    searchCompleted: false,
                    resultCount: 0,
                    searchCredits: 0,
                    judgeDegraded: false,
                    degradedReason: null,
                    resultUrls: [],
                  } satisfies SearchTargetResult),
          ) as object[],
          updatedAt: new Date(),
        },
      });
      return { runs, ...(refused !== undefined && { refused }) };
    },

    /**
     * Runs the check's search targets through the search tool, charged to the team as searches,
     * and records each target's results on the check. A retry skips targets already recorded.
     */
    async searchMonitorTargets(input: { checkId: string }): Promise<void> {
      const check = await db.monitorCheck.findUnique({ where: { id: input.checkId }, include: { monitor: true } });
      if (!check || ENDED_CHECK_STATUSES.includes(check.status)) return;
      const search = tools.get('search');
      if (!search) throw new Error('no search tool is published (the search feature is not registered)');
      const targets = (check.monitor.targets as StoredTarget[]).filter((t): t is SearchTarget => t.type === 'search');
      const ctx = Context.current();
      for (const target of targets) {
        const results = (check.targetResults ?? []) as unknown as SearchTargetResult[];
        if (results.some((r) => r.targetId === target.id && (r.searchCompleted || r.degradedReason !== null))) continue;
        const { apiKeyId } = check.monitor;
        const result = apiKeyId
          ? await runSearchTarget(
              search,
              target,
              {
                teamId: check.monitor.teamId,
                apiKeyId,
                zeroDataRetention: false,
                signal: ctx.cancellationSignal,
                heartbeat: (detail) => ctx.heartbeat(detail),
              },
              // A retry repeats the target's searches: each charged once.
              (query) => uuidv5(`${check.id}/search/${target.id}/${query}`, CHECK_JOB_NAMESPACE),
            )
          : searchRefused(target, 'The monitor has no API key to charge its searches to (its key was deleted); create the monitor again');
        const merged = [...results.filter((r) => r.targetId !== target.id), result];
        check.targetResults = merged as object[];
        await db.monitorCheck.update({ where: { id: check.id }, data: { targetResults: merged as object[], updatedAt: new Date() } });
      }
    },

    /**
     * Compares the check's pages with the previous check's, stores them with the summary and ends
     * the check; with `endLater`, leaves the end (its status) to endMonitorCheck, after the judge.
     */
    async finishMonitorCheck(input: { checkId: string; runs: TargetRun[]; refused?: string; endLater?: boolean }): Promise<CheckOutcome> {
      const check = await db.monitorCheck.findUnique({ where: { id: input.checkId } });
      if (!check) return { checkId: input.checkId, status: 'deleted' };
      if (ENDED_CHECK_STATUSES.includes(check.status)) return { checkId: check.id, status: check.status };
      const targetResults = (check.targetResults ?? []) as unknown as (SearchTargetResult | { type: 'scrape' | 'crawl' })[];
      const searched = targetResults.filter((r): r is SearchTargetResult => r.type === 'search');
      // A search that was refused found nothing: its earlier results are not reported removed.
      const unknown = new Set(searched.filter((r) => !r.searchCompleted).map((r) => r.targetId));
      const current = [...(await currentPages(input.runs)), ...searchPages(searched)];
      const rows = checkPageRows(current, await previousPages(check.monitorId, check.createdAt, check.id), unknown);
      await db.monitorCheckPage.createMany({
        data: rows.map((r) => ({ id: uuidv7(), checkId: check.id, ...r, diff: (r.diff as object | null) ?? undefined })),
        skipDuplicates: true,
      });
      let actualCredits = 0;
      for (const run of input.runs) if (run.jobId) actualCredits += await creditsUsedByJob(db, run.jobId);
      for (const r of searched) actualCredits += r.searchCredits;
      const jobs = await db.crawl.findMany({ where: { id: { in: input.runs.flatMap((r) => (r.jobId ? [r.jobId] : [])) } }, select: { status: true } });
      const incomplete = jobs.some((j) => j.status !== 'completed') || unknown.size > 0;
      const status = input.refused !== undefined ? 'failed' : incomplete ? 'partial' : 'completed';
      const newResults = (targetId: string) => rows.filter((r) => r.targetId === targetId && r.status === 'new').length;
      const summary = summarise(rows);
      await db.monitorCheck.update({
        where: { id: check.id },
        data: {
          summary: summary as object,
          actualCredits,
          ...(searched.length > 0 && {
            targetResults: targetResults.map((r) => (r.type === 'search' ? { ...r, matches: newResults(r.targetId) } : r)) as object[],
          }),
          updatedAt: new Date(),
        },
      });
      if (!input.endLater) await endCheck(check.id, status, input.refused);
      return { checkId: check.id, status };
    },

    /** Gives the check its final status (the one finishMonitorCheck answered), unless it has one. */
    async endMonitorCheck(input: { checkId: string; status: string; refused?: string }): Promise<void> {
      await endCheck(input.checkId, input.status, input.refused);
    },

    /** With a goal, judgeEnabled and a model configured: whether each changed page changed meaningfully. */
    async judgeMonitorCheck(input: { checkId: string }): Promise<number> {
      return judgeCheck({ db, config, log }, input.checkId);
    },
  };
}

export type MonitorCheckActivities = ReturnType<typeof createMonitorCheckActivities>;
