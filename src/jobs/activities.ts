// Activities of crawlWorkflow, the workflow of every job kind: its settings,
// plan the frontier, scrape a batch (batch/scrape-batch.ts), finish. Each is
// idempotent: rows are keyed by (crawl, url key) and written with upserts,
// charges by (crawl, url key) in the ledger, and a batch's claim is keyed by
// the workflow, so retries and replays never duplicate a page or a charge.
import { createScrapeBatch } from './batch/scrape-batch.ts';
import { jobContext, readJob, sortLinks, type JobRow } from './job-context.ts';
import { ApplicationFailure } from '@temporalio/common';
import { createCrawlNetwork, type CrawlNetwork } from '../platform/net/outbound-network.ts';
import { chromiumLaunch } from '../platform/browser/chromium-launch.ts';
import { createWarmBrowser } from '../platform/browser/warm-browser.ts';
import { addToFrontier, frontierCounts, releaseClaims, skipQueued } from './frontier/frontier.ts';
import { canonicalUrl, urlKey } from './frontier/normalize-url.ts';
import { recordThreatBlocked, storeFailedPage } from './pages/page-store.ts';
import { fetchRobotsTxt } from './frontier/robots.ts';
import { collectSitemapUrls } from './frontier/sitemap.ts';
import type { CrawlRunSettings, CrawlStatus, JobCounts } from './definitions.ts';
import { jobCounts } from './job-status.ts';
import { crawlWebhook, writeCrawlEvent } from './webhooks/crawl-events.ts';
import type { ActivityDeps } from '../platform/temporal/activity-deps.ts';
import type { JobSettings } from './config.ts';
import { heartbeatIntervalMs, heartbeatWhile } from '../platform/temporal/heartbeat-while.ts';
import { withAttemptRecord } from '../platform/temporal/attempt-record.ts';
import { forgetBrowserGroup, requestBrowser } from '../platform/browser/browser-share.ts';
import { requestJobBrowser } from './batch/browser-demand.ts';
import { crawlConcurrency } from './concurrency.ts';
import { discoversLinks, jobKind } from './job-kind.ts';
import { notifyJobEnded } from './job-events.ts';
import { countJobEnded } from './job-metrics.ts';
import { FrontierState } from './frontier/frontier-state.ts';
import { isTooLong, tooLongReason } from './frontier/url-length.ts';
import { storableText } from '../platform/db/storable.ts';
import { createConversionPool } from '../page/conversion/conversion-pool.ts';
import { convertInline, type HtmlConverter } from '../page/conversion/html-conversion.ts';
import { createImageProbe } from '../page/rendering/image-probe.ts';
import { createOcrEngine } from '../page/ocr/ocr-engine.ts';
import { SqlTransactions } from '../platform/db/sql-transactions.ts';
// Declares the frontier's gauges in the processes that run these activities.
import './frontier/frontier-metrics.ts';

/** Sitemap URLs are filtered and queued this many at a time, so planning never holds more than one chunk's rows. */
const SITEMAP_CHUNK = 1_000;

export interface FinishCrawlInput {
  crawlId: string;
  status: Exclude<CrawlStatus, 'scraping'>;
  error?: string;
  outOfCredits?: boolean;
}

export interface FinishCrawlResult {
  finished: boolean;
  queued: number;
  completed?: number;
  counts?: JobCounts;
}

export const ROBOTS_WARNING =
  'One or more pages were unable to be crawled because the robots.txt file prevented this. They are listed by GET /v2/crawl/{id}/errors.';
export const CREDITS_WARNING = 'The crawl stopped early because the team ran out of credits; the pages still queued were not scraped.';

export type { ScrapeBatchInput, ScrapeBatchResult } from './batch/scrape-batch.ts';

