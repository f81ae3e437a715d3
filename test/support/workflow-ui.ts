// What the Temporal UI shows of a workflow besides its history and search
// attributes: its current details (answered by the SDK's built-in
// `__temporal_workflow_metadata` query, which the UI runs) and the summaries
// its activities and timers carry in the history.
import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';

export async function currentDetails(handle: WorkflowHandle): Promise<string> {
  const metadata = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
  return metadata.currentDetails ?? '';
}

export interface EventSummary {
  kind: 'workflow' | 'activity' | 'timer' | 'other';
  summary: string;
}

/** The summary of every event that has one, in history order. */
export function eventSummaries(history: temporal.api.history.v1.IHistory): EventSummary[] {
  return (history.events ?? []).flatMap((e) => {
    const payload = e.userMetadata?.summary;
    if (!payload) return [];
    const kind = e.workflowExecutionStartedEventAttributes
      ? 'workflow'
      : e.activityTaskScheduledEventAttributes
        ? 'activity'
        : e.timerStartedEventAttributes
          ? 'timer'
          : 'other';
    return [{ kind, summary: defaultPayloadConverter.fromPayload<string>(payload) }];
  });
}

/** How many upserts of the history set the search attribute `name`. */
export function upsertsOf(history: temporal.api.history.v1.IHistory, name: string): number {
  return (history.events ?? []).filter((e) => e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.[name]).length;
}
