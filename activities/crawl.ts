// Activities of crawlWorkflow: plan the frontier, scrape a batch, finish. Each
// is idempotent: rows are keyed by (crawl, url key) and written with upserts,
// and a batch's claim is keyed by the workflow, so retries and replays never
// duplicate a page.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { CrawlRequest } from '../src/api/schemas/crawl-request.ts';
import { addToFrontier, claimBatch, frontierCounts, releaseClaims } from '../src/crawl/frontier.ts';
import { storeFailedPage, storeScrapedPage } from '../src/crawl/page-store.ts';
import { createLinkFilter } from '../src/crawl/link-filter.ts';
import { canonicalUrl, urlKey } from '../src/crawl/normalize-url.ts';
import { scrapeWithBrowser, type FetchedPage, type ScrapeTarget } from '../src/scrape/browser-scraper.ts';
import { buildDocument, type DocumentFormat } from '../src/scrape/build-document.ts';
import type { CrawlStatus } from '../src/temporal/definitions.ts';
import type { ActivityDeps } from './deps.ts';

export interface ScrapeBatchInput {
  crawlId: string;
  /** Unique per batch of a workflow run; a retry reuses it and so gets the same URLs. */
  batchKey: string;
  size: number;
  /** Pages open at once in this batch's browser. */
  concurrency: number;
}

export interface ScrapeBatchResult {
  claimed: number;
  succeeded: number;
  failed: number;
  /** URLs waiting in the frontier after this batch. */
  queued: number;
}

export interface FinishCrawlInput {
  crawlId: string;
  status: Exclude<CrawlStatus, 'scraping'>;
  error?: string;
}

