// Run by the `purge-expired` schedule: one activity that deletes expired data.
import { proxyActivities } from '@temporalio/workflow';
import type { PurgeResult, createRetentionActivities } from './activities.ts';

const { purgeExpired } = proxyActivities<ReturnType<typeof createRetentionActivities>>({
  startToCloseTimeout: '10 minutes',
  // Bounded like every retry here: the schedule starts a fresh purge at its next interval anyway.
  retry: { initialInterval: '10s', maximumInterval: '5 minutes', maximumAttempts: 10 },
});

export async function purgeExpiredWorkflow(): Promise<PurgeResult> {
  return purgeExpired();
}
