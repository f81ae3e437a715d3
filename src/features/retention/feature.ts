// Data lifecycle: the `purge-expired` schedule and the activity it runs.
import type { Feature } from '../../platform/feature.ts';
import { createRetentionActivities } from './activities.ts';
import { ensurePurgeSchedule } from './purge-schedule.ts';
import type { RetentionFeatureSettings } from './config.ts';

export const retentionFeature: Feature<RetentionFeatureSettings> = {
  name: 'retention',
  activities: (deps) => ({ control: createRetentionActivities(deps) }),
  onWorkerStart: (deps) => ensurePurgeSchedule(deps.temporal, deps.config),
};
