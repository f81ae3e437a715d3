// Monitors as the routes change them: the row first (checked against the team's
// caps under its lock), then its Temporal Schedule. A schedule write that fails is
// logged and left to the reconciler, which builds the schedule from the row; the
// row is what the API answers from.
import type { Client } from '@temporalio/client';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../platform/db/prisma.ts';
import { DomainError } from '../../platform/domain-error.ts';
import type { Logger } from '../../platform/log.ts';
import { Prisma, type Monitor, type Team } from '../../generated/prisma/client.ts';
import { checkAddress, checkSelectors, checkTeamPermissions } from '../../jobs/commit-job.ts';
import { checkModelFormats } from '../../jobs/job-model.ts';
import { MonitorIdAttribute, TeamIdAttribute } from '../../platform/temporal/search-attribute-keys.ts';
import type { CreateMonitorRequest, UpdateMonitorRequest } from './monitor-request.ts';
import { normaliseSchedule } from './monitor-schedule-spec.ts';
import { creditsPerCheck, estimatedCreditsPerMonth } from './monitor-estimate.ts';
import { targetJob, type StoredTarget } from './target-jobs.ts';
import { deleteMonitorSchedule, describeMonitorSchedule, syncMonitorSchedule } from './monitor-schedule.ts';
import { manualCheckWorkflowId, type MonitorCheckInput } from './definitions.ts';
import { emptySummary, type MonitorSummary } from './page-statuses.ts';
import { checkAnswer, monitorAnswer } from './monitor-answers.ts';
import type { monitorCheckWorkflow } from './check-workflow.ts';
import { ENDED_CHECK_STATUSES } from './check-end.ts';
import type { MonitorsFeatureSettings } from './config.ts';

export type MonitorDeps = { db: Db; temporal: Client; config: MonitorsFeatureSettings; log: Logger };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function monitorNotFound(): DomainError {
  return new DomainError('not-found', 'Monitor not found');
}

/** The team's monitor (not deleted); the same 404 for unknown, foreign and malformed ids. */
export async function ownMonitor(db: Db, id: string, teamId: string): Promise<Monitor> {
  if (!UUID.test(id)) throw monitorNotFound();
  const monitor = await db.monitor.findFirst({ where: { id: id.toLowerCase(), teamId, status: { not: 'deleted' } } });
  if (!monitor) throw monitorNotFound();
  return monitor;
}

/** Targets with their ids, each checked as the job it will run: permissions, selectors, model formats, addresses. */
async function checkedTargets(
  deps: MonitorDeps,
  team: Team,
  targets: CreateMonitorRequest['targets'],
  raw: unknown[],
  monitorId: string,
): Promise<StoredTarget[]> {
  const stored: StoredTarget[] = [];
  for (const [i, target] of targets.entries()) {
    const withId = { ...(raw[i] as object), id: target.id ?? `target-${i + 1}` } as StoredTarget;
    const job = targetJob(withId, monitorId);
    if (job) {
      checkTeamPermissions(team, job.options);
      checkSelectors(job.options.scrapeOptions, `targets[${i}].scrapeOptions.`);
      checkModelFormats(job.options.scrapeOptions, false, deps.config.llm);
      for (const url of job.urls ?? [job.url]) await checkAddress(url, deps.config, `Refused to monitor ${url}`);
    }
    stored.push(withId);
  }
  return stored;
}

function retention(days: number | undefined, config: MonitorsFeatureSettings): number {
  const value = days ?? config.monitors.defaultRetentionDays;
  if (value > config.monitors.maxRetentionDays) {
    throw new DomainError('invalid', `retentionDays may be at most ${config.monitors.maxRetentionDays} on this server (MONITOR_MAX_RETENTION_DAYS)`);
  }
  return value;
}

async function writeSchedule(deps: MonitorDeps, monitor: Monitor): Promise<void> {
  try {
    await syncMonitorSchedule(deps.temporal, deps.config, monitor);
  } catch (err) {
    deps.log.warn('monitor schedule not written; the reconciler will', { monitorId: monitor.id, error: (err as Error).message });
  }
}

