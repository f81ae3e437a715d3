// A check's end: its final status is written once, while the check has none, so
// a retried or repeated end (the workflow's, the judge's, a failed open) finds it set.
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import type { MonitorsFeatureSettings } from './config.ts';

export const ENDED_CHECK_STATUSES = ['completed', 'partial', 'failed'];

export async function failCheck({ db }: Pick<ActivityDeps<MonitorsFeatureSettings>, 'db'>, checkId: string, error: string): Promise<void> {
  await db.monitorCheck.updateMany({
    where: { id: checkId, status: { notIn: ENDED_CHECK_STATUSES } },
    data: { status: 'failed', error, finishedAt: new Date(), updatedAt: new Date() },
  });
}

/** The check's final status, once; a status that is not an end (`deleted`, `running`) writes nothing. */
export async function endCheck(
  { db, log }: Pick<ActivityDeps<MonitorsFeatureSettings>, 'db' | 'log'>,
  checkId: string,
  status: string,
  refused: string | undefined,
): Promise<void> {
  if (!ENDED_CHECK_STATUSES.includes(status)) return;
  const now = new Date();
  const { count } = await db.monitorCheck.updateMany({
    where: { id: checkId, status: { notIn: ENDED_CHECK_STATUSES } },
    data: { status, finishedAt: now, updatedAt: now, ...(refused !== undefined && { error: refused }) },
  });
  if (count > 0) log.info('monitor check ended', { checkId, status });
}
