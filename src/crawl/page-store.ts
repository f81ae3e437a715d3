// Writes one handled page and its consequences in a single transaction: the
// page row, its frontier row's state, and the links it adds to the frontier.
// Upserts keyed by (crawl, url key) make a retried write a no-op.
import type { Db } from '../db/prisma.ts';
import type { PageDocument } from '../scrape/build-document.ts';
import { documentSizeBytes } from '../scrape/build-document.ts';
import { addToFrontier, type NewFrontierUrl } from './frontier.ts';

export interface ScrapedPage {
  crawlId: string;
  urlKey: string;
  url: string;
  statusCode: number;
  document: PageDocument;
}

export async function storeScrapedPage(db: Db, page: ScrapedPage, follow: NewFrontierUrl[], limit: number): Promise<number> {
  const key = { crawlId_urlKey: { crawlId: page.crawlId, urlKey: page.urlKey } };
  const row = { url: page.url, success: true, statusCode: page.statusCode, error: null, document: page.document as object, sizeBytes: documentSizeBytes(page.document) };
  return db.$transaction(async (tx) => {
    await tx.crawlPage.upsert({ where: key, create: { crawlId: page.crawlId, urlKey: page.urlKey, ...row }, update: row });
    await tx.crawlUrl.update({ where: key, data: { state: 'done' } });
    return addToFrontier(tx, page.crawlId, follow, limit);
  });
}

export async function storeFailedPage(db: Db, page: { crawlId: string; urlKey: string; url: string; error: string }): Promise<void> {
  const key = { crawlId_urlKey: { crawlId: page.crawlId, urlKey: page.urlKey } };
  const metadata = { sourceURL: page.url, url: page.url, error: page.error };
  const row = { url: page.url, success: false, statusCode: null, error: page.error, document: { metadata } };
  await db.$transaction(async (tx) => {
    await tx.crawlPage.upsert({ where: key, create: { crawlId: page.crawlId, urlKey: page.urlKey, ...row }, update: row });
    await tx.crawlUrl.update({ where: key, data: { state: 'failed' } });
  });
}
