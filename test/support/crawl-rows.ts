// Rows of a crawl in PostgreSQL for tests of the engine's parts, made without the
// gateway or a workflow: a team, a crawl row (with its stored request, as
// commitJob writes it) and frontier rows (as planCrawl and the page store add them).
import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { crawlRequestSchema, type CrawlRequest, type CrawlRequestInput } from '../../src/jobs/crawl-request.ts';
import { addToFrontier, type NewFrontierUrl } from '../../src/jobs/frontier/frontier.ts';
import { canonicalUrl, urlKey } from '../../src/jobs/frontier/normalize-url.ts';
import { prepareDocument, type ScrapedPage } from '../../src/jobs/pages/page-store.ts';
import type { Db } from '../../src/platform/db/prisma.ts';
import { createTeam } from '../../src/platform/teams/teams.ts';

export async function testTeam(db: Db, opts: Partial<Parameters<typeof createTeam>[1]> = {}): Promise<string> {
  return (await createTeam(db, { name: `test-${randomUUID()}`, credits: 1000, concurrencyLimit: 2, ...opts })).id;
}

/** A crawl row of `teamId` in `scraping`, its options the request as the gateway validated it. */
export async function insertCrawl(db: Db, teamId: string, request: CrawlRequestInput): Promise<{ id: string; options: CrawlRequest }> {
  const options = crawlRequestSchema.parse(request);
  const id = uuidv7();
  await db.job.create({ data: { id, teamId, url: options.url, options: options as object, status: 'scraping', kind: 'crawl' } });
  return { id, options };
}

/** The start URL in the frontier at depth 0, as planCrawl seeds it. */
export async function seedStartUrl(db: Db, crawlId: string, options: CrawlRequest): Promise<NewFrontierUrl> {
  const norm = { ignoreQueryParameters: options.ignoreQueryParameters };
  const start = { url: canonicalUrl(options.url, norm), urlKey: urlKey(options.url, norm), depth: 0 };
  await addToFrontier(db, crawlId, [start], options.limit);
  return start;
}

/** A page as a batch hands it to the page store: a 200 whose markdown is its URL. */
export function scrapedPage(crawlId: string, r: { url: string; urlKey: string }): ScrapedPage {
  return {
    crawlId,
    urlKey: r.urlKey,
    url: r.url,
    statusCode: 200,
    document: prepareDocument({ markdown: r.url, metadata: { sourceURL: r.url, url: r.url, statusCode: 200 } }),
    path: 'http',
  };
}
