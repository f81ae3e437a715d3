// The options every start of a job's workflow shares, whoever starts it: the gateway and the
// reconciler start it from a client (job-workflow-start.ts), the extract and monitor check
// workflows as their children. Workflow code imports this file, so it may import nothing with side
// effects: only @temporalio/common and modules that import nothing else.
import type { SearchAttributePair } from '@temporalio/common';
import { CrawlIdAttribute, CrawlStatusAttribute, TeamIdAttribute } from '../platform/temporal/search-attribute-keys.ts';
import { crawlWorkflowId, type CrawlWorkflowInput } from './definitions.ts';

/** The workflow type every job (crawl, batch scrape, single scrape) runs as. */
export const JOB_WORKFLOW_TYPE = 'crawlWorkflow';

export interface JobToStart {
  id: string;
  teamId: string;
}

/**
 * The job's workflow id (derived from the job id, so a second start finds the first), its input and
 * the search attributes operators filter by. `attributes` adds the starter's own (a monitor's id).
 */
export function jobWorkflowOptions(
  job: JobToStart,
  { input = { crawlId: job.id }, attributes = [] }: { input?: CrawlWorkflowInput; attributes?: SearchAttributePair[] } = {},
) {
  const typedSearchAttributes: SearchAttributePair[] = [
    { key: TeamIdAttribute, value: job.teamId },
    { key: CrawlIdAttribute, value: job.id },
    { key: CrawlStatusAttribute, value: 'scraping' },
    ...attributes,
  ];
  return { workflowId: crawlWorkflowId(job.id), args: [input] as [CrawlWorkflowInput], typedSearchAttributes };
}
