// Names and payloads of the webhook delivery workflow, shared by the crawl
// workflow, the worker and tests. Workflow code imports this file.

/** The crawl's webhook deliveries: one workflow per crawl that has a webhook, outliving the crawl until its outbox is drained. */
export function crawlWebhooksWorkflowId(crawlId: string): string {
  return `crawl-webhooks-${crawlId}`;
}

export interface CrawlWebhooksInput {
  crawlId: string;
  /** Set by runs started before the worker read these itself (kept for their replay). */
  activityTaskQueue?: string;
  heartbeatTimeoutMs?: number;
}

export interface CrawlWebhooksResult {
  crawlId: string;
  delivered: number;
  failed: number;
}
