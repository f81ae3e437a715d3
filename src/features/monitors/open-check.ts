// Opening a check: its row is found by the workflow id (or was made by POST
// /v2/monitor/{id}/run) and marked running, or the check is done before it starts.
import { v7 as uuidv7 } from 'uuid';
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import type { MonitorCheckInput, OpenedCheck } from './definitions.ts';
import { emptySummary } from './page-statuses.ts';
import { creditsPerCheck } from './monitor-estimate.ts';
import { ENDED_CHECK_STATUSES, failCheck } from './check-end.ts';
import type { MonitorsFeatureSettings } from './config.ts';

export type OpenCheckInput = MonitorCheckInput & { workflowId: string; scheduledFor: string };

/** Finds or makes the check's row and marks it running; `done` when there is nothing to run. */
export async function openCheck(
  { db }: Pick<ActivityDeps<MonitorsFeatureSettings>, 'db'>,
  notifyTaskQueue: string,
  input: OpenCheckInput,
): Promise<OpenedCheck> {
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
    await failCheck({ db }, checkId, 'The monitor was deleted before the check ran');
    return { checkId, done: true, notifyTaskQueue };
  }
  await db.monitorCheck.updateMany({ where: { id: checkId, status: 'queued' }, data: { status: 'running', startedAt: now, updatedAt: now } });
  await db.monitor.update({ where: { id: monitor.id }, data: { lastRunAt: check.startedAt ?? now } });
  return { checkId, notifyTaskQueue };
}
