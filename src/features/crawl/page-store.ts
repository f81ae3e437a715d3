// Writes one handled page and its consequences in a single transaction: the
// page row, its frontier row's state, its credit charge, its search index entry,
// the links it adds to the frontier and the links robots.txt kept out. Upserts keyed by (crawl, url
// key) and the ledger's unique key make a retried write a no-op. Everything from
// the page is made storable first (platform/db/storable.ts): page content never
// fails the write.
import { chargeOnce, type Charge } from '../../platform/usage/credits.ts';
import type { Db, Tx } from '../../platform/db/prisma.ts';
import type { PageDocument } from '../scrape/build-document.ts';
import { documentTooLargeMessage } from '../scrape/page-size.ts';
import { storableJson, storableText } from '../../platform/db/storable.ts';
import { writeCrawlEvent, type JobWebhook } from '../webhooks/crawl-events.ts';
import { notifyPageStored } from './job-events.ts';
import { addToFrontier, type NewFrontierUrl } from './frontier.ts';
import { FrontierState } from './frontier-state.ts';
import { indexPage, type IndexedPage } from '../search/index/index-page.ts';

/** A document made storable and measured (prepareDocument). */
export interface PreparedDocument {
  document: PageDocument;
  /** Its JSON's UTF-8 length: what it takes in a status response. */
  sizeBytes: number;
}

export interface ScrapedPage {
  crawlId: string;
  urlKey: string;
  url: string;
  statusCode: number;
  document: PreparedDocument;
  /** Key of the URL the page redirected to, when it differs from urlKey. */
  finalUrlKey?: string;
  finalUrl?: string;
}

export interface PageConsequences {
  follow: NewFrontierUrl[];
  robotsBlocked: { url: string; urlKey: string }[];
  limit: number;
  /** Links are admitted only while fewer URLs than this per credit of the team's balance wait (see addToFrontier). */
  queuedPerCredit?: number;
  charge: Omit<Charge, 'itemKey' | 'jobId'>;
  /** The crawl's webhook: the page's crawl.page event joins the outbox in the same transaction. */
  webhook?: JobWebhook;
  /** The page's entry in the local search index (none for zero-data-retention pages). */
  index?: IndexedPage;
}

export class DuplicateRedirectError extends Error {}

/** The page's document is over CRAWL_MAX_DOCUMENT_BYTES. */
export class DocumentTooLargeError extends Error {}

/**
 * The document as it will be stored: strings PostgreSQL refuses cleaned, its size measured, and
 * refused (DocumentTooLargeError) beyond `maxBytes`. Throws what JSON.stringify throws on a value
 * too deeply nested to serialize; the caller records either as the page's failure.
 */
export function prepareDocument(document: PageDocument, maxBytes = Infinity): PreparedDocument {
  const { value, json } = storableJson(document);
  const sizeBytes = Buffer.byteLength(json);
  if (sizeBytes > maxBytes) throw new DocumentTooLargeError(documentTooLargeMessage(sizeBytes, maxBytes));
  return { document: value, sizeBytes };
}

/**
 * A redirect target is a page of the crawl too: it gets an alias row so it is
 * never scraped again, and if another page already owns it this one is a
 * duplicate.
 */
async function claimRedirectTarget(tx: Tx, page: ScrapedPage): Promise<void> {
  if (!page.finalUrlKey || page.finalUrlKey === page.urlKey) return;
  const inserted = await tx.$executeRaw`
    INSERT INTO crawl_url (crawl_id, url_key, url, depth, state)
    VALUES (${page.crawlId}::uuid, ${page.finalUrlKey}, ${page.finalUrl ?? page.url}, 0, ${FrontierState.redirect})
    ON CONFLICT (crawl_id, url_key) DO NOTHING`;
  if (inserted > 0) return;
  // Still waiting in the queue: this page stands for it, so it is never fetched.
  const taken = await tx.crawlUrl.updateMany({
    where: { crawlId: page.crawlId, urlKey: page.finalUrlKey, state: FrontierState.queued },
    data: { state: FrontierState.redirect },
  });
  if (taken.count === 0) {
    throw new DuplicateRedirectError(`Redirected to ${page.finalUrl}, which this crawl already scraped`);
  }
}

export async function storeScrapedPage(db: Db, page: ScrapedPage, next: PageConsequences): Promise<number> {
  const key = { crawlId_urlKey: { crawlId: page.crawlId, urlKey: page.urlKey } };
  const { document, sizeBytes } = page.document;
  const row = { url: page.url, success: true, statusCode: page.statusCode, error: null, document: document as object, sizeBytes };
  return db.$transaction(async (tx) => {
    await claimRedirectTarget(tx, page);
    const stored = await tx.crawlPage.upsert({ where: key, create: { crawlId: page.crawlId, urlKey: page.urlKey, ...row }, update: row, select: { id: true } });
    await notifyPageStored(tx, page.crawlId, stored.id);
    await tx.crawlUrl.update({ where: key, data: { state: FrontierState.done } });
    await chargeOnce(tx, { ...next.charge, jobId: page.crawlId, itemKey: page.urlKey });
    await writeCrawlEvent(tx, page.crawlId, next.webhook, { type: 'crawl.page', itemKey: page.urlKey, success: true, data: [document] });
    if (next.index) await indexPage(tx, next.index);
    if (next.robotsBlocked.length > 0) {
      await tx.crawlRobotsBlocked.createMany({
        data: next.robotsBlocked.map((b) => ({ crawlId: page.crawlId, urlKey: b.urlKey, url: b.url })),
        skipDuplicates: true,
      });
    }
    return addToFrontier(tx, page.crawlId, next.follow, next.limit, next.queuedPerCredit);
  });
}

/**
 * Records a page that could not be scraped. A page already stored as scraped
 * stays scraped: a late failure (a retried attempt, a stopped batch) never
 * overwrites it.
 */
export async function storeFailedPage(
  db: Db,
  page: { crawlId: string; urlKey: string; url: string; error: string; statusCode?: number },
  webhook?: JobWebhook,
): Promise<void> {
  // Errors quote what pages and browsers said (an action's exception, a server's message).
  const error = storableText(page.error);
  const metadata = { sourceURL: page.url, url: page.url, ...(page.statusCode !== undefined && { statusCode: page.statusCode }), error };
  const row = { url: page.url, success: false, statusCode: page.statusCode ?? null, error, document: { metadata } };
  const where = { crawlId: page.crawlId, urlKey: page.urlKey };
  await db.$transaction(async (tx) => {
    const created = await tx.crawlPage.createMany({ data: [{ ...where, ...row }], skipDuplicates: true });
    if (created.count === 0 && (await tx.crawlPage.updateMany({ where: { ...where, success: false }, data: row })).count === 0) return;
    await tx.crawlUrl.updateMany({ where: { ...where, state: { not: FrontierState.done } }, data: { state: FrontierState.failed } });
    await writeCrawlEvent(tx, page.crawlId, webhook, { type: 'crawl.page', itemKey: page.urlKey, success: false, data: [{ metadata }], error });
  });
}
