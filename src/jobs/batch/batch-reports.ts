// A running batch's line to its workflow: the job's counts by signal (so the
// workflow's search attributes and current details follow the stored pages within
// one interval, whatever the batch's size), and whether it should stop (a pause, an
// adjustment) by query, which writes no history. See docs/job-engine.md.
import type { Client } from '@temporalio/client';
import { batchControlQuery, batchProgressSignal, type BatchControl, type BatchProgress } from '../definitions.ts';

/** A report or question not answered by then is dropped: the next tick asks again, and the batch never waits on it. */
const REPORT_TIMEOUT_MS = 5_000;

export interface BatchReporter {
  progress(workflowId: string, report: BatchProgress): Promise<void>;
  control(workflowId: string, batchKey: string): Promise<BatchControl>;
}

export function workflowBatchReporter(temporal: Client): BatchReporter {
  const within = <T>(fn: () => Promise<T>) => temporal.connection.withDeadline(Date.now() + REPORT_TIMEOUT_MS, fn);
  return {
    progress: (workflowId, report) => within(() => temporal.workflow.getHandle(workflowId).signal(batchProgressSignal, report)),
    control: (workflowId, batchKey) => within(() => temporal.workflow.getHandle(workflowId).query(batchControlQuery, batchKey)),
  };
}
