// What a browser batch (browser-scraper.ts) does with each page: the hook before its
// navigation (hand back, prepare, watch, take a slot), the handler of a loaded page
// (a file is handed to onDownload; a page is captured and stored), and those of a
// failed one. Storing goes through the batch, which stops on a failed write.
import { NonRetryableError } from '@crawlee/core';
import type { PlaywrightCrawlerOptions, PlaywrightCrawlingContext } from '@crawlee/playwright';
import type { Page } from 'playwright';
import type { BrowserScrapeOptions, ScrapeTarget } from './browser-batch.ts';
import { describeError } from './describe-error.ts';
import { parsesImages, type ScrapeOptions } from './scrape-options.ts';
import { ActionFailure, runActions, type ActionResults } from './actions.ts';
import { pageHtml } from './capture.ts';
import { imageSizes } from './image-sizes.ts';
import { requestedFormats, type Requested } from './formats/registry.ts';
import type { PageLoad } from './page-load.ts';
import { failedContentType, isDownloadError, isFileContentType, isNetworkError, watchNavigation, type NavigationWatch } from './navigation-failure.ts';
import { PageBudget, PageTimeoutError } from './page-budget.ts';
import { PageTooLargeError } from './page-size.ts';
import { preparePage, type PageContext } from './page-context.ts';
import { SlotWaitInterrupted, type PageSlots } from './page-slots.ts';

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

/** What the handlers share with their batch. */
export interface HandlerBatch {
  opts: BrowserScrapeOptions;
  context: PageContext;
  slots: PageSlots<ScrapeTarget>;
  /** The batch has stopped: what fails now is an artefact of the stop, left to the batch's retry. */
  stopped(): boolean;
  /** Stores through the batch's queue; throws once the batch has stopped. */
  deliver(store: () => Promise<void>): Promise<void>;
  /** A URL handed to the crawler is finished. */
  pageDone(): void;
  /** Hands the URL to the crawler again (loadAgain): it is not finished. */
  again(target: ScrapeTarget): Promise<void>;
}

type Handlers = Pick<PlaywrightCrawlerOptions, 'preNavigationHooks' | 'requestHandler' | 'errorHandler' | 'failedRequestHandler'>;

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

/** The page's capture within its budget; what would fail the same way again is not retried. */
async function captureOnce(page: Page, opts: BrowserScrapeOptions, captures: Requested[], budget: PageBudget) {
  try {
    return await budget.race(capture(page, opts.scrapeOptions, captures, budget, opts.maxPageBytes ?? Infinity, opts.measureImages ?? false));
  } catch (err) {
    // The same actions, the same budget or the same page would fail the same way again.
    if (err instanceof ActionFailure || err instanceof PageTimeoutError || err instanceof PageTooLargeError) throw new NonRetryableError(err.message);
    throw err;
  }
}

/** The URL is a file: handed to onDownload (or failed without one). */
async function downloaded(batch: HandlerBatch, page: Page, target: ScrapeTarget, contentType: string | undefined): Promise<void> {
  // The caller fetches the file under a slot of its own; holding this one too could starve a team of one.
  await batch.slots.release(page);
  const { opts } = batch;
  await batch.deliver(() =>
    opts.onDownload
      ? opts.onDownload(target, { contentType })
      : opts.onFailure(target, `The URL is a file download${contentType ? ` (${contentType})` : ''}, not a web page`),
  );
}

function failureMessage(opts: BrowserScrapeOptions, error: unknown, target: ScrapeTarget, state: PageState | undefined): string {
  const explained = isNetworkError(error) ? opts.explainFailure?.(state?.navigation.failed()?.url() ?? target.url) : undefined;
  return explained ?? describeError(error);
}

export function pageHandlers(batch: HandlerBatch): Handlers {
  const { opts, context, slots } = batch;
  const so = opts.scrapeOptions;
  const captures = formatCaptures(so);
  const pages = new WeakMap<Page, PageState>();
  const stateOf = (page: Page): PageState => {
    const state = pages.get(page);
    if (!state) throw new Error('page state missing: the pre-navigation hook did not run');
    return state;
  };

  return {
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
      const headers = response?.headers() ?? {};
      const contentType = headers['content-type'];
      if (isFileContentType(contentType, { images: parsesImages(so) })) {
        await downloaded(batch, page, target, contentType);
        return batch.pageDone();
      }
      const captured = await captureOnce(page, opts, captures, budget);
      const statusCode = response?.status() ?? 200;
      const retryAfter = headers['retry-after'];
      const fetched = {
        target,
        finalUrl: page.url(),
        statusCode,
        contentType,
        ...captured,
        waitedMs,
        loadMs: budget.elapsedMs(),
        ...(retryAfter && { retryAfter }),
      };
      if (await opts.loadAgain?.(fetched)) return batch.again(target);
      await batch.deliver(() => opts.onPage(fetched));
      batch.pageDone();
    },
    errorHandler: async ({ request }, error) => {
      if (isDownloadError(error) || batch.stopped() || error instanceof ReturnedUnstarted) request.noRetry = true;
    },
    failedRequestHandler: async (ctx, error) => {
      // Not the page's failure: it stays unstored, so the batch fails and its retry loads it.
      if (batch.stopped() || error instanceof SlotWaitInterrupted) return;
      const target = targetOf(ctx);
      if (error instanceof ReturnedUnstarted) {
        await batch.deliver(() => opts.onReturned!(target));
        return batch.pageDone();
      }
      const state = pages.get(ctx.page);
      if (isDownloadError(error)) await downloaded(batch, ctx.page, target, state && (await failedContentType(state.navigation)));
      else await batch.deliver(() => opts.onFailure(target, failureMessage(opts, error, target, state)));
      batch.pageDone();
    },
  };
}
