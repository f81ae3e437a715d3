// The Temporal schedule that runs purgeExpiredWorkflow. Workers create it at
// start-up; an existing schedule is updated, so a changed interval or task
// queue takes effect on the next deploy.
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleSpec } from '@temporalio/client';
import type { RetentionFeatureSettings } from './config.ts';

export const PURGE_SCHEDULE_ID = 'purge-expired';

export async function ensurePurgeSchedule(client: Client, config: RetentionFeatureSettings): Promise<void> {
  const spec: ScheduleSpec = { intervals: [{ every: `${config.crawl.purgeIntervalMinutes} minutes` }] };
  const action = {
    type: 'startWorkflow',
    workflowType: 'purgeExpiredWorkflow',
    workflowId: 'purge-expired',
    taskQueue: config.temporal.taskQueue,
    args: [],
  } as const;
  try {
    await client.schedule.create({
      scheduleId: PURGE_SCHEDULE_ID,
      spec,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(PURGE_SCHEDULE_ID).update((prev) => ({ ...prev, spec, action }));
  }
}