export async function createMonitor(deps: MonitorDeps, team: Team, apiKeyId: string, req: CreateMonitorRequest, rawTargets: unknown[]): Promise<Monitor> {
  const id = uuidv7();
  const schedule = normaliseSchedule(req.schedule, deps.config.monitors.minIntervalMinutes);
  const targets = await checkedTargets(deps, team, req.targets, rawTargets, id);
  if (req.webhook) await checkAddress(req.webhook.url, deps.config, `Refused to deliver webhooks to ${req.webhook.url}`);
  const retentionDays = retention(req.retentionDays, deps.config);
  const monitor = await deps.db.$transaction(async (tx) => {
    // The team's row lock orders concurrent creations, so the cap holds.
    await tx.$queryRaw`SELECT id FROM team WHERE id = ${team.id}::uuid FOR UPDATE`;
    const count = await tx.monitor.count({ where: { teamId: team.id, status: { not: 'deleted' } } });
    if (count >= deps.config.monitors.maxPerTeam) {
      throw new DomainError(
        'limit-reached',
        `The team has ${count} monitors, the most this server allows (MONITOR_MAX_PER_TEAM=${deps.config.monitors.maxPerTeam}); delete one first`,
        'MONITOR_LIMIT',
      );
    }
    return tx.monitor.create({
      data: {
        id,
        teamId: team.id,
        apiKeyId,
        name: req.name,
        cron: schedule.cron,
        scheduleText: schedule.text ?? null,
        timezone: schedule.timezone,
        targets: targets as object[],
        webhook: (req.webhook as object | undefined) ?? undefined,
        notification: (req.notification as object | undefined) ?? undefined,
        retentionDays,
        goal: req.goal ?? null,
        judgeEnabled: req.judgeEnabled ?? false,
        estimatedCreditsPerMonth: estimatedCreditsPerMonth(schedule.cadence.runsPerYear, creditsPerCheck(targets, id)),
        taskQueue: deps.config.temporal.taskQueue,
      },
    });
  });
  await writeSchedule(deps, monitor);
  return monitor;
}

export async function updateMonitor(
  deps: MonitorDeps,
  team: Team,
  monitor: Monitor,
  req: UpdateMonitorRequest,
  rawTargets: unknown[] | undefined,
): Promise<Monitor> {
  const schedule = req.schedule ? normaliseSchedule(req.schedule, deps.config.monitors.minIntervalMinutes) : undefined;
  const targets = req.targets ? await checkedTargets(deps, team, req.targets, rawTargets!, monitor.id) : (monitor.targets as StoredTarget[]);
  if (req.webhook) await checkAddress(req.webhook.url, deps.config, `Refused to deliver webhooks to ${req.webhook.url}`);
  const cron = schedule?.cron ?? monitor.cron;
  const runsPerYear = schedule?.cadence.runsPerYear ?? normaliseSchedule({ cron }, 1).cadence.runsPerYear;
  const updated = await deps.db.monitor.update({
    where: { id: monitor.id },
    data: {
      ...(req.name !== undefined && { name: req.name }),
      ...(req.status !== undefined && { status: req.status }),
      ...(schedule && { cron: schedule.cron, scheduleText: schedule.text ?? null, timezone: schedule.timezone }),
      ...(req.targets && { targets: targets as object[] }),
      ...(req.webhook !== undefined && { webhook: req.webhook === null ? Prisma.DbNull : (req.webhook as object) }),
      ...(req.notification !== undefined && { notification: req.notification === null ? Prisma.DbNull : (req.notification as object) }),
      ...(req.retentionDays !== undefined && { retentionDays: retention(req.retentionDays, deps.config) }),
      ...(req.goal !== undefined && { goal: req.goal }),
      ...(req.judgeEnabled !== undefined && { judgeEnabled: req.judgeEnabled }),
      estimatedCreditsPerMonth: estimatedCreditsPerMonth(runsPerYear, creditsPerCheck(targets, monitor.id)),
      revision: { increment: 1 },
      updatedAt: new Date(),
    },
  });
  await writeSchedule(deps, updated);
  return updated;
}

