// Loads pages in Chromium through Crawlee's PlaywrightCrawler. One crawler (and
// one browser) serves one batch of URLs, which the caller may keep topping up
// while the batch runs (moreTargets), so the browser stays busy as links are
// found; the caller receives each page's raw material and decides what to
// store. Tuning: fixed concurrency (Crawlee's autoscaling starts at one page
// and adds one every 10 s, too slow for a batch), no fingerprints (a generated
// one only costs a crawler that wants the page's content), no session pool so
// 4xx/5xx pages reach the handler instead of being retried.
// Everything per page that is not needed for the requested options is left out:
// the benchmark is a bare PlaywrightCrawler with the same browser settings.
import { Configuration, CriticalError, NonRetryableError, log as crawleeLog } from '@crawlee/core';
import { PlaywrightCrawler, type PlaywrightCrawlingContext } from '@crawlee/playwright';
import { chromium, type Page } from 'playwright';
import type { ChromiumLaunch } from '../platform/browser/chromium-launch.ts';
import type { WarmLauncher } from '../platform/browser/warm-browser.ts';
import { parsesImages, type ScrapeOptions } from './scrape-options.ts';
import { ActionFailure, runActions, type ActionResults } from './actions.ts';
import { pageHtml } from './capture.ts';
import { imageSizes, type ImageSizes } from './image-sizes.ts';
import { requestedFormats, type Requested } from './formats/registry.ts';
import type { PageLoad } from './page-load.ts';
import { failedContentType, isDownloadError, isFileContentType, isNetworkError, watchNavigation, type NavigationWatch } from './navigation-failure.ts';
import { PageBudget, PageTimeoutError } from './page-budget.ts';
import { PageTooLargeError } from './page-size.ts';
import { pageContext, preparePage } from './page-context.ts';
import { shareBrowserVersion } from './crawlee-browser-version.ts';
import { DEFAULT_USER_AGENTS, type UserAgents } from '../platform/net/user-agents.ts';
import { PageSlots, SlotWaitInterrupted, type SlotLease } from './page-slots.ts';
import { crawlerLog } from './crawlee-log.ts';
import type { Logger } from '../platform/log.ts';
import { StoreQueue } from './store-queue.ts';

crawleeLog.setLevel(crawleeLog.LEVELS.ERROR);

/** How Crawlee's line about a page whose slot wait was cut short reads (with the error's message). */
const SLOT_WAIT_INTERRUPTED = new SlotWaitInterrupted().message;

export interface ScrapeTarget {
  url: string;
  key: string;
}

/** A rendered page's load (what its formats' `capture` read from it among the rest) and what else the browser did. */
export interface FetchedPage extends Omit<PageLoad, 'pdf' | 'text'> {
  target: ScrapeTarget;
  rawHtml: string;
  /** With measureImages: what the browser decoded of the page's images. */
  imageSizes?: ImageSizes;
  /** Products of scrapeOptions.actions; present only when actions were requested. */
  actions?: ActionResults;
  /** Time spent waiting for a team concurrency slot before navigating (0 without acquireSlot). */
  waitedMs: number;
  /** Time from the start of navigation to the captured page. */
  loadMs: number;
}

/** What a batch's source of URLs answers when asked for more. */
export interface TargetSupply {
  targets: ScrapeTarget[];
  /** Nothing more will come: the batch ends once the pages it has are done. */
  exhausted: boolean;
}

/** How often a batch whose source had nothing asks again (besides after every page it stores). */
export const REFILL_POLL_MS = 250;

