// The Temporal Schedule of a monitor (`monitor-<id>`): its cron and time zone, paused
// while the monitor is, starting one check workflow per run. Written whenever the
// monitor row changes (routes.ts) and repaired by the reconciler when the two
// disagree (monitor-reconciler.ts). The row's revision rides in the action's memo,
// so a schedule built from an older version of the row is known to be stale.
import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleDescription,
  type ScheduleOptions,
  type ScheduleUpdateOptions,
} from '@temporalio/client';
import { MonitorIdAttribute, TeamIdAttribute } from '../../platform/temporal/search-attribute-keys.ts';
import { cronCadence, parseCron } from './cron.ts';
import { checkWorkflowIdPrefix, monitorScheduleId, type MonitorCheckInput } from './definitions.ts';
import type { MonitorsFeatureSettings } from './config.ts';

export interface ScheduledMonitor {
  id: string;
  teamId: string;
  name: string;
  status: string;
  cron: string;
  timezone: string;
  revision: number;
  taskQueue: string;
}

/** Jitter spreads checks of monitors sharing a cron; at most a tenth of the shortest gap, so a run never drifts into the next. */
function jitterMs(cron: string, config: MonitorsFeatureSettings): number {
  const gapMs = cronCadence(parseCron(cron)).shortestGapMinutes * 60_000;
  return Math.floor(Math.min(config.monitors.jitterSeconds * 1000, gapMs / 10));
}

function scheduleBody(m: ScheduledMonitor, config: MonitorsFeatureSettings): ScheduleUpdateOptions {
  const input: MonitorCheckInput = { monitorId: m.id, trigger: 'scheduled' };
  return {
    spec: { cronExpressions: [m.cron], timezone: m.timezone, jitter: jitterMs(m.cron, config) },
    action: {
      type: 'startWorkflow',
      workflowType: 'monitorCheckWorkflow',
      workflowId: checkWorkflowIdPrefix(m.id),
      taskQueue: m.taskQueue,
      args: [input],
      memo: { teamId: m.teamId, monitorId: m.id, revision: m.revision },
      typedSearchAttributes: [
        { key: TeamIdAttribute, value: m.teamId },
        { key: MonitorIdAttribute, value: m.id },
      ],
      staticSummary: `Check of monitor ${m.name.slice(0, 100)}`,
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: `${config.monitors.catchupWindowMinutes} minutes` },
    state: { paused: m.status === 'paused', note: m.status === 'paused' ? 'Paused through the API (PATCH /v2/monitor/{id} status: paused)' : undefined },
  };
}

/** Creates or replaces the monitor's schedule so it says what the row says; deletes it for a deleted monitor. */
export async function syncMonitorSchedule(client: Client, config: MonitorsFeatureSettings, m: ScheduledMonitor): Promise<void> {
  const scheduleId = monitorScheduleId(m.id);
  if (m.status === 'deleted') {
    await deleteMonitorSchedule(client, m.id);
    return;
  }
  const body = scheduleBody(m, config);
  const options: ScheduleOptions = {
    scheduleId,
    ...body,
    memo: { teamId: m.teamId, monitorId: m.id, name: m.name },
    typedSearchAttributes: [
      { key: TeamIdAttribute, value: m.teamId },
      { key: MonitorIdAttribute, value: m.id },
    ],
  };
  try {
    await client.schedule.create(options);
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(scheduleId).update(() => body);
  }
}

export async function deleteMonitorSchedule(client: Client, monitorId: string): Promise<void> {
  try {
    await client.schedule.getHandle(monitorScheduleId(monitorId)).delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
}

/** The schedule's description, or undefined when it does not exist. */
export async function describeMonitorSchedule(client: Client, monitorId: string): Promise<ScheduleDescription | undefined> {
  try {
    return await client.schedule.getHandle(monitorScheduleId(monitorId)).describe();
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return undefined;
    throw err;
  }
}

/** Why the schedule does not match the row (missing, another revision, paused when it should run or the reverse), or undefined when it does. */
export function scheduleDrift(m: ScheduledMonitor, schedule: ScheduleDescription | undefined): string | undefined {
  if (!schedule) return 'missing';
  const action = schedule.action as { memo?: Record<string, unknown>; taskQueue?: string };
  if (action.memo?.revision !== m.revision) return `built from revision ${String(action.memo?.revision)}, the monitor is at ${m.revision}`;
  if (action.taskQueue !== m.taskQueue) return `starts checks on ${action.taskQueue}`;
  if (schedule.state.paused !== (m.status === 'paused')) return schedule.state.paused ? 'paused' : 'not paused';
  return undefined;
}