export function createCrawlActivities({ db, config, log }: ActivityDeps) {
  async function loadCrawl(crawlId: string) {
    const crawl = await db.crawl.findUnique({ where: { id: crawlId } });
    if (!crawl) throw ApplicationFailure.nonRetryable(`crawl ${crawlId} does not exist`, 'CrawlNotFound');
    return { crawl, options: crawl.options as unknown as CrawlRequest };
  }

  const heartbeat = (details: unknown) => Context.current().heartbeat(details);

  return {
    /** Seeds the frontier with the start URL. Runs before any batch of the crawl, so stale claims are released. */
    async planCrawl(crawlId: string): Promise<{ queued: number }> {
      const { options } = await loadCrawl(crawlId);
      await releaseClaims(db, crawlId);
      const norm = { ignoreQueryParameters: options.ignoreQueryParameters };
      await db.$transaction((tx) =>
        addToFrontier(tx, crawlId, [{ url: canonicalUrl(options.url, norm), urlKey: urlKey(options.url, norm), depth: 0 }], options.limit),
      );
      const { queued } = await frontierCounts(db, crawlId);
      log.info('crawl planned', { crawlId, queued });
      return { queued };
    },

    async scrapeBatch(input: ScrapeBatchInput): Promise<ScrapeBatchResult> {
      const { crawlId } = input;
      const { options } = await loadCrawl(crawlId);
      const rows = await claimBatch(db, crawlId, input.batchKey, input.size);
      if (rows.length === 0) return { claimed: 0, succeeded: 0, failed: 0, queued: (await frontierCounts(db, crawlId)).queued };

      // A retried attempt skips pages an earlier attempt already stored.
      const stored = new Set(
        (await db.crawlPage.findMany({ where: { crawlId, urlKey: { in: rows.map((r) => r.urlKey) } }, select: { urlKey: true } })).map((p) => p.urlKey),
      );
      const todo = rows.filter((r) => !stored.has(r.urlKey) && r.state !== 'done' && r.state !== 'failed');
      const depthOf = new Map(rows.map((r) => [r.urlKey, r.depth]));
      const norm = { ignoreQueryParameters: options.ignoreQueryParameters };
      const filter = createLinkFilter(options.url, options);
      const formats = [...new Set(options.scrapeOptions.formats.map((f) => f.type))] as DocumentFormat[];
      let succeeded = 0;
      let failed = 0;

      const linksToFollow = (page: FetchedPage, links: string[]) => {
        const depth = depthOf.get(page.target.key) ?? 0;
        if (options.sitemap === 'only') return [];
        if (options.maxDiscoveryDepth !== undefined && depth >= options.maxDiscoveryDepth) return [];
        return links
          .filter((l) => filter.check(l).allowed)
          .map((l) => ({ url: canonicalUrl(l, norm), urlKey: urlKey(l, norm), depth: depth + 1 }));
      };

      const onPage = async (page: FetchedPage) => {
        const { document, discoveredLinks } = buildDocument({
          rawHtml: page.rawHtml,
          sourceURL: page.target.url,
          url: page.finalUrl,
          statusCode: page.statusCode,
          contentType: page.contentType,
          formats,
          onlyMainContent: options.scrapeOptions.onlyMainContent,
          includeTags: options.scrapeOptions.includeTags,
          excludeTags: options.scrapeOptions.excludeTags,
          removeBase64Images: options.scrapeOptions.removeBase64Images,
          screenshot: page.screenshot,
        });
        await storeScrapedPage(
          db,
          { crawlId, urlKey: page.target.key, url: page.target.url, statusCode: page.statusCode, document },
          linksToFollow(page, discoveredLinks),
          options.limit,
        );
        succeeded++;
        heartbeat({ handled: succeeded + failed });
      };

      const onFailure = async (target: ScrapeTarget, error: string) => {
        await storeFailedPage(db, { crawlId, urlKey: target.key, url: target.url, error });
        failed++;
        log.warn('page failed', { crawlId, url: target.url, error });
        heartbeat({ handled: succeeded + failed });
      };

      // Rows stored by an earlier attempt that died before marking them.
      for (const r of rows.filter((r) => stored.has(r.urlKey) && r.state === 'claimed')) {
        await db.crawlUrl.update({ where: { id: r.id }, data: { state: 'done' } });
      }

      // Pages heartbeat as they finish; this covers one slow page outliving the heartbeat timeout.
      const ticker = setInterval(() => heartbeat({ handled: succeeded + failed }), Math.max(1000, config.crawl.heartbeatTimeoutMs / 4));
      const signal = Context.current().cancellationSignal;
      try {
        await scrapeWithBrowser(
          todo.map((r) => ({ url: r.url, key: r.urlKey })),
          {
            chromiumPath: config.chromium.path,
            headless: config.chromium.headless,
            concurrency: input.concurrency,
            scrapeOptions: options.scrapeOptions,
            signal,
            onPage,
            onFailure,
          },
        );
      } finally {
        clearInterval(ticker);
      }
      // A batch completes only when every URL it claimed is stored; otherwise it
      // fails and its retry (same batch key, same URLs) handles the rest.
      if (signal.aborted) throw signal.reason;
      if (succeeded + failed < todo.length) {
        throw new Error(`batch ${input.batchKey} stopped after ${succeeded + failed} of ${todo.length} pages`);
      }
      const { queued } = await frontierCounts(db, crawlId);
      return { claimed: rows.length, succeeded, failed, queued };
    },

    /**
     * Records the crawl's end. A completion is refused (finished: false) while
     * the frontier still holds work, so the workflow goes on. The workflow calls
     * this with no batch in flight, so claimed rows are orphans (of a reset or
     * terminated run) and go back to the queue.
     */
    async finishCrawl(input: FinishCrawlInput): Promise<{ finished: boolean; queued: number }> {
      if (input.status === 'completed') {
        const counts = await frontierCounts(db, input.crawlId);
        if (counts.queued + counts.claimed > 0) {
          const released = await releaseClaims(db, input.crawlId);
          return { finished: false, queued: counts.queued + released };
        }
      }
      const now = new Date();
      await db.crawl.updateMany({
        where: { id: input.crawlId, status: 'scraping' },
        data: {
          status: input.status,
          error: input.error ?? null,
          completedAt: now,
          expiresAt: new Date(now.getTime() + config.crawl.retentionHours * 3_600_000),
        },
      });
      log.info('crawl finished', { crawlId: input.crawlId, status: input.status });
      return { finished: true, queued: 0 };
    },
  };
}

export type CrawlActivities = ReturnType<typeof createCrawlActivities>;
