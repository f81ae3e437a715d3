// Activities of crawlWorkflow: plan the frontier, scrape a batch, finish. Each
// is idempotent: rows are keyed by (crawl, url key) and written with upserts,
// charges by (crawl, url key) in the ledger, and a batch's claim is keyed by
// the workflow, so retries and replays never duplicate a page or a charge.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { pageCredits } from '../platform/usage/credits.ts';
import { createCrawlNetwork, type CrawlNetwork } from '../platform/net/outbound-network.ts';
import { chromiumLaunch } from '../platform/browser/chromium-launch.ts';
import { crawlRobots } from './frontier/crawl-robots.ts';
import { addToFrontier, claimMore, heldClaims, frontierCounts, releaseClaims, returnClaim, skipQueued, type FrontierRow, type NewFrontierUrl } from './frontier/frontier.ts';
import { createLinkFilter } from './frontier/link-filter.ts';
import { canonicalUrl, urlKey, type NormalizeOptions } from './frontier/normalize-url.ts';
import { cacheKey, cacheWritable, lookupCache, NO_CACHED_DATA } from './pages/page-cache.ts';
import type { PageLoad } from '../page/page-load.ts';
import { documentFromLoad } from '../page/page-document.ts';
import { DocumentTooLargeError, DuplicateRedirectError, prepareDocument, storeFailedPage, storeScrapedPage, storeScrapedPages, type PageWrite, type PreparedDocument } from './pages/page-store.ts';
import { GroupCommit } from '../platform/db/group-commit.ts';
import { fetchRobotsTxt } from './frontier/robots.ts';
import { collectSitemapUrls } from './frontier/sitemap.ts';
import { BatchLeases } from './batch/batch-leases.ts';
import { teamSlotStore } from './batch/team-slot-store.ts';
import { describeError, REFILL_POLL_MS, scrapeWithBrowser, type FetchedPage, type ScrapeTarget, type TargetSupply } from '../page/browser-scraper.ts';
import { loadFile, looksLikePdfUrl } from '../page/load-pdf.ts';
import type { CrawlRunSettings, CrawlStatus } from './definitions.ts';
import { crawlWebhook, writeCrawlEvent } from './webhooks/crawl-events.ts';
import type { ActivityDeps } from '../platform/temporal/activity-deps.ts';
import { endBrowserLease, forgetBrowserGroup, type BrowserWork, renewBrowserLease, requestBrowser, shouldYield, startBrowserLease } from '../platform/browser/browser-share.ts';
import { crawlConcurrency } from './concurrency.ts';
import { BATCH_RETRY } from './retry-policies.ts';
import { crawlOptions } from './crawl-options.ts';
import { chargeEndpoint, discoversLinks, jobKind } from './job-kind.ts';
import { notifyJobEnded } from './job-events.ts';
import { FrontierState } from './frontier/frontier-state.ts';
import { isTooLong, tooLongReason } from './frontier/url-length.ts';
import { fileTooLargeMessage, pageOverLimitMessage, pageTooLargeMessage } from '../page/page-size.ts';
import { ResponseTooLargeError } from '../platform/net/guarded-fetch.ts';
import { storableText } from '../platform/db/storable.ts';
import { isRejectedData } from '../platform/db/rejected-data.ts';
import { pageEntryFromText, withImageSizes, type PageEntry } from '../page/index-entry/page-entry.ts';
import { fetchedWithoutCredentials } from './search-index/shareable.ts';
import { configuredLlm } from '../platform/llm/chat-completion.ts';
import { renderingRefusal, requestNeedsBrowser } from '../page/rendering/needs-browser.ts';
import { loadOverHttp } from '../page/http-load.ts';
import { runHttpLanes } from './batch/http-lanes.ts';
import { createConversionPool } from '../page/conversion/conversion-pool.ts';
import { convertInline, type HtmlConverter } from '../page/conversion/html-conversion.ts';
import { createImageProbe } from '../page/rendering/image-probe.ts';
import { BoundedMap } from '../platform/bounded-map.ts';
import { FileLoads } from './batch/file-loads.ts';

export interface ScrapeBatchInput {
  crawlId: string;
  /** Unique per batch of a workflow run; a retry reuses it and so gets the same URLs. */
  batchKey: string;
  /** Most URLs the batch claims in all; it claims them as they are found, while it runs. */
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
  /** The team's balance cannot pay for another page: the crawl stops here. */
  outOfCredits: boolean;
  /** The batch ended because nothing was left to claim (not because it reached its size). */
  starved?: boolean;
  /** The batch stopped claiming to give its browser to another crawl (fair share); its crawl has more to do. */
  yielded?: boolean;
}

/** Crawls whose script-rendered hosts a worker remembers (CRAWL_RENDERING=auto), and hosts per crawl. */
const SCRIPTED_HOST_CRAWLS = 1_000;
const SCRIPTED_HOSTS_PER_CRAWL = 10_000;

