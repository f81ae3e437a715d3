// How a worker loads a batch's pages: over HTTP through the address guard, files
// with the file limits, and Chromium through Crawlee (page/browser-scraper.ts)
// with the guard proxy. Every request takes its host's turn first (the host
// budget, jobs/politeness/). Failures that are the page's own come back as
// `{ failed }`; a cancelled batch throws.
import type { ChromiumLaunch } from '../../platform/browser/chromium-launch.ts';
import type { WarmLauncher } from '../../platform/browser/warm-browser.ts';
import type { CrawlSettings } from '../config.ts';
import { ResponseTooLargeError } from '../../platform/net/guarded-fetch.ts';
import type { CrawlNetwork } from '../../platform/net/outbound-network.ts';
import type { ProxyRoute } from '../../platform/net/proxy-pools/proxy-router.ts';
import type { Logger } from '../../platform/log.ts';
import { AD_HOST_REFUSAL } from '../../page/ad-block.ts';
import { scrapeWithBrowser, type FetchedPage, type ScrapeTarget } from '../../page/browser-scraper.ts';
import { describeError } from '../../page/describe-error.ts';
import { loadOverHttp, type FetchPage } from '../../page/http-load.ts';
import { loadFile } from '../../page/load-pdf.ts';
import { fileTooLargeMessage, pageOverLimitMessage } from '../../page/page-size.ts';
import type { OcrEngine } from '../../page/ocr/ocr-engine.ts';
import { parsesImages, pdfParser, type ScrapeOptions } from '../../page/scrape-options.ts';
import type { BatchLoaders, BrowserHooks } from './run-batch.ts';
import { politely, type PoliteRequests } from '../politeness/polite-requests.ts';
import { browserTurns, type ThrottleTries } from '../politeness/browser-turns.ts';
import { browserVerdicts, type BrowserVerdict } from './browser-verdicts.ts';

export interface BatchLoaderDeps {
  network: CrawlNetwork;
  browser: ChromiumLaunch;
  /** The worker's warm browser, for a single scrape's page (a fresh context in it). */
  warm?: WarmLauncher;
  limits: Pick<CrawlSettings, 'maxPageBytes' | 'maxFileBytes' | 'rendering'>;
  scrapeOptions: ScrapeOptions;
  /** Pages open at once in the batch's browser. */
  concurrency: number;
  /** The browser measures images for the search index. */
  measureImages: boolean;
  /** The worker's OCR (pdf parser modes auto and ocr, the image parser). */
  ocr: OcrEngine;
  /** The host budget the batch's requests take their turns from. */
  polite: PoliteRequests;
  /** Throttled answers Chromium got per page, across the worker's batches (keyed by job and URL key). */
  browserThrottles: ThrottleTries;
  /** The job's ids: a throttled page goes back to the queue under `<jobId>:<url key>`; none for a single scrape, which fails it instead. */
  requeueKey?(target: { key: string }): string;
  signal: AbortSignal;
  log: Logger;
}

/** A file fetch's own time limit (platform/net/outbound-network.ts), for the lease of its host turn. */
const FILE_TIMEOUT_MS = 30_000;

export function createBatchLoaders(d: BatchLoaderDeps): BatchLoaders {
  const so = d.scrapeOptions;
  const pdfOptions = pdfParser(so);
  // A scrape's caller stops waiting after its timeout: OCR beyond it would be read for no one.
  const fileOptions = {
    pdf: pdfOptions,
    images: parsesImages(so),
    ocr: { engine: d.ocr, budgetMs: Math.min(d.ocr.settings.documentTimeoutMs, so.timeout), signal: d.signal },
  };
  // The pools this job's pages go through: its proxy mode and location's country.
  const proxy: ProxyRoute = { mode: so.proxy, ...(so.location && { country: so.location.country }) };
  const pageFailure = (err: unknown, tooLarge: string) => {
    if (d.signal.aborted) throw err;
    return { failed: err instanceof ResponseTooLargeError ? tooLarge : describeError(err) };
  };
  const fetchPage: FetchPage = async (url, opts) => {
    await primeTier(d, proxy, url);
    return politely(d.polite, url, opts, () => d.network.fetchPage(url, opts));
  };
  const fetchFile = async (url: string) => {
    await primeTier(d, proxy, url);
    return politely(d.polite, url, { timeoutMs: FILE_TIMEOUT_MS, signal: d.signal }, () => d.network.fetchFile(url, proxy));
  };
  return {
    async overHttp(target) {
      try {
        const opts = { headers: so.headers, timeoutMs: so.timeout, insecureTls: so.skipTlsVerification ?? true, signal: d.signal, proxy };
        return await loadOverHttp(target.url, fetchPage, opts, d.limits.rendering === 'http' ? 'http' : 'auto');
      } catch (err) {
        // Only under http, where nothing else will try the page: auto sends failed fetches to the browser.
        return pageFailure(err, pageOverLimitMessage(d.limits.maxPageBytes));
      }
    },
    async file(target) {
      try {
        return await loadFile(target.url, fetchFile, fileOptions);
      } catch (err) {
        return pageFailure(err, fileTooLargeMessage(d.limits.maxFileBytes));
      }
    },
    browser: (targets, hooks) => loadInBrowser(d, proxy, targets, hooks),
  };
}