export interface BrowserScrapeOptions {
  /** How Chromium starts (sandbox, user, environment, flags): src/platform/browser/chromium-launch.ts. */
  browser: ChromiumLaunch;
  /** Pages open in fresh incognito contexts of this running browser instead of a browser of the batch's own. */
  warm?: WarmLauncher;
  /** Pages open at once in the batch's browser. */
  concurrency: number;
  scrapeOptions: ScrapeOptions;
  /** A page whose HTML is larger (UTF-8 bytes) fails without its HTML being read (CRAWL_MAX_PAGE_BYTES). Default: no limit. */
  maxPageBytes?: number;
  /** Asks the browser the intrinsic size of images whose HTML gives none (for the search index). */
  measureImages?: boolean;
  /** Both must contain PRODUCT_TOKEN. Default: DEFAULT_USER_AGENTS. */
  userAgents?: UserAgents;
  /** All browser traffic, loopback included, goes through this proxy (e.g. `http://127.0.0.1:8080`). */
  proxyServer?: string;
  /** The proxy refuses the ad hosts itself (ad-block.ts AD_HOST_REFUSAL): pages need no blocking of their own. */
  proxyBlocksAds?: boolean;
  /** Where the crawler's error lines go (crawlee-log.ts); without it, Crawlee's own text on stderr. */
  log?: Logger;
  signal?: AbortSignal;
  /**
   * Called right before each navigation (retries included). The slot is released once: when that page
   * closes, or before onDownload (which fetches the file under a slot of its own), or when the batch ends.
   */
  acquireSlot?(target: ScrapeTarget, signal: AbortSignal): Promise<SlotLease>;
  /** A clear reason for a network error at `url` (e.g. why the proxy refused it), replacing Chromium's code. */
  explainFailure?(url: string): string | undefined;
  /**
   * More URLs for the batch, at most `room`. Called, never twice at once, while no more than
   * `concurrency` of the batch's URLs are unfinished: when a page finishes or is stored and every
   * REFILL_POLL_MS, until it answers exhausted. Without it the batch is exactly `targets`.
   */
  moreTargets?(room: number): Promise<TargetSupply>;
  /**
   * Asked right before a page is opened: true hands the URL back unscraped (onReturned) instead,
   * so a batch that stops early (to give its browser to another crawl) finishes only what is loading.
   */
  returnUnstarted?(): boolean;
  onReturned?(target: ScrapeTarget): Promise<void>;
  onPage(page: FetchedPage): Promise<void>;
  onFailure(target: ScrapeTarget, error: string): Promise<void>;
  /** The URL is a file (PDF, attachment) rather than a page: the caller fetches it outside the browser. */
  onDownload?(target: ScrapeTarget, info: { contentType?: string }): Promise<void>;
}

/** First meaningful line of an error, for users; never empty. */
export function describeError(error: unknown): string {
  const err = error as { name?: string; message?: string; code?: string; meta?: { driverAdapterError?: { cause?: { originalMessage?: string } } } };
  // Prisma errors raised through a driver adapter have an empty message.
  const text = err?.message || err?.meta?.driverAdapterError?.cause?.originalMessage || String(error);
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return line ?? `${err?.name ?? 'Error'}${err?.code ? ` ${err.code}` : ''}`;
}

/** Thrown before navigation when the caller takes the URL back (returnUnstarted); Crawlee logs its message. */
class ReturnedUnstarted extends Error {
  constructor() {
    super('not opened: handed back to the crawl queue (the batch is stopping early, e.g. to give its browser to another crawl)');
  }
}

/** What the hooks learn about a page before the handlers need it. */
interface PageState {
  budget: PageBudget;
  waitedMs: number;
  navigation: NavigationWatch;
}

function targetOf(ctx: PlaywrightCrawlingContext): ScrapeTarget {
  return ctx.request.userData.target as ScrapeTarget;
}

/** The formats that read the rendered page, those that may re-layout it (a screenshot's viewport) last. */
function formatCaptures(so: ScrapeOptions): Requested[] {
  const capturing = requestedFormats(so.formats).filter(({ module }) => module.capture);
  return [...capturing.filter(({ module }) => !module.capture!.last), ...capturing.filter(({ module }) => module.capture!.last)];
}

/** After load: waitFor, actions, then the content (HTML first: a format's capture may re-layout the page). */
async function capture(page: Page, so: ScrapeOptions, captures: Requested[], budget: PageBudget, maxPageBytes: number, measureImages: boolean) {
  if (so.waitFor > 0) await page.waitForTimeout(Math.min(so.waitFor, budget.remaining()));
  const actions = so.actions?.length ? await runActions(page, so.actions, budget, maxPageBytes) : undefined;
  const rawHtml = await pageHtml(page, budget, maxPageBytes);
  const captured: Partial<PageLoad> & { rawHtml: string; actions?: ActionResults } = {
    rawHtml,
    actions,
    ...(measureImages && { imageSizes: await imageSizes(page, budget) }),
  };
  for (const { module, format } of captures) Object.assign(captured, await module.capture!.run(page, format, budget));
  return captured;
}

function crawleeRequest(target: ScrapeTarget) {
  return { url: target.url, uniqueKey: target.key, userData: { target } };
}

