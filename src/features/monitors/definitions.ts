// Names and inputs shared by the monitor routes, the schedule and the check workflow.
// Workflow code imports this file: it imports nothing.

export function monitorScheduleId(monitorId: string): string {
  return `monitor-${monitorId}`;
}

/** A scheduled check's workflow id starts with this (Temporal appends the scheduled time); a manual check's is `<prefix>-manual-<checkId>`. */
export function checkWorkflowIdPrefix(monitorId: string): string {
  return `monitor-check-${monitorId}`;
}

export function manualCheckWorkflowId(monitorId: string, checkId: string): string {
  return `${checkWorkflowIdPrefix(monitorId)}-manual-${checkId}`;
}

export interface MonitorCheckInput {
  monitorId: string;
  trigger: 'scheduled' | 'manual';
  /** A manual check's row exists before its workflow (POST /v2/monitor/{id}/run answers with it). */
  checkId?: string;
}

export interface TargetRun {
  targetId: string;
  type: 'scrape' | 'crawl' | 'search';
  /** The job of the engine that ran the target (absent for a search target, run through the search tool). */
  jobId?: string;
  /** The job's workflow id; absent in histories recorded before it named the kind (then `crawl-<jobId>`). */
  workflowId?: string;
  teamId?: string;
  url?: string;
}

export interface OpenedCheck {
  checkId: string;
  /** Set when the check has nothing to run (the monitor is gone, or the check already ended). */
  done?: boolean;
  /** The worker's webhook task queue (TEMPORAL_WEBHOOK_TASK_QUEUE), where notifications are sent from. */
  notifyTaskQueue: string;
}

export interface CommittedJobs {
  /** The reason the check cannot run (out of credits, a limit), recorded on the check as its error. */
  refused?: string;
  runs: TargetRun[];
}

export interface CheckOutcome {
  checkId: string;
  status: string;
}