/** The host's proxy tier as any worker learned it, read before its request (at most every 10 s per host). */
async function primeTier(d: BatchLoaderDeps, proxy: ProxyRoute, url: string): Promise<void> {
  if (d.network.proxies.configured) await d.network.proxies.prime(proxy, [new URL(url).hostname]);
}

/** Loads the targets in Chromium through the guard proxy of the job's pools, each page after its host's turn. */
async function loadInBrowser(d: BatchLoaderDeps, proxy: ProxyRoute, targets: ScrapeTarget[], hooks: BrowserHooks): Promise<void> {
  const so = d.scrapeOptions;
  const started = performance.now();
  // With blockAds, a guard proxy that also refuses the ad hosts: pages then need no blocking of their own.
  const proxyServer = await d.network.proxyServer({ proxy, ...(so.blockAds && { refusedHosts: AD_HOST_REFUSAL }) });
  const explainFailure = (url: string) => d.network.explainFailure(url, proxyServer);
  const turns = browserTurns(d.polite, {
    timeoutMs: so.timeout,
    maxRetries: d.polite.maxRetries,
    tries: d.browserThrottles,
    retryKey: (target) => d.requeueKey?.(target),
  });
  const verdictOf = browserVerdicts({ turns, router: d.network.proxies, route: proxy });
  const verdicts = new WeakMap<FetchedPage, BrowserVerdict>();
  await scrapeWithBrowser(targets, {
    browser: d.browser,
    warm: d.warm,
    concurrency: d.concurrency,
    scrapeOptions: so,
    maxPageBytes: d.limits.maxPageBytes,
    measureImages: d.measureImages,
    userAgents: d.network.userAgents,
    proxyServer,
    proxyBlocksAds: so.blockAds,
    explainFailure,
    log: d.log,
    signal: d.signal,
    acquireSlot: async (target, abort) => {
      await primeTier(d, proxy, target.url);
      return turns.around(target, abort, () => hooks.slot(abort));
    },
    moreTargets: hooks.more,
    loadAgain: async (page: FetchedPage) => {
      // The guard proxy answers a refused address with 403 and an unreachable one with 502:
      // then the page is the proxy's refusal, not the site's answer.
      const failure = page.statusCode === 403 || page.statusCode === 502 ? explainFailure(page.finalUrl) : undefined;
      const verdict = failure ? { kind: 'failed' as const, error: failure } : await verdictOf(page);
      verdicts.set(page, verdict);
      return verdict.kind === 'again';
    },
    onPage: async (page: FetchedPage) => {
      const verdict = verdicts.get(page);
      if (verdict?.kind === 'returned') return hooks.returned(page.target);
      if (verdict?.kind === 'failed') return hooks.failure(page.target, verdict.error);
      const { target, actions, waitedMs, loadMs, retryAfter: _retryAfter, ...load } = page;
      return hooks.page(target, load, { actions, queuedMs: waitedMs || undefined, loadMs });
    },
    onFailure: hooks.failure,
    returnUnstarted: hooks.stopOpening,
    onReturned: hooks.returned,
    onDownload: hooks.download,
  });
  // With 'page timings', what bench/scrape.ts splits a scrape's latency into.
  d.log.debug('batch timings', { browserMs: performance.now() - started });
}
