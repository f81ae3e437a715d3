// The public names of a job's webhook events: a crawl's are crawl.*, a batch scrape's
// batch_scrape.* (upstream's names, which the SDKs' `events` filter of started, page,
// completed, failed selects), while the outbox row keeps the crawl.* name its delivery
// order is keyed on. The end-to-end deliveries of a batch are in
// test/integration/batch-scrape.test.ts; a failed batch cannot be made quickly there.
import { describe, expect, it } from 'vitest';
import { crawlWebhook, writeCrawlEvent, type CrawlEvent, type CrawlEventType } from '../../../src/jobs/webhooks/crawl-events.ts';
import type { SqlTx } from '../../../src/platform/db/sql-transactions.ts';
import type { JobKind } from '../../../src/jobs/job-kind.ts';

interface Row {
  type: string;
  state: string;
  payload: { type: string; success: boolean; id: string; data: unknown[]; error?: string; metadata: unknown } | null;
}

/** A transaction that keeps the outbox rows writeCrawlEvent inserts. */
function outbox() {
  const rows: Row[] = [];
  const tx: SqlTx = {
    async $executeRaw(query, ...values) {
      const sql = (query as TemplateStringsArray).join('?');
      expect(sql).toContain('INSERT INTO webhook_event (id, crawl_id, type, item_key, url, headers, body, state)');
      const [, , type, , , , body, state] = values as string[];
      rows.push({ type, state, payload: body === null ? null : JSON.parse(body) });
      return 1;
    },
    $queryRaw: () => Promise.reject(new Error('not used')),
  };
  return { tx, rows };
}

const CRAWL_ID = '019aa2b4-7f3e-7c15-8a42-5d1e9b3c6f70';
const EVENTS: CrawlEvent[] = [
  { type: 'crawl.started', success: true, data: [] },
  { type: 'crawl.page', itemKey: 'site.test/a', success: true, data: [{ markdown: 'a' }] },
  { type: 'crawl.completed', success: true, data: [{ status: 'completed', completed: 1 }] },
  { type: 'crawl.failed', success: false, data: [{ status: 'failed', completed: 0 }], error: 'it broke' },
];

async function written(kind: JobKind, events?: string[]) {
  const { tx, rows } = outbox();
  const webhook = crawlWebhook(
    { webhook: { url: 'https://hooks.test/in', headers: {}, metadata: { run: 'one' }, events: events ?? ['started', 'page', 'completed', 'failed'] } },
    kind,
  );
  for (const event of EVENTS) await writeCrawlEvent(tx, CRAWL_ID, webhook, event);
  return rows;
}

describe('webhook event names', () => {
  it('are batch_scrape.started, .page, .completed and .failed for a batch scrape, over the outbox crawl.* rows', async () => {
    const rows = await written('batch_scrape');
    expect(rows.map((r) => r.payload?.type)).toEqual(['batch_scrape.started', 'batch_scrape.page', 'batch_scrape.completed', 'batch_scrape.failed']);
    expect(rows.map((r) => r.type)).toEqual(EVENTS.map((e) => e.type));
    expect(rows.every((r) => r.state === 'pending' && r.payload!.id === CRAWL_ID)).toBe(true);
    expect(rows.at(-1)!.payload).toMatchObject({ success: false, error: 'it broke', metadata: { run: 'one' } });
  });

  it('are crawl.* for a crawl', async () => {
    expect((await written('crawl')).map((r) => r.payload?.type)).toEqual(EVENTS.map((e) => e.type));
  });

  it('are filtered by their short names; a final event left out is recorded as skipped, unsent', async () => {
    const rows = await written('batch_scrape', ['page', 'completed']);
    expect(rows.map((r) => [r.type as CrawlEventType, r.state, r.payload?.type ?? null])).toEqual([
      ['crawl.page', 'pending', 'batch_scrape.page'],
      ['crawl.completed', 'pending', 'batch_scrape.completed'],
      ['crawl.failed', 'skipped', null],
    ]);
  });
});
