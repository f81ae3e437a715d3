// Names and payloads of the webhook delivery workflow, shared by the crawl
// workflow, the worker and tests. Workflow code imports this file.

/**
 * The job's webhook deliveries: one workflow per job that has a webhook, outliving the job until its
 * outbox is drained. Named after the job's own workflow id: `batch-scrape-<id>` delivers as
 * `batch-scrape-webhooks-<id>`. A job whose workflow is the legacy `crawl-<id>` (started before
 * workflow ids named the kind) gets `crawl-webhooks-<id>`, the id its history already started.
 */
export function jobWebhooksWorkflowId(jobWorkflowId: string, jobId: string): string {
  const suffix = `-${jobId}`;
  const prefix = jobWorkflowId.endsWith(suffix) ? jobWorkflowId.slice(0, -suffix.length) : 'crawl';
  return `${prefix}-webhooks-${jobId}`;
}

export interface JobWebhooksInput {
  crawlId: string;
  /** Set by runs started before the worker read these itself (kept for their replay). */
  activityTaskQueue?: string;
  heartbeatTimeoutMs?: number;
}

export interface JobWebhooksResult {
  crawlId: string;
  delivered: number;
  failed: number;
}
