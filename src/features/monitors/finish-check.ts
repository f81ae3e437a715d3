// Finishing a check: its pages compared with the previous check's and stored (unique
// per check, target and URL, so a retry adds none twice), its summary and credits,
// and its end.
import { v7 as uuidv7 } from 'uuid';
import { creditsUsedByJob } from '../../platform/usage/credits.ts';
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import type { CheckOutcome, TargetRun } from './definitions.ts';
import { checkPageRows, summarise } from './page-statuses.ts';
import type { SearchTargetResult } from './search-targets.ts';
import { ENDED_CHECK_STATUSES, endCheck } from './check-end.ts';
import { currentPages, previousPages } from './check-pages.ts';
import { checkStatus, searchPages, withMatches, type TargetResult } from './check-results.ts';
import type { MonitorsFeatureSettings } from './config.ts';

export interface FinishCheckInput {
  checkId: string;
  runs: TargetRun[];
  refused?: string;
  /** Leaves the end (the check's status) to endMonitorCheck, after the judge. */
  endLater?: boolean;
}

export async function finishCheck({ db, log }: Pick<ActivityDeps<MonitorsFeatureSettings>, 'db' | 'log'>, input: FinishCheckInput): Promise<CheckOutcome> {
  const check = await db.monitorCheck.findUnique({ where: { id: input.checkId } });
  if (!check) return { checkId: input.checkId, status: 'deleted' };
  if (ENDED_CHECK_STATUSES.includes(check.status)) return { checkId: check.id, status: check.status };
  const targetResults = (check.targetResults ?? []) as unknown as TargetResult[];
  const searched = targetResults.filter((r): r is SearchTargetResult => r.type === 'search');
  // A search that was refused found nothing: its earlier results are not reported removed.
  const unknown = new Set(searched.filter((r) => !r.searchCompleted).map((r) => r.targetId));
  const current = [...(await currentPages({ db }, input.runs)), ...searchPages(searched)];
  const rows = checkPageRows(current, await previousPages({ db }, check.monitorId, check.createdAt, check.id), unknown);
  await db.monitorCheckPage.createMany({
    data: rows.map((r) => ({ id: uuidv7(), checkId: check.id, ...r, diff: (r.diff as object | null) ?? undefined })),
    skipDuplicates: true,
  });
  let actualCredits = 0;
  for (const run of input.runs) if (run.jobId) actualCredits += await creditsUsedByJob(db, run.jobId);
  for (const r of searched) actualCredits += r.searchCredits;
  const jobs = await db.job.findMany({ where: { id: { in: input.runs.flatMap((r) => (r.jobId ? [r.jobId] : [])) } }, select: { status: true } });
  const status = checkStatus(
    jobs.map((j) => j.status),
    unknown.size,
    input.refused,
  );
  await db.monitorCheck.update({
    where: { id: check.id },
    data: {
      summary: summarise(rows) as object,
      actualCredits,
      ...(searched.length > 0 && { targetResults: withMatches(targetResults, rows) as object[] }),
      updatedAt: new Date(),
    },
  });
  if (!input.endLater) await endCheck({ db, log }, check.id, status, input.refused);
  return { checkId: check.id, status };
}
