// One check of a monitor: started by the monitor's Temporal Schedule (or by
// POST /v2/monitor/{id}/run), it commits a job of the engine per target, runs them
// as child workflows (the crawl pipeline's own workflow, so fair share, credits and
// limits apply as to any job), then compares and stores the pages, judges them, ends
// the check (its final status) and notifies. After kill -9 of a worker it resumes where its history stops: jobs
// already committed or started are found again, never run twice.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { ParentClosePolicy, patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import { startJobChild } from '../../jobs/job-workflow-options.ts';
import { JOB_PARENT_RETRY, WEBHOOK_SEND_RETRY } from '../../platform/temporal/retry-policies.ts';
import { MonitorIdAttribute } from '../../platform/temporal/search-attribute-keys.ts';
import type { MonitorCheckActivities } from './check-activities.ts';
import type { createCheckNotificationActivities } from './check-notifications.ts';
import type { CheckOutcome, MonitorCheckInput } from './definitions.ts';

/** Set by Temporal on a run a schedule started: the time it was due, before jitter. */
const ScheduledStartTime = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);

const { openMonitorCheck, commitMonitorCheckJobs, finishMonitorCheck, endMonitorCheck } = proxyActivities<MonitorCheckActivities>({
  startToCloseTimeout: '2 minutes',
  retry: JOB_PARENT_RETRY,
});

const { searchMonitorTargets } = proxyActivities<MonitorCheckActivities>({
  summary: 'search targets: their queries through the search endpoint',
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: { ...JOB_PARENT_RETRY, maximumAttempts: 5 },
});

const { judgeMonitorCheck } = proxyActivities<MonitorCheckActivities>({
  startToCloseTimeout: '30 minutes',
  retry: { ...JOB_PARENT_RETRY, maximumAttempts: 3 },
});

export async function monitorCheckWorkflow(input: MonitorCheckInput): Promise<CheckOutcome> {
  const info = workflowInfo();
  const scheduledFor = info.typedSearchAttributes.get(ScheduledStartTime) ?? info.runStartTime;
  const opened = await openMonitorCheck({ ...input, workflowId: info.workflowId, scheduledFor: scheduledFor.toISOString() });
  if (opened.done) return { checkId: opened.checkId, status: 'skipped' };
  const committed = await commitMonitorCheckJobs({ checkId: opened.checkId });
  const children = await Promise.all(
    committed.runs.flatMap((run) =>
      run.jobId
        ? [
            // A run from a history recorded before workflow ids named the job's kind carries no workflowId: `crawl-<id>`.
            startJobChild(
              { id: run.jobId, teamId: run.teamId!, workflowId: run.workflowId ?? null },
              {
                attributes: [{ key: MonitorIdAttribute, value: input.monitorId }],
                // The job is the team's like any other: it ends by its own rules even if the check is terminated.
                parentClosePolicy: ParentClosePolicy.ABANDON,
                staticSummary: `${run.type === 'crawl' ? 'Crawl' : 'Batch scrape'} of ${run.url} for monitor check ${opened.checkId}`,
              },
            ),
          ]
        : [],
    ),
  );
  // Histories recorded before search targets ran have no such activity.
  const searched = patched('monitor-search-targets') ? searchMonitorTargets({ checkId: opened.checkId }) : Promise.resolve();
  // A failed job still stored what it could; the check reports its pages and is partial.
  await Promise.all(children.map((child) => child.result().catch(() => undefined)));
  await searched;
  // Histories recorded before this ended the check before the judge: a reader saw its status final
  // while its changed pages had no judgment yet.
  const judgeFirst = patched('monitor-judge-before-end');
  const outcome = await finishMonitorCheck({
    checkId: opened.checkId,
    runs: committed.runs,
    refused: committed.refused,
    endLater: judgeFirst,
  });
  // A judge that keeps failing leaves pages without judgments; the check ends either way.
  await judgeMonitorCheck({ checkId: opened.checkId }).catch(() => 0);
  if (judgeFirst) await endMonitorCheck({ checkId: opened.checkId, status: outcome.status, refused: committed.refused });
  const { notifyMonitorCheck } = proxyActivities<ReturnType<typeof createCheckNotificationActivities>>({
    taskQueue: opened.notifyTaskQueue,
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: '1 minute',
    retry: WEBHOOK_SEND_RETRY,
  });
  await notifyMonitorCheck({ checkId: opened.checkId });
  return outcome;
}