export async function scrapeWithBrowser(targets: ScrapeTarget[], opts: BrowserScrapeOptions): Promise<void> {
  if (targets.length === 0 && !opts.moreTargets) return;
  const so = opts.scrapeOptions;
  const captures = formatCaptures(so);
  const timeoutSecs = Math.ceil(so.timeout / 1000);
  const concurrency = Math.max(1, opts.moreTargets ? opts.concurrency : Math.min(opts.concurrency, targets.length));
  const context = pageContext(so, opts.userAgents ?? DEFAULT_USER_AGENTS);
  const slots = new PageSlots(opts.acquireSlot);
  const pages = new WeakMap<Page, PageState>();
  // Once the batch stops (a failed write, cancellation, or run() returning), pages still in
  // flight are torn down and their errors are artefacts of the stop: nothing more is stored,
  // and the batch's retry handles every page not stored yet.
  let stopped = false;
  let crawler: PlaywrightCrawler | undefined;
  const stop = () => {
    stopped = true;
    void crawler?.autoscaledPool?.abort();
  };
  // Storing a page is not the page's fault: if it fails, the whole batch stops, the
  // activity fails and Temporal retries the batch.
  const stores = new StoreQueue(concurrency, stop);

  // Topping up: URLs handed to the crawler whose page has not finished. Once they drop to
  // the concurrency, the source is asked for enough to make twice that: a closing tab's
  // successor is always queued, and the source is asked once per `concurrency` pages.
  let inBrowser = targets.length;
  let exhausted = !opts.moreTargets;
  let refilling: Promise<void> | undefined;
  let refillAgain = false;
  let refillFailure: { error: unknown } | undefined;
  const refillOnce = async () => {
    if (inBrowser > concurrency) return;
    while (!exhausted && !stopped && inBrowser < 2 * concurrency) {
      const supply = await opts.moreTargets!(2 * concurrency - inBrowser);
      exhausted = supply.exhausted;
      if (supply.targets.length === 0) return;
      inBrowser += supply.targets.length;
      await crawler!.addRequests(supply.targets.map(crawleeRequest));
      void crawler!.autoscaledPool?.notify();
    }
  };
  const refill = () => {
    // Before the run has started, Crawlee would purge what is added; the poll comes back.
    if (exhausted || stopped || !crawler?.autoscaledPool) return;
    if (refilling) {
      refillAgain = true;
      return;
    }
    refilling = (async () => {
      do {
        refillAgain = false;
        await refillOnce();
      } while (refillAgain && !exhausted && !stopped);
    })()
      .catch((error: unknown) => {
        // The source failing (a database error) is not a page's fault: the batch fails and is retried.
        // After a stop, what it claimed is left to the retry like any unstored page.
        if (stopped) return;
        refillFailure = { error };
        stop();
      })
      .finally(() => (refilling = undefined));
  };
  const pageDone = () => {
    inBrowser--;
    refill();
  };

  const deliver = async (store: () => Promise<void>): Promise<void> => {
    if (stopped) throw new CriticalError('the batch has stopped; the page is left to its retry');
    await stores.add(() => store().finally(refill));
  };

  const stateOf = (page: Page): PageState => {
    const state = pages.get(page);
    if (!state) throw new Error('page state missing: the pre-navigation hook did not run');
    return state;
  };

  const downloaded = async (page: Page, target: ScrapeTarget, contentType: string | undefined) => {
    // The caller fetches the file under a slot of its own; holding this one too could starve a team of one.
    await slots.release(page);
    await deliver(() =>
      opts.onDownload
        ? opts.onDownload(target, { contentType })
        : opts.onFailure(target, `The URL is a file download${contentType ? ` (${contentType})` : ''}, not a web page`),
    );
  };

  const failureMessage = (error: unknown, target: ScrapeTarget, state: PageState | undefined): string => {
    const explained = isNetworkError(error) ? opts.explainFailure?.(state?.navigation.failed()?.url() ?? target.url) : undefined;
    return explained ?? describeError(error);
  };

  crawler = new PlaywrightCrawler(
    {
      launchContext: {
        // Crawlee calls only name(), executablePath() and launch() of its launcher (browser-pool's PlaywrightPlugin).
        launcher: opts.warm ? (opts.warm as unknown as typeof chromium) : chromium,
        // In a warm browser every page gets a context of its own, with the options below (Crawlee spreads the launch options into it).
        ...(opts.warm && { useIncognitoPages: true }),
        // Otherwise Crawlee launches a persistent context: its context options apply to every page at no per-page cost.
        launchOptions: {
          // With a proxy, Playwright is told the bypass list (none but <-loopback>) instead of choosing one.
          ...opts.browser.launchOptions(opts.proxyServer),
          // Playwright would close Chromium on the worker's SIGTERM, failing the pages of a batch
          // that is still draining; the worker stops its batches itself (and Chromium exits with
          // its pipe when the worker dies).
          handleSIGINT: false,
          handleSIGTERM: false,
          handleSIGHUP: false,
          ...context.contextOptions,
          // A crawl needs no service worker, and one would run page code after the page is gone
          // and serve requests that request interception (ad blocking) never sees.
          serviceWorkers: 'block',
        },
      },
      ...(opts.log && { log: crawlerLog(opts.log, (message) => stopped || message.includes(SLOT_WAIT_INTERRUPTED)) }),
      browserPoolOptions: { useFingerprints: false, retireBrowserAfterPageCount: 10_000 },
      useSessionPool: false,
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      maxRequestRetries: 1,
      // Crawlee turns proxy errors into session errors, retried up to 10 times by default.
      maxSessionRotations: 1,
      navigationTimeoutSecs: timeoutSecs,
      // The page budget (so.timeout) ends the handler's page work; the margin is for storing. Crawlee's
      // overall limit per attempt is navigation + handler + 10 s, and a slot wait counts against it.
      requestHandlerTimeoutSecs: timeoutSecs + 30,
      preNavigationHooks: [
        async (ctx, gotoOptions) => {
          if (opts.returnUnstarted?.()) throw new ReturnedUnstarted();
          await preparePage(ctx.page, context, { blockAds: so.blockAds && !opts.proxyBlocksAds, mobile: so.mobile });
          const navigation = watchNavigation(ctx.page);
          const waitedMs = await slots.take(ctx.page, targetOf(ctx));
          pages.set(ctx.page, { budget: new PageBudget(so.timeout), waitedMs, navigation });
          if (gotoOptions) {
            gotoOptions.waitUntil = 'load';
            gotoOptions.timeout = so.timeout;
          }
        },
      ],
      requestHandler: async (ctx) => {
        const { page, response } = ctx;
        const target = targetOf(ctx);
        const { budget, waitedMs } = stateOf(page);
        const contentType = response?.headers()['content-type'];
        if (isFileContentType(contentType, { images: parsesImages(so) })) {
          await downloaded(page, target, contentType);
          return pageDone();
        }
        let captured: Awaited<ReturnType<typeof capture>>;
        try {
          captured = await budget.race(capture(page, so, captures, budget, opts.maxPageBytes ?? Infinity, opts.measureImages ?? false));
        } catch (err) {
          // The same actions, the same budget or the same page would fail the same way again.
          if (err instanceof ActionFailure || err instanceof PageTimeoutError || err instanceof PageTooLargeError) throw new NonRetryableError(err.message);
          throw err;
        }
        await deliver(() =>
          opts.onPage({
            target,
            finalUrl: page.url(),
            statusCode: response?.status() ?? 200,
            contentType,
            ...captured,
            waitedMs,
            loadMs: budget.elapsedMs(),
          }),
        );
        pageDone();
      },
      errorHandler: async ({ request }, error) => {
        if (isDownloadError(error) || stopped || error instanceof ReturnedUnstarted) request.noRetry = true;
      },
      failedRequestHandler: async (ctx, error) => {
        // Not the page's failure: it stays unstored, so the batch fails and its retry loads it.
        if (stopped || error instanceof SlotWaitInterrupted) return;
        const target = targetOf(ctx);
        if (error instanceof ReturnedUnstarted) {
          await deliver(() => opts.onReturned!(target));
          return pageDone();
        }
        const state = pages.get(ctx.page);
        if (isDownloadError(error)) await downloaded(ctx.page, target, state && (await failedContentType(state.navigation)));
        else await deliver(() => opts.onFailure(target, failureMessage(error, target, state)));
        pageDone();
      },
      autoscaledPoolOptions: {
        // A topped-up batch ends once its source is exhausted and every page it gave is done.
        isFinishedFunction: async () => (exhausted || stopped) && !refilling && (await (await crawler!.getRequestQueue()).isFinished()),
      },
    },
    // Concurrency is fixed, so Crawlee's load sampling (a `ps` spawn every second per
    // crawler) would only cost CPU; once a minute keeps its overload warnings.
    new Configuration({ persistStorage: false, systemInfoV2: true, systemInfoIntervalMillis: 60_000 }),
  );

  // A warm browser's pages are incognito: Crawlee launches no second browser for them.
  const learnVersion = opts.warm ? undefined : shareBrowserVersion(crawler, opts.browser.launchOptions(opts.proxyServer).executablePath ?? 'bundled');
  opts.signal?.addEventListener('abort', stop, { once: true });
  const poll = opts.moreTargets ? setInterval(refill, REFILL_POLL_MS) : undefined;
  let lateFailure: Error | undefined;
  try {
    await crawler.run(targets.map(crawleeRequest));
  } finally {
    learnVersion?.();
    stopped = true;
    clearInterval(poll);
    opts.signal?.removeEventListener('abort', stop);
    try {
      lateFailure = await settleAfterRun();
    } finally {
      await slots.close();
    }
  }
  if (lateFailure) throw lateFailure;

  /** Waits for the last refill and page writes; what failed there is the batch's failure unless the run itself failed first. */
  async function settleAfterRun(): Promise<Error | undefined> {
    await refilling;
    try {
      await stores.drain();
    } catch (err) {
      return new Error(`storing a page failed: ${describeError(err)}`, { cause: err });
    }
    if (refillFailure) return new Error(`finding more URLs for the batch failed: ${describeError(refillFailure.error)}`, { cause: refillFailure.error });
    return undefined;
  }
}
