// Names and shapes shared by the extract routes, the workflow and its activities.
// Workflow code imports this file: it imports nothing with side effects.

export function extractWorkflowId(extractId: string): string {
  return `extract-${extractId}`;
}

export const EXTRACT_STATUSES = ['processing', 'completed', 'failed', 'cancelled'] as const;
export type ExtractStatus = (typeof EXTRACT_STATUSES)[number];

export const ENDED_EXTRACT_STATUSES: readonly string[] = ['completed', 'failed', 'cancelled'];

export type ExtractEvent = 'started' | 'completed' | 'failed';

export interface ExtractWorkflowInput {
  extractId: string;
}

/** One engine job that fetches pages for the extract. */
export interface ExtractJobRun {
  jobId: string;
  /** The job's workflow id; absent in histories recorded before it named the kind (then `crawl-<jobId>`). */
  workflowId?: string;
  kind: 'batch_scrape' | 'crawl';
  teamId: string;
  url: string;
}

export interface OpenedExtract {
  /** Set when the extract has ended already (a retried or replayed run). */
  done?: boolean;
  /** The worker's webhook task queue (TEMPORAL_WEBHOOK_TASK_QUEUE), where events are sent from. */
  notifyTaskQueue: string;
  /** Whether the request carried a webhook (the workflow sends no event otherwise). */
  webhook: boolean;
  /** How often the workflow shows its jobs' counts while they run (CRAWL_PROGRESS_INTERVAL_MS); absent in older histories. */
  progressIntervalMs?: number;
}

/** The pages of an extract's jobs so far, summed over its jobs. */
export interface ExtractProgress {
  completed: number;
  queued: number;
  failed: number;
}

export interface CommittedExtractJobs {
  /** Why the jobs could not be committed (out of credits, a limit): the extract's error. */
  refused?: string;
  runs: ExtractJobRun[];
}
