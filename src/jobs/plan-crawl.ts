// Plans a job before any batch runs (the planCrawl activity): stale claims are released, and a
// crawl reads robots.txt once, seeds its start URL and, unless sitemap is skip, every sitemap URL
// (depth 0). A batch or a scrape was seeded with its URLs when it was made; robots.txt and
// sitemaps are crawl rules.
import { ApplicationFailure } from '@temporalio/common';
import type { Logger } from '../platform/log.ts';
import { storableText } from '../platform/db/storable.ts';
import type { JobCounts } from './definitions.ts';
import type { JobSettings } from './config.ts';
import { jobContext, readJob, sortLinks, type JobContext, type JobContextDeps, type JobRow } from './job-context.ts';
import { addToFrontier, releaseClaims } from './frontier/frontier.ts';
import { canonicalUrl, urlKey } from './frontier/normalize-url.ts';
import { fetchRobotsTxt } from './frontier/robots.ts';
import { collectSitemapUrls } from './frontier/sitemap.ts';
import { isTooLong, tooLongReason } from './frontier/url-length.ts';
import { recordThreatBlocked, storeFailedPage } from './pages/page-store.ts';
import { crawlWebhook } from './webhooks/crawl-events.ts';
import { jobCounts } from './job-status.ts';
import { discoversLinks, jobKind } from './job-kind.ts';

/** Sitemap URLs are filtered and queued this many at a time, so planning never holds more than one chunk's rows. */
const SITEMAP_CHUNK = 1_000;

export interface PlannedJob {
  queued: number;
  counts?: JobCounts;
}

export type PlanDeps = JobContextDeps & { log: Logger };

export async function planCrawl(deps: PlanDeps, crawlId: string): Promise<PlannedJob> {
  const { db, config, log } = deps;
  const read = await readJob(deps, crawlId);
  // Cancelled before its workflow started (DELETE found none): the run only records the end.
  if (read.crawl.status !== 'scraping') return { queued: 0 };
  await releaseClaims(db, crawlId);
  if (!discoversLinks(jobKind(read.crawl))) return plannedCounts(deps, crawlId);
  const ctx = await readRobotsTxt(deps, read);
  await seedStartUrl(deps, ctx);
  if (read.options.sitemap !== 'skip') await queueSitemapUrls(deps, ctx, sitemapUrlBudget(config.crawl, read));
  const planned = await plannedCounts(deps, crawlId);
  log.info('crawl planned', { crawlId, queued: planned.queued });
  return planned;
}

async function plannedCounts({ db }: Pick<JobContextDeps, 'db'>, crawlId: string): Promise<PlannedJob> {
  const counts = await jobCounts(db, crawlId);
  return { queued: counts.queued, counts };
}

/** Fetches robots.txt once (unless ignored) and keeps it on the row: every batch reads it from there. */
async function readRobotsTxt({ db, config }: JobContextDeps, read: JobRow): Promise<JobContext> {
  const { options } = read;
  const startOrigin = new URL(options.url).origin;
  const robotsBody = options.ignoreRobotsTxt ? null : await fetchRobotsTxt(startOrigin, read.robotsFetch, config.crawl.robotsMaxBytes);
  const robotsTxt = robotsBody === null ? null : storableText(robotsBody);
  await db.job.update({ where: { id: read.crawl.id }, data: { robotsTxt } });
  return jobContext({ config }, { ...read, crawl: { ...read.crawl, robotsTxt } });
}

/** The start URL is always tried (as upstream), unless the caller's own filters or robots.txt exclude it. */
async function seedStartUrl({ db, config }: JobContextDeps, ctx: JobContext): Promise<void> {
  const { options } = ctx;
  const crawlId = ctx.crawl.id;
  const start = { url: canonicalUrl(options.url, ctx.norm), urlKey: urlKey(options.url, ctx.norm), depth: 0 };
  // The gateway refuses these; a crawl requested under a larger CRAWL_MAX_URL_LENGTH can still arrive here.
  if (isTooLong(start, config.crawl.maxUrlLength)) {
    throw ApplicationFailure.nonRetryable(`The start URL ${tooLongReason(start, config.crawl.maxUrlLength)}`, 'StartUrlTooLong');
  }
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
}

/** Most sitemap URLs worth reading: four candidates per URL the frontier can still admit (filters drop many). */
export function sitemapUrlBudget(
  crawl: Pick<JobSettings['crawl'], 'queuedUrlsPerCredit' | 'sitemapTotalMaxUrls'>,
  { crawl: { team }, options }: { crawl: { team: { creditBalance: number } }; options: { limit: number } },
): number {
  const admissible = Math.min(options.limit, crawl.queuedUrlsPerCredit * Math.max(0, team.creditBalance));
  return Math.min(4 * admissible, crawl.sitemapTotalMaxUrls);
}

/** Reads the site's sitemaps and queues what the crawl's rules admit, a chunk at a time. */
async function queueSitemapUrls({ db, config, network, log }: PlanDeps, ctx: JobContext, maxUrls: number): Promise<void> {
  const { options } = ctx;
  const crawlId = ctx.crawl.id;
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