/**
 * How long a batch with nothing to do waits for other batches of its crawl to find
 * links. Waiting costs nobody: an idle batch holds no browser yet, and gives its worker
 * slot up at once to any other crawl's waiting batch (fair share). It must be long
 * enough for a slow site's first pages to yield links, or the crawl would run with
 * fewer browsers until a batch ends (a starved batch is not replaced before that).
 */
const BATCH_IDLE_MS = 120_000;

/**
 * A batch claims no new URLs after running this long, so that even pages that use their
 * whole timeout (at most 5 minutes) end it well within its 30-minute start-to-close limit.
 */
const BATCH_CLAIM_WINDOW_MS = 10 * 60_000;

/**
 * Checking links runs user patterns and robots rules on site-supplied URLs; a long
 * list gives the event loop back this often, so heartbeats and other batches go on.
 */
const LINK_CHECK_SLICE_MS = 50;

/** How often a running batch asks whether another crawl should have its browser. */
const YIELD_CHECK_MS = 1_000;

/** Most pages stored in one transaction (they are the pages that finished while the previous one ran). */
const PAGE_WRITE_GROUP = 32;

/** Sitemap URLs are filtered and queued this many at a time, so planning never holds more than one chunk's rows. */
const SITEMAP_CHUNK = 1_000;

export interface FinishCrawlInput {
  crawlId: string;
  status: Exclude<CrawlStatus, 'scraping'>;
  error?: string;
  outOfCredits?: boolean;
}

export const ROBOTS_WARNING =
  'One or more pages were unable to be crawled because the robots.txt file prevented this. They are listed by GET /v2/crawl/{id}/errors.';
export const CREDITS_WARNING = 'The crawl stopped early because the team ran out of credits; the pages still queued were not scraped.';

