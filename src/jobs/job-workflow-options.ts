// The one way a job's workflow is started, whoever starts it: the gateway and the reconciler
// start it from a client (job-workflow-start.ts, with jobWorkflowOptions), the extract and
// monitor check workflows as their child (startJobChild). Workflow code imports this file, so it
// may import nothing with side effects: only the Temporal packages and modules that import nothing else.
import type { SearchAttributePair } from '@temporalio/common';
import { patched, startChild, type ChildWorkflowOptions } from '@temporalio/workflow';
import { CrawlIdAttribute, CrawlStatusAttribute, TeamIdAttribute } from '../platform/temporal/search-attribute-keys.ts';
import { jobWorkflowId, type JobWorkflowInput } from './definitions.ts';
import type { jobWorkflow } from './workflow.ts';

/** The workflow type every job (crawl, batch scrape, single scrape) runs as. */
export const JOB_WORKFLOW_TYPE = 'jobWorkflow';

/**
 * The type jobs ran as before it was named for what it is. Workflows started under it keep
 * running (workflows/index.ts registers the function under both names), and a parent whose
 * history started its child under this type starts it so again when replayed.
 */
export const LEGACY_JOB_WORKFLOW_TYPE = 'crawlWorkflow';

export interface JobToStart {
  id: string;
  teamId: string;
  /** The row's workflow id; null for a row created before the column existed (`crawl-<id>`). */
  workflowId: string | null;
}

/**
 * The job's workflow id (the row's, so a second start finds the first), its input and the search
 * attributes operators filter by. `attributes` adds the starter's own (a monitor's id).
 */
export function jobWorkflowOptions(
  job: JobToStart,
  { input = { crawlId: job.id }, attributes = [] }: { input?: JobWorkflowInput; attributes?: SearchAttributePair[] } = {},
) {
  const typedSearchAttributes: SearchAttributePair[] = [
    { key: TeamIdAttribute, value: job.teamId },
    { key: CrawlIdAttribute, value: job.id },
    { key: CrawlStatusAttribute, value: 'scraping' },
    ...attributes,
  ];
  return { workflowId: jobWorkflowId(job), args: [input] as [JobWorkflowInput], typedSearchAttributes };
}

/**
 * Starts a job's workflow as a child of the calling workflow (an extract's or a monitor check's
 * jobs). `options` are the parent's own: its close policy, its cancellation type, its summary.
 */
export function startJobChild(
  job: JobToStart,
  options: Pick<ChildWorkflowOptions, 'parentClosePolicy' | 'cancellationType' | 'staticSummary'> & { attributes?: SearchAttributePair[] },
) {
  const { attributes, ...rest } = options;
  // Histories recorded before the rename started their children as crawlWorkflow (the type is
  // part of what a replay compares).
  const type = patched('job-workflow-type') ? JOB_WORKFLOW_TYPE : LEGACY_JOB_WORKFLOW_TYPE;
  return startChild<typeof jobWorkflow>(type, { ...jobWorkflowOptions(job, { attributes }), ...rest });
}
