// Keeps the monitors of this worker's task queue and their Temporal Schedules in
// step, whatever happened between them (a gateway that died after writing the row,
// Temporal unreachable, a schedule deleted by hand): a missing or stale schedule is
// rebuilt from the row; a pause or resume made in the Temporal UI is taken into the
// row; a deleted monitor's schedule is removed and then its row. It also starts
// manual checks whose start was lost, and deletes checks past their monitor's retention.
import type { WorkerServiceDeps } from '../../platform/feature.ts';
import { deleteMonitorSchedule, describeMonitorSchedule, scheduleDrift, syncMonitorSchedule } from './monitor-schedule.ts';
import { startManualCheck } from './monitor-store.ts';
import type { MonitorsFeatureSettings } from './config.ts';

/** A row younger than this may still be being written to Temporal by its gateway. */
const GRACE_MS = 5_000;

export interface ReconcileResult {
  repaired: number;
  deleted: number;
  started: number;
}

export async function reconcileMonitors(deps: WorkerServiceDeps<MonitorsFeatureSettings>): Promise<ReconcileResult> {
  const { db, temporal, config, log } = deps;
  const settled = new Date(Date.now() - GRACE_MS);
  const result: ReconcileResult = { repaired: 0, deleted: 0, started: 0 };
  const monitors = await db.monitor.findMany({
    where: { taskQueue: config.temporal.taskQueue, updatedAt: { lt: settled } },
    take: 1000,
    orderBy: { updatedAt: 'asc' },
  });
  for (const monitor of monitors) {
    try {
      if (monitor.status === 'deleted') {
        await deleteMonitorSchedule(temporal, monitor.id);
        await db.monitor.delete({ where: { id: monitor.id } });
        result.deleted++;
        continue;
      }
      const schedule = await describeMonitorSchedule(temporal, monitor.id);
      const drift = scheduleDrift(monitor, schedule);
      if (!drift) continue;
      if (schedule && (drift === 'paused' || drift === 'not paused')) {
        // The revision matches: the operator paused or resumed it in the Temporal UI, which the API now reports.
        await db.monitor.update({ where: { id: monitor.id, revision: monitor.revision }, data: { status: schedule.state.paused ? 'paused' : 'active' } });
        log.info("monitor takes its schedule's state", { monitorId: monitor.id, paused: schedule.state.paused });
        continue;
      }
      await syncMonitorSchedule(temporal, config, monitor);
      result.repaired++;
      log.info('monitor schedule repaired by the reconciler', { monitorId: monitor.id, drift });
    } catch (err) {
      log.warn('monitor not reconciled; will retry', { monitorId: monitor.id, error: (err as Error).message });
    }
  }
  const lost = await db.monitorCheck.findMany({
    where: { status: 'queued', trigger: 'manual', createdAt: { lt: settled }, monitor: { taskQueue: config.temporal.taskQueue } },
    include: { monitor: { select: { teamId: true, taskQueue: true } } },
    take: 100,
  });
  for (const check of lost) {
    try {
      await startManualCheck(deps, { id: check.id, monitorId: check.monitorId, teamId: check.monitor.teamId, taskQueue: check.monitor.taskQueue });
      result.started++;
    } catch (err) {
      log.warn('monitor check not started; will retry', { checkId: check.id, error: (err as Error).message });
    }
  }
  return result;
}

/** Checks older than their monitor's retentionDays, with their pages. */
export async function purgeOldChecks(deps: Pick<WorkerServiceDeps<MonitorsFeatureSettings>, 'db' | 'config'>): Promise<number> {
  return deps.db.$executeRaw`
    DELETE FROM monitor_check c USING monitor m
    WHERE c.monitor_id = m.id AND m.task_queue = ${deps.config.temporal.taskQueue}
      AND c.created_at < now() - make_interval(days => m.retention_days)`;
}
