// Crawl webhook events, written to the outbox (webhook_event) inside the
// transaction that makes them true: the crawl row for crawl.started, the page
// row for crawl.page, the final status for crawl.completed / crawl.failed.
// A batch scrape has the same events named batch_scrape.*: the outbox keeps the
// crawl.* names (its delivery order depends on them), the payload says batch_scrape. The
// body is serialised once, here, so every attempt sends (and signs) the same
// bytes under the same webhookId. Page events quote page content, so the body
// is made storable like the page itself.
import { randomUUID } from 'node:crypto';
import type { Webhook, WebhookEventName } from './webhook-schema.ts';
import type { SqlTx } from '../../platform/db/sql-transactions.ts';
import { crawlOptions } from '../crawl-options.ts';
import { storableJson } from '../../platform/db/storable.ts';
import type { JobKind } from '../job-kind.ts';

export type CrawlEventType = 'crawl.started' | 'crawl.page' | 'crawl.completed' | 'crawl.failed';

export const TERMINAL_EVENT_TYPES: readonly CrawlEventType[] = ['crawl.completed', 'crawl.failed'];

export interface CrawlEvent {
  type: CrawlEventType;
  /** The page's URL key for crawl.page; the crawl's own events have none. */
  itemKey?: string;
  success: boolean;
  data: unknown[];
  error?: string;
}

/** A job's webhook and the prefix of its events' public names (crawl when absent). */
export type JobWebhook = Webhook & { eventPrefix?: Exclude<JobKind, 'crawl'> };

/** The payload of the spec's "Webhook event payload" table. */
export interface WebhookPayload {
  success: boolean;
  type: string;
  id: string;
  webhookId: string;
  data: unknown[];
  error?: string;
  metadata: Record<string, unknown>;
}

const filterName = (type: CrawlEventType) => type.slice('crawl.'.length) as WebhookEventName;

/**
 * Adds the event to the outbox unless the same event of the crawl is there already.
 * Events left out by `webhook.events` are not written, except the final one: it is
 * recorded as skipped, so delivery knows the crawl has no more events to come.
 */
export async function writeCrawlEvent(tx: SqlTx, crawlId: string, webhook: JobWebhook | undefined, event: CrawlEvent): Promise<void> {
  if (!webhook) return;
  const wanted = webhook.events.includes(filterName(event.type));
  if (!wanted && !TERMINAL_EVENT_TYPES.includes(event.type)) return;
  const webhookId = randomUUID();
  const payload: WebhookPayload = {
    success: event.success,
    type: webhook.eventPrefix ? `${webhook.eventPrefix}.${filterName(event.type)}` : event.type,
    id: crawlId,
    webhookId,
    data: event.data,
    ...(event.error !== undefined && { error: event.error }),
    metadata: webhook.metadata,
  };
  // Raw SQL, so that it also runs in a page group's transaction (platform/db/sql-transactions.ts).
  await tx.$executeRaw`
    INSERT INTO webhook_event (id, crawl_id, type, item_key, url, headers, body, state)
    VALUES (${webhookId}::uuid, ${crawlId}::uuid, ${event.type}, ${event.itemKey ?? ''}, ${webhook.url}, ${JSON.stringify(webhook.headers)}::jsonb,
            ${wanted ? storableJson(payload).json : null}, ${wanted ? 'pending' : 'skipped'})
    ON CONFLICT DO NOTHING`;
}

/** The job's webhook, from the stored request (absent when the job has none). */
export function crawlWebhook(options: unknown, kind: JobKind = 'crawl'): JobWebhook | undefined {
  const webhook = options ? crawlOptions({ options }).webhook : undefined;
  return webhook && kind !== 'crawl' ? { ...webhook, eventPrefix: kind } : webhook;
}
