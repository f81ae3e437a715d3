// Monitors (/v2/monitor): targets checked on a schedule, each monitor a Temporal
// Schedule `monitor-<id>` whose runs are monitorCheckWorkflow; the reconciler keeps
// schedules and rows in step.
import { everyInterval, type Feature } from '../../platform/feature.ts';
import { createMonitorCheckActivities } from './check-activities.ts';
import { createCheckNotificationActivities } from './check-notifications.ts';
import { purgeOldChecks, reconcileMonitors } from './monitor-reconciler.ts';
import { monitorRouteDocs } from './route-docs.ts';
import { monitorRoutes } from './routes.ts';
import { recordingAttempts } from '../../platform/temporal/attempt-record.ts';
import type { MonitorsFeatureSettings } from './config.ts';

export const monitorsFeature: Feature<MonitorsFeatureSettings> = {
  name: 'monitors',
  routes: monitorRoutes,
  routeDocs: monitorRouteDocs,
  activities: (deps) => ({ control: recordingAttempts(deps, createMonitorCheckActivities(deps)), io: createCheckNotificationActivities(deps) }),
  workerServices: (deps) => [
    everyInterval('monitor reconciler', deps.config.monitors.reconcileIntervalMs, deps, async () => {
      await reconcileMonitors(deps);
      await purgeOldChecks(deps);
    }),
  ],
};