export function createCrawlActivities({ db, config, log, network: givenNetwork }: ActivityDeps<JobSettings> & { network?: CrawlNetwork }) {
  const network = givenNetwork ?? createCrawlNetwork(config);
  // Pages are converted off the event loop (see conversion-pool.ts) unless CRAWL_CONVERSION_THREADS=0.
  const convertPage: HtmlConverter =
    config.crawl.conversionThreads > 0
      ? createConversionPool({ threads: config.crawl.conversionThreads, timeoutMs: config.crawl.conversionTimeoutMs }).convert
      : convertInline;
  const probeImages = createImageProbe(network.fetchImageHead, { timeoutMs: config.crawl.imageProbeTimeoutMs });

  const jobDeps = { db, config, network };
  const warmBrowser = config.crawl.warmBrowserIdleMs > 0 ? createWarmBrowser({ idleMs: config.crawl.warmBrowserIdleMs }) : undefined;
  // Each batch writes one group of pages at a time; a spare connection for the page written alone after a group failed.
  const pageStore = config.database.url
    ? new SqlTransactions({ databaseUrl: config.database.url, max: config.worker.browserSlots + 1, limits: config.database })
    : db;
  const scrapeBatch = createScrapeBatch({
    db,
    config,
    log,
    network,
    browser: chromiumLaunch(config.chromium),
    warmBrowser,
    convert: convertPage,
    probeImages,
    pageStore,
    ocr: createOcrEngine(config.ocr),
  });

  return {
    /**
     * Local activity: how this deployment runs the crawl, from the worker's own settings and
     * the crawl's options (the gateway decides none of it). Read once per workflow run.
     */
    async crawlSettings(crawlId: string): Promise<CrawlRunSettings> {
      return runSettings(await readJob(jobDeps, crawlId));
    },

    /**
     * Local activity, the whole first step of a single scrape's run in one: its settings, its plan
     * (stale claims released, its counts) and the browser demand of its first batch (`holder`), so
     * that its first workflow task schedules that batch right away. The three writes and reads are
     * independent and run at once; a cancelled scrape (its row no longer scraping) plans nothing and
     * asks for no browser.
     */
    async openSingleScrape(start: {
      crawlId: string;
      holder: string;
    }): Promise<{ settings: CrawlRunSettings; planned: { queued: number; counts?: JobCounts } }> {
      const { crawlId, holder } = start;
      const [read] = await Promise.all([
        readJob(jobDeps, crawlId),
        releaseClaims(db, crawlId),
        requestJobBrowser(db, { holder, pool: config.temporal.browserTaskQueue, crawlId }),
      ]);
      const settings = runSettings(read);
      if (read.crawl.status !== 'scraping') return { settings, planned: { queued: 0 } };
      const counts = await jobCounts(db, crawlId);
      return { settings, planned: { queued: counts.queued, counts } };
    },

    /** Local activity: a batch of the crawl is about to wait for a browser slot. */
    async queueForBrowser(work: { holder: string; crawlId: string; teamId: string }): Promise<void> {
      await requestBrowser(db, { holder: work.holder, pool: config.temporal.browserTaskQueue, teamId: work.teamId, groupId: work.crawlId });
    },

    /**
     * Heartbeats on a clock (heartbeatWhile): the workflow gives it the crawl's heartbeat timeout. A
     * single scrape runs it as a local activity (only its frontier's claims and counts: no fetch).
     */
    planCrawl(crawlId: string): Promise<{ queued: number; counts?: JobCounts }> {
      return withAttemptRecord({ db, log }, {}, () => heartbeatWhile(heartbeatIntervalMs(config.crawl.heartbeatTimeoutMs), () => planCrawl(crawlId)));
    },

    scrapeBatch,
    finishCrawl(input: FinishCrawlInput): Promise<FinishCrawlResult> {
      return withAttemptRecord({ db, log }, {}, () => heartbeatWhile(heartbeatIntervalMs(config.crawl.heartbeatTimeoutMs), () => finishCrawl(input)));
    },
  };

  /** How this deployment runs the job, from the worker's own settings and the job's options. */
  function runSettings({ crawl, options }: JobRow): CrawlRunSettings {
    const delay = options.delay;
    const { parallelBatches, pagesPerBatch } = crawlConcurrency({
      teamLimit: crawl.team.concurrencyLimit,
      // A single scrape has one page: a second batch would only wait for work that never comes.
      maxConcurrency: jobKind(crawl) === 'scrape' ? 1 : options.maxConcurrency,
      delay,
      pagesPerBrowser: config.crawl.pagesPerBrowser,
    });
    return {
      parallelBatches,
      pagesPerBatch,
      // With a delay every page is its own batch, so the pause is a workflow timer.
      batchSize: delay !== undefined ? 1 : config.crawl.batchSize,
      heartbeatTimeoutMs: config.crawl.heartbeatTimeoutMs,
      historyEventBudget: config.crawl.historyEventBudget,
      ...(delay !== undefined && { delayMs: Math.round(delay * 1000) }),
      browserTaskQueue: config.temporal.browserTaskQueue,
      hasWebhook: options.webhook !== undefined,
      teamId: crawl.teamId,
      // A batch scrape's URLs may be of many sites: its summaries name none.
      site: jobKind(crawl) === 'batch_scrape' ? undefined : URL.parse(crawl.url)?.host,
      discoversLinks: discoversLinks(jobKind(crawl)),
      progressIntervalMs: config.crawl.progressIntervalMs,
      singleScrape: jobKind(crawl) === 'scrape',
    };
  }

  /**
   * Reads robots.txt once, seeds the start URL and, unless sitemap is skip,
   * every sitemap URL (depth 0). Runs before any batch, so stale claims are released.
   */
  async function planCrawl(crawlId: string): Promise<{ queued: number; counts?: JobCounts }> {
    const read = await readJob(jobDeps, crawlId);
    // Cancelled before its workflow started (DELETE found none): the run only records the end.
    if (read.crawl.status !== 'scraping') return { queued: 0 };
    const { options } = read;
    await releaseClaims(db, crawlId);
    // A batch or a scrape was seeded with its URLs when it was made; robots.txt and sitemaps are crawl rules.
    if (!discoversLinks(jobKind(read.crawl))) {
      const counts = await jobCounts(db, crawlId);
      return { queued: counts.queued, counts };
    }
    const startOrigin = new URL(options.url).origin;
    const robotsBody = options.ignoreRobotsTxt ? null : await fetchRobotsTxt(startOrigin, read.robotsFetch, config.crawl.robotsMaxBytes);
    const robotsTxt = robotsBody === null ? null : storableText(robotsBody);
    await db.crawl.update({ where: { id: crawlId }, data: { robotsTxt } });
    const ctx = jobContext(jobDeps, { ...read, crawl: { ...read.crawl, robotsTxt } });
    const start = { url: canonicalUrl(options.url, ctx.norm), urlKey: urlKey(options.url, ctx.norm), depth: 0 };
    // The gateway refuses these; a crawl requested under a larger CRAWL_MAX_URL_LENGTH can still arrive here.
    if (isTooLong(start, config.crawl.maxUrlLength)) {
      throw ApplicationFailure.nonRetryable(`The start URL ${tooLongReason(start, config.crawl.maxUrlLength)}`, 'StartUrlTooLong');
    }

    // The start URL is always tried (as upstream), unless the caller's own filters or robots.txt exclude it.
    const startRule = ctx.filter.checkStart(options.url);
    const startAllowed = await ctx.robots.isAllowed(start.url);
    await db.$transaction(async (tx) => {
      // Not held to the team's balance: the gateway checked it, and the first batch stops the crawl if it is gone.
      await addToFrontier(tx, crawlId, [start], options.limit);
      if (!startAllowed) {
        await tx.crawlRobotsBlocked.createMany({ data: [{ crawlId, url: start.url, urlKey: start.urlKey }], skipDuplicates: true });
      }
    });
    if (!startRule.allowed || !startAllowed) {
      const why = !startRule.allowed ? `The start URL ${startRule.reason}` : 'robots.txt disallows the start URL';
      await storeFailedPage(db, { crawlId, urlKey: start.urlKey, url: start.url, error: `${why}, so it was not scraped.` }, crawlWebhook(options, 'crawl'));
    }

    if (options.sitemap !== 'skip') {
      // Four candidates per URL the frontier can still admit (filters drop many).
      const admissible = Math.min(options.limit, config.crawl.queuedUrlsPerCredit * Math.max(0, read.crawl.team.creditBalance));
      const maxUrls = Math.min(4 * admissible, config.crawl.sitemapTotalMaxUrls);
      const found = await collectSitemapUrls({
        startUrl: options.url,
        robotsSitemaps: ctx.robots.sitemaps,
        fetch: network.fetch,
        maxUrls,
        maxSitemaps: config.crawl.maxSitemaps,
        limits: { maxBytes: config.crawl.sitemapMaxBytes, maxUrls: config.crawl.sitemapMaxUrls },
      });
      let queued = 0;
      let tooLong = 0;
      for (let i = 0; i < found.urls.length; i += SITEMAP_CHUNK) {
        const sorted = await sortLinks(ctx, config.crawl.maxUrlLength, found.urls.slice(i, i + SITEMAP_CHUNK), 0);
        tooLong += sorted.tooLong;
        queued += await db.$transaction(async (tx) => {
          const added = await addToFrontier(tx, crawlId, sorted.follow, options.limit, config.crawl.queuedUrlsPerCredit);
          if (sorted.robotsBlocked.length)
            await tx.crawlRobotsBlocked.createMany({ data: sorted.robotsBlocked.map((b) => ({ crawlId, ...b })), skipDuplicates: true });
          await recordThreatBlocked(tx, crawlId, sorted.threatBlocked, crawlWebhook(options, 'crawl'));
          return added;
        });
      }
      if (found.errors.length) log.warn('sitemap errors', { crawlId, errors: found.errors.slice(0, 5) });
      log.info('sitemaps read', { crawlId, sitemaps: found.fetched.length, urls: found.urls.length, maxUrls, queued, tooLong });
    }
    const counts = await jobCounts(db, crawlId);
    log.info('crawl planned', { crawlId, queued: counts.queued });
    return { queued: counts.queued, counts };
  }

  /**
   * Records the crawl's end. A completion is refused (finished: false) while
   * the frontier still holds work, so the workflow goes on. The workflow calls
   * this with no batch in flight, so claimed rows are orphans (of a reset or
   * terminated run) and go back to the queue. A crawl out of credits ends
   * with its queue skipped. A finished crawl reports its successful pages
   * (`completed`, counted in the transaction that ends it), the number its
   * final webhook event and GET /v2/crawl/{id} give, and its final counts.
   */
  async function finishCrawl(input: FinishCrawlInput): Promise<FinishCrawlResult> {
    const { crawlId } = input;
    if (input.status === 'completed' && !input.outOfCredits) {
      const counts = await frontierCounts(db, crawlId);
      if (counts.queued + counts.claimed > 0) {
        const released = await releaseClaims(db, crawlId);
        return { finished: false, queued: counts.queued + released };
      }
    }
    if (input.outOfCredits) await skipQueued(db, crawlId);
    const blocked = await db.crawlRobotsBlocked.count({ where: { crawlId } });
    const warning = input.outOfCredits ? CREDITS_WARNING : blocked > 0 ? ROBOTS_WARNING : null;
    const now = new Date();
    const expiresAt = new Date(now.getTime() + config.crawl.retentionHours * 3_600_000);
    const end = await db.$transaction(async (tx) => {
      // URLs appended to a batch (appendToId) are added under this row lock while the batch
      // is scraping: either they are in the frontier now, or the batch is over when they come.
      await tx.$queryRaw`SELECT id FROM crawl WHERE id = ${crawlId}::uuid FOR UPDATE`;
      if (input.status === 'completed' && !input.outOfCredits) {
        const queued = await tx.crawlUrl.count({ where: { crawlId, state: FrontierState.queued } });
        if (queued > 0) return { appended: queued };
      }
      const ending = await tx.crawl.updateMany({
        where: { id: crawlId, status: 'scraping' },
        // A batch's last error may quote what a page or the database said about it.
        data: { status: input.status, error: input.error === undefined ? null : storableText(input.error), warning, completedAt: now, expiresAt },
      });
      // A crawl cancelled through the API already says so; it still gets its expiry.
      const cancelled = await tx.crawl.updateMany({ where: { id: crawlId, expiresAt: null }, data: { expiresAt } });
      const final = await tx.crawl.findUniqueOrThrow({ where: { id: crawlId }, select: { status: true, error: true, options: true, kind: true } });
      const completed = await tx.crawlPage.count({ where: { crawlId, success: true } });
      // A cancelled crawl ends with crawl.completed too; its status says how it ended.
      await writeCrawlEvent(tx, crawlId, crawlWebhook(final.options, jobKind(final)), {
        type: final.status === 'failed' ? 'crawl.failed' : 'crawl.completed',
        success: final.status !== 'failed',
        data: [{ status: final.status, completed }],
        ...(final.status === 'failed' && { error: final.error ?? 'The crawl failed' }),
      });
      await notifyJobEnded(tx, crawlId);
      // Only the attempt that gave the crawl its expiry ended it: a retried finish finds it set.
      const ended = ending.count + cancelled.count > 0 ? { kind: jobKind(final), status: final.status as FinishCrawlInput['status'] } : undefined;
      return { appended: 0, completed, ended };
    });
    if (end.appended > 0) return { finished: false, queued: end.appended };
    if (end.ended) countJobEnded(end.ended.kind, end.ended.status);
    await forgetBrowserGroup(db, crawlId);
    log.info('crawl finished', { crawlId, status: input.status });
    return { finished: true, queued: 0, completed: end.completed, counts: await jobCounts(db, crawlId) };
  }
}

export type CrawlActivities = ReturnType<typeof createCrawlActivities>;