export function createCrawlActivities({ db, config, log, network: givenNetwork }: ActivityDeps & { network?: CrawlNetwork }) {
  const network = givenNetwork ?? createCrawlNetwork(config);
  const browser = chromiumLaunch(config.chromium);
  /**
   * CRAWL_RENDERING=auto: hosts whose pages looked script-rendered, per crawl, so that the crawl's
   * later batches on this worker send them straight to Chromium. Only an optimisation: a worker that
   * restarts, or another worker, learns it again from one page.
   */
  const scriptedHosts = new BoundedMap<string, Set<string>>(SCRIPTED_HOST_CRAWLS);
  // Pages are converted off the event loop (see conversion-pool.ts) unless CRAWL_CONVERSION_THREADS=0.
  const convertPage: HtmlConverter =
    config.crawl.conversionThreads > 0
      ? createConversionPool({ threads: config.crawl.conversionThreads, timeoutMs: config.crawl.conversionTimeoutMs}).convert
      : convertInline;
  const probeImages = createImageProbe(network.fetchImageHead, { timeoutMs: config.crawl.imageProbeTimeoutMs });

  async function readCrawl(crawlId: string) {
    const crawl = await db.crawl.findUnique({ where: { id: crawlId }, include: { team: true } });
    if (!crawl) throw ApplicationFailure.nonRetryable(`crawl ${crawlId} does not exist`, 'CrawlNotFound');
    const options = crawlOptions(crawl);
    // robotsUserAgent both fetches and is evaluated against robots.txt.
    const robotsAgent = options.robotsUserAgent ?? network.userAgents.desktop;
    const robotsFetch = options.robotsUserAgent ? network.fetchAs(options.robotsUserAgent) : network.fetch;
    return { crawl, options, robotsAgent, robotsFetch };
  }

  function crawlContext({ crawl, options, robotsAgent, robotsFetch }: Awaited<ReturnType<typeof readCrawl>>) {
    const norm: NormalizeOptions = { ignoreQueryParameters: options.ignoreQueryParameters };
    const robots = crawlRobots({
      crawlId: crawl.id,
      startUrl: options.url,
      startRobotsTxt: crawl.robotsTxt,
      userAgent: robotsAgent,
      ignore: options.ignoreRobotsTxt,
      fetch: robotsFetch,
      maxBytes: config.crawl.robotsMaxBytes,
    });
    return { crawl, kind: jobKind(crawl), team: crawl.team, options, norm, robots, filter: createLinkFilter(options.url, options), startKey: urlKey(options.url, norm) };
  }

  const loadCrawl = async (crawlId: string) => crawlContext(await readCrawl(crawlId));
  type CrawlContext = Awaited<ReturnType<typeof loadCrawl>>;

  const heartbeat = (details: unknown) => Context.current().heartbeat(details);

  /** Splits links into those to follow and those robots.txt keeps out; over-long ones are dropped and counted. */
  async function sortLinks(ctx: CrawlContext, links: string[], depth: number) {
    const follow: NewFrontierUrl[] = [];
    const robotsBlocked: { url: string; urlKey: string }[] = [];
    let sliceStart = performance.now();
    let tooLong = 0;
    for (const link of links) {
      if (performance.now() - sliceStart > LINK_CHECK_SLICE_MS) {
        await yieldToEventLoop();
        sliceStart = performance.now();
      }
      if (!ctx.filter.check(link).allowed) continue;
      const entry = { url: canonicalUrl(link, ctx.norm), urlKey: urlKey(link, ctx.norm) };
      if (isTooLong(entry, config.crawl.maxUrlLength)) tooLong++;
      else if (await ctx.robots.isAllowed(entry.url)) follow.push({ ...entry, depth });
      else robotsBlocked.push(entry);
    }
    return { follow, robotsBlocked, tooLong };
  }

  /** The body of scrapeBatch, run while the batch holds its browser lease. */
  async function scrapeLeasedBatch(input: ScrapeBatchInput, ctx: CrawlContext, work: BrowserWork, leaseMs: number): Promise<ScrapeBatchResult> {
    const { crawlId } = input;
    const { options, team } = ctx;
    const so = options.scrapeOptions;
    if (team.creditBalance <= 0) {
      return { claimed: 0, succeeded: 0, failed: 0, queued: (await frontierCounts(db, crawlId)).queued, outOfCredits: true };
    }
    const depthOf = new Map<string, number>();
    const zdr = options.zeroDataRetention;
    const pdfParser = so.parsers.find((p) => p.type === 'pdf');
    const pdfMaxPages = pdfParser?.maxPages;
    const charge = { teamId: team.id, apiKeyId: ctx.crawl.apiKeyId, endpoint: chargeEndpoint(ctx.kind) };
    const webhook = crawlWebhook(options, ctx.kind);
    const indexing = config.search.indexPages && !zdr;
    // Under zero data retention the page goes to no one else, an LLM provider included.
    const llm = zdr ? undefined : configuredLlm(config.llm);
    const shareable = fetchedWithoutCredentials(so);
    let claimed = 0;
    /** Claimed URLs this attempt must store (an earlier attempt may have stored some). */
    let todo = 0;
    let succeeded = 0;
    let failed = 0;
    let outOfCredits = false;
    let starved = false;
    let idleSince: number | undefined;
    const batchStarted = Date.now();
    const progress = () => heartbeat({ handled: succeeded + failed });

    // Pages handled at once (browser tabs, HTTP lanes) are stored together: see platform/db/group-commit.ts.
    const cacheFailed = (err: unknown) => log.warn('page cache write failed', { crawlId, error: describeError(err) });
    const pageWrites = new GroupCommit<PageWrite>({
      writeGroup: async (writes) => void (await storeScrapedPages(db, writes, cacheFailed)),
      writeOne: async ({ page, next }) => void (await storeScrapedPage(db, page, next, cacheFailed)),
      maxGroup: PAGE_WRITE_GROUP,
    });

    const fail = async (target: ScrapeTarget, error: string, statusCode?: number) => {
      await storeFailedPage(db, { crawlId, urlKey: target.key, url: target.url, error, statusCode }, webhook);
      failed++;
      log.warn('page failed', { crawlId, url: target.url, error });
      progress();
    };

    /** `overHttp`: the page was fetched by an HTTP lane (see loadInLane). */
    const handleLoad = async (target: ScrapeTarget, load: PageLoad, extras: { actions?: unknown; queuedMs?: number; fromCache: boolean; overHttp?: boolean }) => {
      const depth = depthOf.get(target.key) ?? 0;
      const final = { url: load.finalUrl, urlKey: urlKey(load.finalUrl, ctx.norm) };
      if (final.urlKey !== target.key) {
        // A redirect target gets a frontier row of its own, so it is held to the same length limit.
        if (isTooLong(final, config.crawl.maxUrlLength)) return fail(target, `The page redirected to a URL too long to crawl: ${tooLongReason(final, config.crawl.maxUrlLength)}`, load.statusCode);
        // Crawl rules: a URL a caller named (a batch's, a scrape's) may redirect anywhere, as upstream.
        if (discoversLinks(ctx.kind)) {
          // The start URL may redirect anywhere too; other redirects must stay within the crawl's rules.
          const rule = target.key === ctx.startKey ? { allowed: true as const } : ctx.filter.check(load.finalUrl);
          if (!rule.allowed) return fail(target, `Redirected to ${load.finalUrl}, which this crawl does not follow: ${rule.reason}`, load.statusCode);
          if (!(await ctx.robots.isAllowed(load.finalUrl))) return fail(target, `Redirected to ${load.finalUrl}, which robots.txt disallows`, load.statusCode);
        }
      }
      // Checked before any conversion: parsing and markdown cost grows with the page.
      const htmlBytes = load.rawHtml === undefined ? 0 : Buffer.byteLength(load.rawHtml);
      if (htmlBytes > config.crawl.maxPageBytes) return fail(target, pageTooLargeMessage(htmlBytes, config.crawl.maxPageBytes), load.statusCode);
      let discoveredLinks: string[];
      let document: PreparedDocument;
      let entry: PageEntry | undefined;
      const converting = performance.now();
      let unsized: string[] | undefined;
      try {
        const converted = await documentFromLoad(load, so, {
          sourceURL: target.url,
          actions: extras.actions,
          queuedMs: extras.queuedMs,
          llm,
          convert: convertPage,
          ...(indexing && { indexAs: final.urlKey }),
          ...(extras.overHttp && { checkScripted: rendering === 'auto', listImages: config.crawl.imageProbes }),
        });
        if ('needsBrowser' in converted) return toBrowser(target, converted.needsBrowser, true);
        const { built, entry: htmlEntry, indexError } = converted;
        entry = htmlEntry;
        unsized = converted.unsized;
        if (indexError !== undefined) log.warn('page not indexed', { crawlId, url: load.finalUrl, error: indexError });
        discoveredLinks = built.discoveredLinks;
        if (indexing && load.pdf) {
          entry = pageEntryFromText({ url: load.finalUrl, urlKey: final.urlKey, contentType: load.contentType ?? 'application/pdf', links: [], title: load.pdf.title, text: load.pdf.markdown });
        }
        document = prepareDocument(built.document, config.crawl.maxDocumentBytes);
      } catch (err) {
        if (err instanceof DocumentTooLargeError) return fail(target, err.message, load.statusCode);
        // The same page would fail the same way on every retry (e.g. nesting too deep for the converter).
        return fail(target, `The page could not be turned into a document: ${describeError(err)}`, load.statusCode);
      }
      const convertMs = performance.now() - converting;
      if (entry && unsized) {
        // What Chromium would have measured for the index (see page/rendering/image-probe.ts); cached copies keep it.
        load.imageSizes = await probeImages(unsized, load.finalUrl, crawlId, { headers: so.headers, insecureTls: so.skipTlsVerification ?? true, signal });
        entry = { ...entry, images: withImageSizes(entry.images, load.imageSizes) };
      }
      const followLinks =
        discoversLinks(ctx.kind) &&
        options.sitemap !== 'only' &&
        (options.maxDiscoveryDepth === undefined || depth < options.maxDiscoveryDepth) &&
        ctx.filter.followsLinksOn(load.finalUrl);
      const { follow, robotsBlocked, tooLong } = followLinks ? await sortLinks(ctx, discoveredLinks, depth + 1) : { follow: [], robotsBlocked: [], tooLong: 0 };
      if (tooLong > 0) log.info('links longer than CRAWL_MAX_URL_LENGTH dropped', { crawlId, url: target.url, dropped: tooLong, maxUrlLength: config.crawl.maxUrlLength });
      const storing = performance.now();
      try {
        await pageWrites.write({
          page: { crawlId, urlKey: target.key, url: target.url, statusCode: load.statusCode, document, finalUrlKey: final.urlKey, finalUrl: load.finalUrl },
          next: {
            follow,
            robotsBlocked,
            limit: options.limit,
            queuedPerCredit: config.crawl.queuedUrlsPerCredit,
            webhook,
            ...(entry && { index: { teamId: team.id, crawlId, shareable, entry } }),
            charge: { ...charge, credits: pageCredits({ zeroDataRetention: zdr, pdfPages: load.pdf && Math.min(load.pdf.numPages, pdfMaxPages ?? Infinity) }) },
            ...(!extras.fromCache && load.statusCode < 400 && cacheWritable(so, zdr) && { cache: { teamId: team.id, key: cacheKey(target.url, so), load } }),
          },
        });
      } catch (err) {
        if (err instanceof DuplicateRedirectError) return fail(target, err.message, load.statusCode);
        // A value PostgreSQL refuses is refused on every retry: the page fails, not the batch.
        if (isRejectedData(err)) return fail(target, `The page could not be stored: ${describeError(err)}`, load.statusCode);
        throw err;
      }
      // With 'batch timings', what bench/scrape.ts splits a scrape's latency into.
      log.debug('page timings', { crawlId, convertMs, storeMs: performance.now() - storing });
      succeeded++;
      progress();
    };

    // Team-wide concurrency: every page holds one of the team's slots while it loads.
    const signal = Context.current().cancellationSignal;
    const leases = new BatchLeases({
      // The attempt is part of the holder: a stopped attempt's late releases must not free its retry's slots.
      holderPrefix: `${input.batchKey}:${Context.current().info.attempt}`,
      slots: teamSlotStore(db, { teamId: team.id, group: crawlId, limit: team.concurrencyLimit, leaseMs }),
      browser: { renew: () => renewBrowserLease(db, input.batchKey, leaseMs), shouldYield: (q) => shouldYield(db, { ...work, ...q }) },
    });
    const acquireSlot = (_target: ScrapeTarget, abort: AbortSignal = signal) => leases.take(abort);

    /** Loads a file (a PDF, a download) under a slot that is held for it already. */
    const loadFileUnder = async (target: ScrapeTarget, slot: { waitedMs: number }) => {
      let load: PageLoad;
      try {
        load = await loadFile(target.url, network.fetchFile, { parsePdf: pdfParser !== undefined, maxPages: pdfMaxPages });
      } catch (err) {
        if (signal.aborted) throw err;
        return fail(target, err instanceof ResponseTooLargeError ? fileTooLargeMessage(config.crawl.maxFileBytes) : describeError(err));
      }
      await handleLoad(target, load, { queuedMs: slot.waitedMs || undefined, fromCache: false });
    };
    /** Files found outside an HTTP lane: loaded beside the batch, each under a slot of its own (see file-loads.ts). */
    const fileLoads = new FileLoads<ScrapeTarget>(input.concurrency, async (target) => {
      const slot = await acquireSlot(target);
      try {
        await loadFileUnder(target, slot);
      } finally {
        await slot.release();
      }
    });

    // CRAWL_RENDERING=auto: a page is fetched over HTTP first unless the request needs a browser;
    // http: every page is, and a request that needs a browser fails its pages (the gateway refuses it).
    const rendering = config.crawl.rendering;
    const browserRequired = requestNeedsBrowser(so);
    const httpFirst = rendering !== 'browser' && browserRequired === undefined;
    const scripted = scriptedHosts.getOrSet(crawlId, () => new Set());

    /** CRAWL_RENDERING=auto: pages the HTTP lanes found to need Chromium, for the browser to take. */
    const browserQueue: ScrapeTarget[] = [];
    let browserWanted: (() => void) | undefined;
    const addToBrowserQueue = (targets: ScrapeTarget[]) => {
      if (targets.length === 0) return;
      browserQueue.push(...targets);
      browserWanted?.();
    };
    /** `scriptedPage`: the page itself looked script-rendered (not its status, type or a failed fetch), so its host is remembered. */
    const toBrowser = (target: ScrapeTarget, reason: string, scriptedPage: boolean) => {
      if (scriptedPage && scripted.size < SCRIPTED_HOSTS_PER_CRAWL) scripted.add(new URL(target.url).host);
      log.debug('page goes to the browser', { crawlId, url: target.url, reason });
      addToBrowserQueue([target]);
    };

    /**
     * Loads a page without the browser, in an HTTP lane that holds a team slot for it (`waitedMs`:
     * how long this page waited for the slot). Returns its conversion and storage, which run
     * behind the lane; a page that needs the browser after all goes to it.
     */
    const loadInLane = async (target: ScrapeTarget, waitedMs: number): Promise<(() => Promise<void>) | void> => {
      try {
        const http = await loadOverHttp(target.url, network.fetchPage, { headers: so.headers, timeoutMs: so.timeout, insecureTls: so.skipTlsVerification ?? true, signal }, rendering === 'http' ? 'http' : 'auto');
        if ('browser' in http) return toBrowser(target, http.browser, false);
        // As the browser path does with a download: fetched again, with the file limits.
        if ('file' in http) return await loadFileUnder(target, { waitedMs });
        return () => handleLoad(target, http.load, { queuedMs: waitedMs || undefined, fromCache: false, overHttp: true });
      } catch (err) {
        // Only under http, where nothing else will try the page: auto sends failed fetches to the browser.
        if (signal.aborted) throw err;
        await fail(target, err instanceof ResponseTooLargeError ? pageOverLimitMessage(config.crawl.maxPageBytes) : describeError(err));
      }
    };

    /**
     * Claims up to `room` URLs: first what this batch key already holds (a retry), then
     * queued ones, never more than the batch size or the team's balance can pay for.
     */
    let retryChecked = false;
    const claim = async (room: number): Promise<{ rows: FrontierRow[]; earlier?: true } | null> => {
      if (!retryChecked) {
        retryChecked = true;
        const held = await heldClaims(db, crawlId, input.batchKey);
        if (held.length > 0) return { rows: held, earlier: true };
      }
      if (leases.yielding) return null;
      const want = Math.min(room, input.size - claimed);
      if (want <= 0 || Date.now() - batchStarted > BATCH_CLAIM_WINDOW_MS) return null;
      // Pages still in flight will be charged too; until they are, the balance may be spoken for.
      const rows = await claimMore(db, crawlId, input.batchKey, want, { teamId: team.id, inFlight: todo - succeeded - failed });
      if (rows.length > 0) return { rows };
      const { creditBalance } = await db.team.findUniqueOrThrow({ where: { id: team.id }, select: { creditBalance: true } });
      if (creditBalance <= 0) {
        outOfCredits = true;
        return null;
      }
      return { rows };
    };

    /**
     * Settles what needs no page load (stored by an earlier attempt, cached) and PDFs; returns the rest, by path.
     * Only rows an earlier attempt held can have been stored: storing a page ends its queued or claimed state in the same transaction.
     */
    const prepare = async (rows: FrontierRow[], earlier: boolean): Promise<{ http: ScrapeTarget[]; browser: ScrapeTarget[] }> => {
      const stored = new Set(
        earlier ? (await db.crawlPage.findMany({ where: { crawlId, urlKey: { in: rows.map((r) => r.urlKey) } }, select: { urlKey: true } })).map((p) => p.urlKey) : [],
      );
      for (const r of rows.filter((r) => stored.has(r.urlKey) && r.state === FrontierState.claimed)) {
        await db.crawlUrl.update({ where: { id: r.id }, data: { state: FrontierState.done } });
      }
      const open = rows.filter((r) => !stored.has(r.urlKey) && r.state !== FrontierState.done && r.state !== FrontierState.failed);
      todo += open.length;
      for (const r of open) depthOf.set(r.urlKey, r.depth);
      const targets = open.map((r) => ({ url: r.url, key: r.urlKey, cacheKey: cacheKey(r.url, so) }));
      const cached = await lookupCache(db, team.id, targets.map((t) => t.cacheKey), so, zdr);
      const browserTargets: ScrapeTarget[] = [];
      const httpTargets: ScrapeTarget[] = [];
      for (const t of targets) {
        const hit = cached.get(t.cacheKey);
        if (hit) await handleLoad(t, hit, { fromCache: true });
        else if (so.minAge !== undefined) await fail(t, NO_CACHED_DATA);
        else if (rendering === 'http' && browserRequired) await fail(t, renderingRefusal(browserRequired));
        else if (looksLikePdfUrl(t.url)) fileLoads.add(t);
        else if (httpFirst && !scripted.has(new URL(t.url).host)) httpTargets.push({ url: t.url, key: t.key });
        else browserTargets.push({ url: t.url, key: t.key });
      }
      return { http: httpTargets, browser: browserTargets };
    };

    /**
     * The batch's source of URLs, by path. While other batches (or this one) still hold pages that
     * may add links, an empty frontier means "wait", for at most BATCH_IDLE_MS with nothing to do.
     */
    const supply = async (room: number): Promise<{ http: ScrapeTarget[]; browser: ScrapeTarget[]; exhausted: boolean }> => {
      for (;;) {
        // A file that could not be stored is not the page's fault: the batch fails, and its retry loads the file again.
        if (fileLoads.failure) throw fileLoads.failure.error;
        const got = await claim(room);
        if (got === null) return { http: [], browser: [], exhausted: true };
        const { rows, earlier = false } = got;
        if (rows.length > 0) {
          claimed += rows.length;
          idleSince = undefined;
          const { http, browser } = await prepare(rows, earlier);
          if (http.length + browser.length > 0) return { http, browser, exhausted: false };
          continue;
        }
        const counts = await frontierCounts(db, crawlId);
        if (counts.queued > 0 || succeeded + failed < todo) return { http: [], browser: [], exhausted: false };
        if (counts.claimed === 0) starved = true;
        else if ((idleSince ??= Date.now()) + BATCH_IDLE_MS < Date.now()) starved = true;
        return { http: [], browser: [], exhausted: starved };
      }
    };

    const ticker = setInterval(() => {
      progress();
      leases.renew().catch((err) => log.warn('lease renewal failed', { crawlId, error: describeError(err) }));
    }, Math.max(1000, config.crawl.heartbeatTimeoutMs / 4));
    let asking = false;
    const yieldTicker = setInterval(() => {
      // A retry first settles the rows its earlier attempt held; only then may it step aside.
      if (leases.yielding || asking || !retryChecked) return;
      asking = true;
      leases
        .checkYield({ sliceUsed: Date.now() - batchStarted >= config.crawl.browserTimeSliceMs, idle: idleSince !== undefined })
        .then((to) => {
          if (to) log.info('batch gives its browser up', { crawlId, batchKey: input.batchKey, to, afterMs: Date.now() - batchStarted });
        })
        .catch((err) => log.warn('fair-share check failed', { crawlId, error: describeError(err) }))
        .finally(() => (asking = false));
    }, YIELD_CHECK_MS);
    const giveBack = async (target: ScrapeTarget) => {
      await returnClaim(db, crawlId, input.batchKey, target.key);
      todo--;
    };
    const runBrowser = async (targets: ScrapeTarget[], moreTargets: ((room: number) => Promise<TargetSupply>) | undefined) => {
      const browserStarted = performance.now();
      await scrapeWithBrowser(targets, {
        browser,
        concurrency: input.concurrency,
        scrapeOptions: so,
        maxPageBytes: config.crawl.maxPageBytes,
        measureImages: indexing,
        userAgents: network.userAgents,
        proxyServer: await network.proxyServer(),
        explainFailure: network.explainFailure,
        signal,
        acquireSlot,
        moreTargets,
        onPage: (page: FetchedPage) => {
          // The guard proxy answers a refused address with 403 and an unreachable one with 502:
          // then the page is the proxy's refusal, not the site's answer.
          const failure = page.statusCode === 403 || page.statusCode === 502 ? network.explainFailure(page.finalUrl) : undefined;
          if (failure) return fail(page.target, failure);
          return handleLoad(
            page.target,
            { finalUrl: page.finalUrl, statusCode: page.statusCode, contentType: page.contentType, rawHtml: page.rawHtml, screenshot: page.screenshot, imageSizes: page.imageSizes },
            { actions: page.actions, queuedMs: page.waitedMs || undefined, fromCache: false },
          );
        },
        onFailure: (target, error) => fail(target, error),
        // Giving the browser up: pages not yet opened go back to the queue for the crawl's next batch.
        returnUnstarted: () => leases.yielding,
        onReturned: giveBack,
        onDownload: async (target) => fileLoads.add(target),
      });
      log.debug('batch timings', { crawlId, browserMs: performance.now() - browserStarted });
    };

    try {
      if (!httpFirst && rendering !== 'http') {
        const moreTargets = async (room: number): Promise<TargetSupply> => {
          const { browser: targets, exhausted } = await supply(room);
          return { targets, exhausted };
        };
        const first = await moreTargets(2 * input.concurrency);
        // A single scrape's one URL is all it will ever have: no asking for more while it loads.
        if (!signal.aborted && (first.targets.length > 0 || !first.exhausted)) await runBrowser(first.targets, first.exhausted || ctx.kind === 'scrape' ? undefined : moreTargets);
      } else {
        // HTTP lanes load the pages; Chromium starts only once one of them needs it (under http none ever does).
        let lanesDone = false;
        let browserFailed = false;
        const lanes = runHttpLanes({
          lanes: input.concurrency,
          more: async (room) => {
            const { http, browser: targets, exhausted } = await supply(room);
            addToBrowserQueue(targets);
            return { targets: http, exhausted };
          },
          openLane: () => leases.take(signal),
          load: loadInLane,
          stopTaking: () => leases.yielding || browserFailed,
          giveBack,
          signal,
          pollMs: REFILL_POLL_MS,
        }).finally(() => {
          lanesDone = true;
          browserWanted?.();
        });
        const chromium = (async () => {
          while (browserQueue.length === 0 && !lanesDone) await new Promise<void>((resolve) => (browserWanted = resolve));
          browserWanted = undefined;
          if (browserQueue.length === 0 || signal.aborted) return;
          const fromLanes = async (room: number): Promise<TargetSupply> => ({ targets: browserQueue.splice(0, room), exhausted: lanesDone && browserQueue.length === 0 });
          await runBrowser(browserQueue.splice(0), lanesDone && ctx.kind === 'scrape' ? undefined : fromLanes).catch((err: unknown) => {
            browserFailed = true;
            throw err;
          });
        })();
        const settled = await Promise.allSettled([lanes, chromium]);
        for (const result of settled) if (result.status === 'rejected') throw result.reason;
      }
      // Files not started when the batch stops early go back to the queue; those loading are finished.
      if (leases.yielding) for (const target of fileLoads.takeQueued()) await giveBack(target);
      await fileLoads.drain();
    } finally {
      // A batch that failed leaves its unstarted files to its retry, but lets no load outlive it.
      fileLoads.takeQueued();
      await fileLoads.drain().catch(() => undefined);
      clearInterval(ticker);
      clearInterval(yieldTicker);
      await leases.close().catch((err) => log.warn('slot release failed', { crawlId, error: describeError(err) }));
    }
    // A batch completes only when every URL it claimed is stored; otherwise it
    // fails and its retry (same batch key, same URLs) handles the rest.
    if (signal.aborted) throw signal.reason;
    if (succeeded + failed < todo) {
      throw new Error(`batch ${input.batchKey} stopped after ${succeeded + failed} of ${todo} pages`);
    }
    const { queued } = await frontierCounts(db, crawlId);
    return { claimed, succeeded, failed, queued, outOfCredits, starved, yielded: leases.yielding };
}

  return {
    /**
     * Local activity: how this deployment runs the crawl, from the worker's own settings and
     * the crawl's options (the gateway decides none of it). Read once per workflow run.
     */
    async crawlSettings(crawlId: string): Promise<CrawlRunSettings> {
      const { crawl, options } = await readCrawl(crawlId);
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
      };
    },

    /** Local activity: a batch of the crawl is about to wait for a browser slot. */
    async queueForBrowser(work: { holder: string; crawlId: string; teamId: string }): Promise<void> {
      await requestBrowser(db, { holder: work.holder, pool: config.temporal.browserTaskQueue, teamId: work.teamId, groupId: work.crawlId });
    },

    /**
     * Reads robots.txt once, seeds the start URL and, unless sitemap is skip,
     * every sitemap URL (depth 0). Runs before any batch, so stale claims are released.
     */
    async planCrawl(crawlId: string): Promise<{ queued: number }> {
      const read = await readCrawl(crawlId);
      // Cancelled before its workflow started (DELETE found none): the run only records the end.
      if (read.crawl.status !== 'scraping') return { queued: 0 };
      const { options } = read;
      await releaseClaims(db, crawlId);
      // A batch or a scrape was seeded with its URLs when it was made; robots.txt and sitemaps are crawl rules.
      if (!discoversLinks(jobKind(read.crawl))) return { queued: (await frontierCounts(db, crawlId)).queued };
      const startOrigin = new URL(options.url).origin;
      const robotsBody = options.ignoreRobotsTxt ? null : await fetchRobotsTxt(startOrigin, read.robotsFetch, config.crawl.robotsMaxBytes);
      const robotsTxt = robotsBody === null ? null : storableText(robotsBody);
      await db.crawl.update({ where: { id: crawlId }, data: { robotsTxt } });
      heartbeat('robots.txt');
      const ctx = crawlContext({ ...read, crawl: { ...read.crawl, robotsTxt } });
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
        heartbeat('sitemaps');
        let queued = 0;
        let tooLong = 0;
        for (let i = 0; i < found.urls.length; i += SITEMAP_CHUNK) {
          const sorted = await sortLinks(ctx, found.urls.slice(i, i + SITEMAP_CHUNK), 0);
          tooLong += sorted.tooLong;
          queued += await db.$transaction(async (tx) => {
            const added = await addToFrontier(tx, crawlId, sorted.follow, options.limit, config.crawl.queuedUrlsPerCredit);
            if (sorted.robotsBlocked.length) await tx.crawlRobotsBlocked.createMany({ data: sorted.robotsBlocked.map((b) => ({ crawlId, ...b })), skipDuplicates: true });
            return added;
          });
          heartbeat('sitemap URLs');
        }
        if (found.errors.length) log.warn('sitemap errors', { crawlId, errors: found.errors.slice(0, 5) });
        log.info('sitemaps read', { crawlId, sitemaps: found.fetched.length, urls: found.urls.length, maxUrls, queued, tooLong });
      }
      const { queued } = await frontierCounts(db, crawlId);
      log.info('crawl planned', { crawlId, queued });
      return { queued };
    },

    /**
     * One browser's worth of a crawl, on the browser queue: holds a browser lease while it runs
     * (fair share, see platform/browser/browser-share.ts) and waits for a slot again if it fails.
     */
    async scrapeBatch(input: ScrapeBatchInput): Promise<ScrapeBatchResult> {
      const ctx = await loadCrawl(input.crawlId);
      const work = { holder: input.batchKey, pool: config.temporal.browserTaskQueue, teamId: ctx.team.id, groupId: input.crawlId };
      const leaseMs = config.crawl.heartbeatTimeoutMs * 2;
      await startBrowserLease(db, work, leaseMs);
      let threw = false;
      try {
        return await scrapeLeasedBatch(input, ctx, work, leaseMs);
      } catch (err) {
        threw = true;
        throw err;
      } finally {
        const ctx = Context.current();
        const willRetry = threw && !ctx.cancellationDetails?.cancelRequested && ctx.info.attempt < (BATCH_RETRY.maximumAttempts ?? Infinity);
        await endBrowserLease(db, work, { willRetry }).catch((err) => log.warn('browser lease release failed', { crawlId: input.crawlId, error: describeError(err) }));
      }
    },
    /**
     * Records the crawl's end. A completion is refused (finished: false) while
     * the frontier still holds work, so the workflow goes on. The workflow calls
     * this with no batch in flight, so claimed rows are orphans (of a reset or
     * terminated run) and go back to the queue. A crawl out of credits ends
     * with its queue skipped.
     */
    async finishCrawl(input: FinishCrawlInput): Promise<{ finished: boolean; queued: number }> {
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
      const appended = await db.$transaction(async (tx) => {
        // URLs appended to a batch (appendToId) are added under this row lock while the batch
        // is scraping: either they are in the frontier now, or the batch is over when they come.
        await tx.$queryRaw`SELECT id FROM crawl WHERE id = ${crawlId}::uuid FOR UPDATE`;
        if (input.status === 'completed' && !input.outOfCredits) {
          const queued = await tx.crawlUrl.count({ where: { crawlId, state: FrontierState.queued } });
          if (queued > 0) return queued;
        }
        await tx.crawl.updateMany({
          where: { id: crawlId, status: 'scraping' },
          // A batch's last error may quote what a page or the database said about it.
          data: { status: input.status, error: input.error === undefined ? null : storableText(input.error), warning, completedAt: now, expiresAt },
        });
        // A crawl cancelled through the API already says so; it still gets its expiry.
        await tx.crawl.updateMany({ where: { id: crawlId, expiresAt: null }, data: { expiresAt } });
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
        return 0;
      });
      if (appended > 0) return { finished: false, queued: appended };
      await forgetBrowserGroup(db, crawlId);
      log.info('crawl finished', { crawlId, status: input.status });
      return { finished: true, queued: 0 };
    },
  };
}

export type CrawlActivities = ReturnType<typeof createCrawlActivities>;
