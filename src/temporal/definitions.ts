// Names shared by the gateway, the worker and workflow code. Workflow code
// imports this file, so it may import nothing but @temporalio/common.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const TeamIdAttribute = defineSearchAttributeKey('TeamId', SearchAttributeType.KEYWORD);
export const CrawlIdAttribute = defineSearchAttributeKey('CrawlId', SearchAttributeType.KEYWORD);
export const CrawlStatusAttribute = defineSearchAttributeKey('CrawlStatus', SearchAttributeType.KEYWORD);
export const PagesCrawledAttribute = defineSearchAttributeKey('PagesCrawled', SearchAttributeType.INT);

export const SEARCH_ATTRIBUTES = [TeamIdAttribute, CrawlIdAttribute, CrawlStatusAttribute, PagesCrawledAttribute];

/** Operators find a crawl in the Temporal UI by this id. */
export function crawlWorkflowId(crawlId: string): string {
  return `crawl-${crawlId}`;
}

/** The crawl's webhook deliveries: one workflow per crawl that has a webhook, outliving the crawl until its outbox is drained. */
export function crawlWebhooksWorkflowId(crawlId: string): string {
  return `crawl-webhooks-${crawlId}`;
}

export interface CrawlWebhooksInput {
  crawlId: string;
  /** Task queue of the delivery activity (WebhookTaskQueue of the worker). */
  activityTaskQueue: string;
  /** How soon a delivery loop on a dead worker is taken over elsewhere. */
  heartbeatTimeoutMs: number;
}

export interface CrawlWebhooksResult {
  crawlId: string;
  delivered: number;
  failed: number;
}

export type CrawlStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';

export interface CrawlWorkflowInput {
  crawlId: string;
  /** Batches scraped at the same time by this crawl. */
  parallelBatches: number;
  /** URLs per scrape activity. */
  batchSize: number;
  /** Pages open at once in one batch's browser. */
  pagesPerBatch: number;
  /** How soon a batch on a dead worker is retried. */
  heartbeatTimeoutMs: number;
  /** Continue as new once a run's history passes this many events (3,000 for runs started without it). */
  historyEventBudget?: number;
  /** The crawl's `delay`: a durable timer between pages (batches of one page). */
  delayMs?: number;
  /** Set when the crawl has a webhook: the first run starts the crawl's delivery workflow, its activity on this queue. */
  webhookTaskQueue?: string;
  /** Set by continue-as-new: planning already happened in an earlier run. */
  planned?: boolean;
  /** Pages handled by earlier runs, for progress reporting. */
  pagesHandled?: number;
  /** When the previous run's last batch ended, so `delay` holds across continue-as-new. */
  lastBatchEndedAt?: number;
}

export interface CrawlWorkflowResult {
  crawlId: string;
  status: CrawlStatus;
  pagesHandled: number;
}
