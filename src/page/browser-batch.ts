// What a browser batch (browser-scraper.ts) is given and gives back: its URLs, its options
// and hooks, and each page's raw material. The batch's parts (browser-page-handlers.ts,
// batch-top-up.ts) read these without depending on the batch itself.
import type { ChromiumLaunch } from '../platform/browser/chromium-launch.ts';
import type { WarmLauncher } from '../platform/browser/warm-browser.ts';
import type { ScrapeOptions } from './scrape-options.ts';
import type { ActionResults } from './actions.ts';
import type { ImageSizes } from './image-sizes.ts';
import type { PageLoad } from './page-load.ts';
import type { UserAgents } from '../platform/net/user-agents.ts';
import type { SlotLease } from './page-slots.ts';
import type { Logger } from '../platform/log.ts';

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
  /** The answer's Retry-After header, read by the host budget when the answer throttles. */
  retryAfter?: string;
}

/** What a batch's source of URLs answers when asked for more. */
export interface TargetSupply {
  targets: ScrapeTarget[];
  /** Nothing more will come: the batch ends once the pages it has are done. */
  exhausted: boolean;
}

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
  /**
   * Asked of each loaded page before it is delivered: true loads its URL again in this batch instead
   * (under a slot of its own, so after its host's turn), e.g. once a throttled host's pause has passed.
   */
  loadAgain?(page: FetchedPage): Promise<boolean>;
  onPage(page: FetchedPage): Promise<void>;
  onFailure(target: ScrapeTarget, error: string): Promise<void>;
  /** The URL is a file (PDF, attachment) rather than a page: the caller fetches it outside the browser. */
  onDownload?(target: ScrapeTarget, info: { contentType?: string }): Promise<void>;
}
