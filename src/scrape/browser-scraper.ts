// Loads pages in Chromium through Crawlee's PlaywrightCrawler. One crawler (and
// one browser) serves one batch of URLs; the caller receives each page's raw
// material and decides what to store. Tuning choices are explained in
// shared/reference/crawlee-notes.md (fixed concurrency, no fingerprints, no
// session pool so 4xx/5xx pages reach the handler instead of being retried).
import { Configuration, CriticalError, log as crawleeLog } from '@crawlee/core';
import { PlaywrightCrawler } from '@crawlee/playwright';
import { chromium } from 'playwright';
import type { ScrapeOptions } from '../api/schemas/scrape-options.ts';

crawleeLog.setLevel(crawleeLog.LEVELS.ERROR);

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface ScrapeTarget {
  url: string;
  key: string;
}

export interface FetchedPage {
  target: ScrapeTarget;
  finalUrl: string;
  statusCode: number;
  contentType?: string;
  rawHtml: string;
  screenshot?: string;
}

export interface BrowserScrapeOptions {
  chromiumPath?: string;
  headless: boolean;
  /** Pages open at once in the batch's browser. */
  concurrency: number;
  scrapeOptions: ScrapeOptions;
  signal?: AbortSignal;
  onPage(page: FetchedPage): Promise<void>;
  onFailure(target: ScrapeTarget, error: string): Promise<void>;
}

/** First meaningful line of an error, for users; never empty. */
export function describeError(error: unknown): string {
  const err = error as { name?: string; message?: string; code?: string; meta?: { driverAdapterError?: { cause?: { originalMessage?: string } } } };
  // Prisma errors raised through a driver adapter have an empty message.
  const text = err?.message || err?.meta?.driverAdapterError?.cause?.originalMessage || String(error);
  const line = text.split('\n').map((l) => l.trim()).find((l) => l.length > 0);
  return line ?? `${err?.name ?? 'Error'}${err?.code ? ` ${err.code}` : ''}`;
}

/**
 * Storing a page is not the page's fault: if it fails, the whole crawler stops
 * (CriticalError) so the activity fails and Temporal retries the batch.
 */
async function deliver(store: () => Promise<void>): Promise<void> {
  try {
    await store();
  } catch (err) {
    throw new CriticalError(`storing a page failed: ${describeError(err)}`, { cause: err });
  }
}

export async function scrapeWithBrowser(targets: ScrapeTarget[], opts: BrowserScrapeOptions): Promise<void> {
  if (targets.length === 0) return;
  const so = opts.scrapeOptions;
  const screenshot = so.formats.find((f) => f.type === 'screenshot');
  const timeoutSecs = Math.ceil(so.timeout / 1000);
  const concurrency = Math.max(1, Math.min(opts.concurrency, targets.length));

  const crawler = new PlaywrightCrawler(
    {
      launchContext: {
        launcher: chromium,
        launchOptions: { executablePath: opts.chromiumPath, headless: opts.headless, args: CHROMIUM_ARGS },
      },
      browserPoolOptions: { useFingerprints: false, retireBrowserAfterPageCount: 10_000 },
      useSessionPool: false,
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      maxRequestRetries: 1,
      navigationTimeoutSecs: timeoutSecs,
      requestHandlerTimeoutSecs: timeoutSecs + 30,
      preNavigationHooks: [
        async (_ctx, gotoOptions) => {
          if (gotoOptions) gotoOptions.waitUntil = 'load';
        },
      ],
      requestHandler: async ({ page, request, response }) => {
        if (so.waitFor > 0) await page.waitForTimeout(so.waitFor);
        const rawHtml = await page.content();
        const shot = screenshot
          ? `data:image/png;base64,${(await page.screenshot({ fullPage: screenshot.fullPage === true, type: 'png' })).toString('base64')}`
          : undefined;
        await deliver(() => opts.onPage({
          target: request.userData.target as ScrapeTarget,
          finalUrl: page.url(),
          statusCode: response?.status() ?? 200,
          contentType: response?.headers()['content-type'],
          rawHtml,
          screenshot: shot,
        }));
      },
      failedRequestHandler: async ({ request }, error) => {
        await deliver(() => opts.onFailure(request.userData.target as ScrapeTarget, describeError(error)));
      },
    },
    new Configuration({ persistStorage: false, systemInfoV2: true }),
  );

  const abort = () => void crawler.autoscaledPool?.abort();
  opts.signal?.addEventListener('abort', abort, { once: true });
  try {
    await crawler.run(
      targets.map((target) => ({
        url: target.url,
        uniqueKey: target.key,
        headers: so.headers,
        userData: { target },
      })),
    );
  } finally {
    opts.signal?.removeEventListener('abort', abort);
  }
}
