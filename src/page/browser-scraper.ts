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
import { CriticalError, log as crawleeLog } from '@crawlee/core';
import { PlaywrightCrawler, type PlaywrightCrawlerOptions } from '@crawlee/playwright';
import { chromium } from 'playwright';
import { pageContext, type PageContext } from './page-context.ts';
import { shareBrowserVersion } from './crawlee-browser-version.ts';
import { DEFAULT_USER_AGENTS } from '../platform/net/user-agents.ts';
import { PageSlots, SlotWaitInterrupted } from './page-slots.ts';
import { crawlerLog } from './crawlee-log.ts';
import { crawlerConfiguration } from './crawlee-configuration.ts';
import { StoreQueue } from './store-queue.ts';
import { describeError } from './describe-error.ts';
import { pageHandlers } from './browser-page-handlers.ts';
import { TopUp } from './batch-top-up.ts';
import type { BrowserScrapeOptions, ScrapeTarget } from './browser-batch.ts';

export type { BrowserScrapeOptions, FetchedPage, ScrapeTarget, TargetSupply } from './browser-batch.ts';

crawleeLog.setLevel(crawleeLog.LEVELS.ERROR);

/** How Crawlee's line about a page whose slot wait was cut short reads (with the error's message). */
const SLOT_WAIT_INTERRUPTED = new SlotWaitInterrupted().message;

/** How often a batch whose source had nothing asks again (besides after every page it stores). */
export const REFILL_POLL_MS = 250;

/** `attempt`: a URL loaded again in its batch (loadAgain) needs a key Crawlee has not seen. */
function crawleeRequest(target: ScrapeTarget, attempt = 0) {
  return { url: target.url, uniqueKey: attempt ? `${target.key}#${attempt}` : target.key, userData: { target } };
}

/** How the batch's crawler launches its browser and paces its pages: the same for every batch but for the options. */
function crawlerSettings(opts: BrowserScrapeOptions, context: PageContext, concurrency: number, stopped: () => boolean): PlaywrightCrawlerOptions {
  const timeoutSecs = Math.ceil(opts.scrapeOptions.timeout / 1000);
  return {
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
    ...(opts.log && { log: crawlerLog(opts.log, (message) => stopped() || message.includes(SLOT_WAIT_INTERRUPTED)) }),
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
  };
}

export async function scrapeWithBrowser(targets: ScrapeTarget[], opts: BrowserScrapeOptions): Promise<void> {
  if (targets.length === 0 && !opts.moreTargets) return;
  const so = opts.scrapeOptions;
  const concurrency = Math.max(1, opts.moreTargets ? opts.concurrency : Math.min(opts.concurrency, targets.length));
  const context = pageContext(so, opts.userAgents ?? DEFAULT_USER_AGENTS);
  const slots = new PageSlots(opts.acquireSlot);
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
  const attempts = new Map<string, number>();
  const topUp = new TopUp(opts.moreTargets, targets.length, concurrency, {
    stopped: () => stopped,
    stop,
    running: () => crawler?.autoscaledPool !== undefined,
    add: async (more) => {
      await crawler!.addRequests(more.map((t) => crawleeRequest(t)));
      void crawler!.autoscaledPool?.notify();
    },
  });
  const handlers = pageHandlers({
    opts,
    context,
    slots,
    stopped: () => stopped,
    deliver: async (store) => {
      if (stopped) throw new CriticalError('the batch has stopped; the page is left to its retry');
      await stores.add(() => store().finally(topUp.refill));
    },
    pageDone: topUp.pageDone,
    again: async (target) => {
      const attempt = (attempts.get(target.key) ?? 0) + 1;
      attempts.set(target.key, attempt);
      await crawler!.addRequests([crawleeRequest(target, attempt)]);
    },
  });

  crawler = new PlaywrightCrawler(
    {
      ...crawlerSettings(opts, context, concurrency, () => stopped),
      ...handlers,
      autoscaledPoolOptions: {
        // A topped-up batch ends once its source is exhausted and every page it gave is done.
        isFinishedFunction: async () => topUp.done() && (await (await crawler!.getRequestQueue()).isFinished()),
      },
    },
    crawlerConfiguration(),
  );

  // A warm browser's pages are incognito: Crawlee launches no second browser for them.
  const learnVersion = opts.warm ? undefined : shareBrowserVersion(crawler, opts.browser.launchOptions(opts.proxyServer).executablePath ?? 'bundled');
  opts.signal?.addEventListener('abort', stop, { once: true });
  const poll = opts.moreTargets ? setInterval(topUp.refill, REFILL_POLL_MS) : undefined;
  let lateFailure: Error | undefined;
  try {
    await crawler.run(targets.map((t) => crawleeRequest(t)));
  } finally {
    learnVersion?.();
    stopped = true;
    clearInterval(poll);
    opts.signal?.removeEventListener('abort', stop);
    try {
      lateFailure = await settleAfterRun(topUp, stores);
    } finally {
      await slots.close();
    }
  }
  if (lateFailure) throw lateFailure;
}

/** Waits for the last refill and page writes; what failed there is the batch's failure unless the run itself failed first. */
async function settleAfterRun(topUp: TopUp, stores: StoreQueue): Promise<Error | undefined> {
  await topUp.settled();
  try {
    await stores.drain();
  } catch (err) {
    return new Error(`storing a page failed: ${describeError(err)}`, { cause: err });
  }
  if (topUp.failure) return new Error(`finding more URLs for the batch failed: ${describeError(topUp.failure.error)}`, { cause: topUp.failure.error });
  return undefined;
}