/** Marks the monitor deleted, removes its schedule, then the row and its checks; what fails is finished by the reconciler. */
export async function deleteMonitor(deps: MonitorDeps, monitor: Monitor): Promise<void> {
  await deps.db.monitor.update({ where: { id: monitor.id }, data: { status: 'deleted', revision: { increment: 1 }, updatedAt: new Date() } });
  try {
    await deleteMonitorSchedule(deps.temporal, monitor.id);
    await deps.db.monitor.delete({ where: { id: monitor.id } });
  } catch (err) {
    deps.log.warn('monitor schedule not deleted; the reconciler will', { monitorId: monitor.id, error: (err as Error).message });
  }
}

/** Starts a manual check's workflow (its row exists); the reconciler starts one whose start was lost. */
export async function startManualCheck(
  deps: Pick<MonitorDeps, 'temporal'>,
  check: { id: string; monitorId: string; teamId: string; taskQueue: string },
): Promise<void> {
  const input: MonitorCheckInput = { monitorId: check.monitorId, trigger: 'manual', checkId: check.id };
  await deps.temporal.workflow.start<typeof monitorCheckWorkflow>('monitorCheckWorkflow', {
    workflowId: manualCheckWorkflowId(check.monitorId, check.id),
    taskQueue: check.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    memo: { teamId: check.teamId, monitorId: check.monitorId },
    typedSearchAttributes: [
      { key: TeamIdAttribute, value: check.teamId },
      { key: MonitorIdAttribute, value: check.monitorId },
    ],
    staticSummary: `Manual check ${check.id} of monitor ${check.monitorId}`,
  });
}

export async function runMonitor(deps: MonitorDeps, monitor: Monitor) {
  const id = uuidv7();
  const check = await deps.db.monitorCheck.create({
    data: {
      id,
      monitorId: monitor.id,
      workflowId: manualCheckWorkflowId(monitor.id, id),
      status: 'queued',
      trigger: 'manual',
      summary: emptySummary() as object,
      estimatedCredits: creditsPerCheck(monitor.targets as unknown[], monitor.id),
    },
  });
  try {
    await startManualCheck(deps, { id, monitorId: monitor.id, teamId: monitor.teamId, taskQueue: monitor.taskQueue });
  } catch (err) {
    deps.log.warn('monitor check workflow not started; the reconciler will', { monitorId: monitor.id, checkId: id, error: (err as Error).message });
  }
  return checkAnswer(check);
}

/** The monitor as the API answers it: the row, its schedule's next run and paused state, its running and last checks. */
export async function monitorView(deps: MonitorDeps, monitor: Monitor) {
  const [described, current, last] = await Promise.all([
    describeMonitorSchedule(deps.temporal, monitor.id).catch((err: unknown) => {
      deps.log.warn('monitor schedule not described', { monitorId: monitor.id, error: (err as Error).message });
      return undefined;
    }),
    deps.db.monitorCheck.findFirst({
      where: { monitorId: monitor.id, status: { in: ['queued', 'running'] } },
      orderBy: { createdAt: 'desc' },
      select: { id: true },
    }),
    deps.db.monitorCheck.findFirst({
      where: { monitorId: monitor.id, status: { in: ENDED_CHECK_STATUSES } },
      orderBy: { createdAt: 'desc' },
      select: { summary: true },
    }),
  ]);
  const action = described?.action as { memo?: Record<string, unknown> } | undefined;
  // A schedule of another revision is being rewritten: the row says what it will be.
  const live =
    described && action?.memo?.revision === monitor.revision
      ? { paused: described.state.paused, nextRunAt: described.info.nextActionTimes[0]?.toISOString() ?? null }
      : undefined;
  return monitorAnswer(monitor, {
    live,
    currentCheckId: current?.id ?? null,
    lastCheckSummary: last ? { ...emptySummary(), ...(last.summary as Partial<MonitorSummary>) } : null,
  });
}
