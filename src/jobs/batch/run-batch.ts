// A batch of a job, put together from its parts: the source over the frontier
// (frontier-source.ts), the router (route-target.ts), the runners that load pages
// (HTTP lanes, Chromium, file loads), the page handler (page-handler.ts) and the
// leases (batch-leases.ts). This is the only place they meet, and the one rule
// that keeps the batch from wedging is visible here: a runner holds a slot only
// while it loads, and nothing a slot holder waits for (the source, page writes)
// ever waits for a slot. Files found by the source or by a browser tab are handed
// to the file loads, which take slots of their own.
import type { Logger } from '../../platform/log.ts';
import type { ScrapeTarget, TargetSupply } from '../../page/browser-scraper.ts';
import type { HttpLoad } from '../../page/http-load.ts';
import type { PageLoad } from '../../page/page-load.ts';
import type { SlotLease } from '../../page/page-slots.ts';
import type { BatchSlot } from './batch-leases.ts';
import { FileLoads } from './file-loads.ts';
import type { ClaimedTarget } from './frontier-source.ts';
import { startHttpLanes, type HttpLanes } from './http-lanes.ts';
import type { LoadExtras, PageHandler } from './page-handler.ts';
import { routeTarget, type RoutingRules } from './route-target.ts';

/** A failure that is the page's own (its fetch failed, it is too large): the page fails, the batch goes on. */
export type PageFailure = { failed: string };

export interface BrowserHooks {
  slot(signal: AbortSignal): Promise<SlotLease>;
  /** More pages for the browser; undefined when the batch has exactly the pages it started with. */
  more?(room: number): Promise<TargetSupply>;
  page(target: ScrapeTarget, load: PageLoad, extras: Pick<LoadExtras, 'actions' | 'queuedMs' | 'loadMs'>): Promise<void>;
  failure(target: ScrapeTarget, error: string): Promise<void>;
  /** True once the batch stops early: pages not opened yet are handed back (`returned`). */
  stopOpening(): boolean;
  returned(target: ScrapeTarget): Promise<void>;
  /** The page is a file: the batch fetches it outside the browser. */
  download(target: ScrapeTarget): Promise<void>;
}

/** How pages are loaded (batch-loaders.ts in the worker; fakes in tests). Each throws only when the batch must stop. */
export interface BatchLoaders {
  overHttp(target: ScrapeTarget): Promise<HttpLoad | PageFailure>;
  file(target: ScrapeTarget): Promise<PageLoad | PageFailure>;
  browser(targets: ScrapeTarget[], hooks: BrowserHooks): Promise<void>;
}

export interface BatchSource {
  claim(room: number): Promise<ClaimedTarget[] | null>;
  exhausted(): Promise<boolean>;
  giveBack(target: { key: string }): Promise<void>;
}

export interface BatchLeasing {
  readonly yielding: boolean;
  take(signal?: AbortSignal): Promise<BatchSlot>;
}

export interface BatchParts {
  source: BatchSource;
  /** The team's cached copies of these URLs, by URL key. */
  cached(targets: ClaimedTarget[]): Promise<Map<string, PageLoad>>;
  rules: RoutingRules;
  handler: PageHandler;
  leases: BatchLeasing;
  loaders: BatchLoaders;
  /** Pages loaded at once: HTTP lanes, browser tabs, file loads (each). */
  concurrency: number;
  /** Pages go to HTTP lanes first (auto, http); otherwise straight to Chromium. */
  lanesFirst: boolean;
  /** The batch has exactly the URLs it starts with (a single scrape): nobody asks for more while they load. */
  fixedUrls: boolean;
  /** A page looked script-rendered: its host's later pages go to the browser first. */
  onScripted(url: string): void;
  /** How soon a source that had nothing is asked again. */
  pollMs: number;
  signal: AbortSignal;
  log: Logger;
}

export async function runBatch(b: BatchParts): Promise<void> {
  const { handler, leases, signal, log } = b;

  // Pages the HTTP lanes found to need Chromium, for the browser to take.
  const browserQueue: ScrapeTarget[] = [];
  let browserWanted: (() => void) | undefined;
  const toBrowser = (targets: ScrapeTarget[]) => {
    if (targets.length === 0) return;
    browserQueue.push(...targets);
    browserWanted?.();
  };
  /** `scriptedPage`: the page itself looked script-rendered (not its status, type or a failed fetch), so its host is remembered. */
  const needsBrowser = (target: ScrapeTarget, reason: string, scriptedPage: boolean) => {
    if (scriptedPage) b.onScripted(target.url);
    log.debug('page goes to the browser', { url: target.url, reason });
    toBrowser([target]);
  };

  const store = async (target: ScrapeTarget, load: PageLoad, extras: LoadExtras) => {
    const stored = await handler.store(target, load, extras);
    if (stored) needsBrowser(target, stored.needsBrowser, true);
  };

  /** Loads a file under a slot that is held for it already. */
  const loadFile = async (target: ScrapeTarget, waitedMs: number) => {
    const started = performance.now();
    const load = await b.loaders.file(target);
    if ('failed' in load) return handler.fail(target, load.failed);
    await store(target, load, { queuedMs: waitedMs || undefined, path: 'file', loadMs: performance.now() - started });
  };
  const fileLoads = new FileLoads<ScrapeTarget>(b.concurrency, async (target) => {
    const slot = await leases.take(signal);
    try {
      await loadFile(target, slot.waitedMs);
    } finally {
      await slot.release();
    }
  });

  /**
   * The batch's URLs, by path. Cached copies and refusals are settled here and files handed to the
   * file loads: none of it waits for a slot. An empty answer that is not exhausted means "ask again".
   */
  const supply = async (room: number): Promise<{ http: ScrapeTarget[]; browser: ScrapeTarget[]; exhausted: boolean }> => {
    for (;;) {
      // A file that could not be stored is not the page's fault: the batch fails, and its retry loads the file again.
      if (fileLoads.failure) throw fileLoads.failure.error;
      const claimed = await b.source.claim(room);
      if (claimed === null) return { http: [], browser: [], exhausted: true };
      if (claimed.length === 0) return { http: [], browser: [], exhausted: await b.source.exhausted() };
      const cached = await b.cached(claimed);
      const http: ScrapeTarget[] = [];
      const browser: ScrapeTarget[] = [];
      for (const { url, key } of claimed) {
        const target = { url, key };
        const route = routeTarget(url, cached.get(key), b.rules);
        if (route.to === 'cache') await store(target, route.load, { path: 'cache' });
        else if (route.to === 'refuse') await handler.fail(target, route.error);
        else if (route.to === 'file') fileLoads.add(target);
        else (route.to === 'http' ? http : browser).push(target);
      }
      if (http.length + browser.length > 0) return { http, browser, exhausted: false };
    }
  };

  /** Loads a page in an HTTP lane that holds a slot for it; returns its conversion and storage, which run behind the lane. */
  const loadInLane = async (target: ScrapeTarget, waitedMs: number): Promise<(() => Promise<void>) | void> => {
    const started = performance.now();
    const http = await b.loaders.overHttp(target);
    if ('failed' in http) return handler.fail(target, http.failed);
    if ('browser' in http) return needsBrowser(target, http.browser, false);
    // As the browser path does with a download: fetched again, with the file limits, under the lane's slot.
    if ('file' in http) return loadFile(target, waitedMs);
    const loadMs = performance.now() - started;
    return () => store(target, http.load, { queuedMs: waitedMs || undefined, path: 'http', loadMs });
  };

  /** Set while HTTP lanes run beside the browser: they, not the browser, ask the source for the links it stores. */
  let lanes: HttpLanes | undefined;

  const runBrowser = (targets: ScrapeTarget[], more: ((room: number) => Promise<TargetSupply>) | undefined) =>
    b.loaders.browser(targets, {
      slot: (abort) => leases.take(abort),
      more,
      page: async (target, load, extras) => {
        await store(target, load, { ...extras, path: 'browser' });
        // The page's links reach the browser's queue before the browser asks for more, not a poll or two later.
        await lanes?.askNow();
      },
      failure: (target, error) => handler.fail(target, error),
      // Giving the browser up: pages not yet opened go back to the queue for the crawl's next batch.
      stopOpening: () => leases.yielding,
      returned: (target) => b.source.giveBack(target),
      download: async (target) => fileLoads.add(target),
    });

  /** Chromium only: the browser asks the source itself. */
  const browserOnly = async () => {
    const more = async (room: number): Promise<TargetSupply> => {
      const { browser, exhausted } = await supply(room);
      return { targets: browser, exhausted };
    };
    const first = await more(2 * b.concurrency);
    if (!signal.aborted && (first.targets.length > 0 || !first.exhausted)) await runBrowser(first.targets, first.exhausted || b.fixedUrls ? undefined : more);
  };

  /** HTTP lanes load the pages; Chromium starts only once one of them needs it (under http none ever does). */
  const lanesThenBrowser = async () => {
    let lanesDone = false;
    let browserFailed = false;
    let supplied = false;
    lanes = startHttpLanes({
      lanes: b.concurrency,
      more: async (room) => {
        if (b.fixedUrls && supplied) return { targets: [], exhausted: true };
        const { http, browser, exhausted } = await supply(room);
        supplied = true;
        toBrowser(browser);
        // A single scrape's one URL is all it will ever have: the lanes do not ask again.
        return { targets: http, exhausted: exhausted || b.fixedUrls };
      },
      openLane: () => leases.take(signal),
      load: loadInLane,
      stopTaking: () => leases.yielding || browserFailed,
      giveBack: (target) => b.source.giveBack(target),
      signal,
      pollMs: b.pollMs,
    });
    const lanesRun = lanes.done.finally(() => {
      lanesDone = true;
      browserWanted?.();
    });
    const chromium = (async () => {
      while (browserQueue.length === 0 && !lanesDone) await new Promise<void>((resolve) => (browserWanted = resolve));
      browserWanted = undefined;
      if (browserQueue.length === 0 || signal.aborted) return;
      const fromLanes = async (room: number): Promise<TargetSupply> => ({
        targets: browserQueue.splice(0, room),
        exhausted: lanesDone && browserQueue.length === 0,
      });
      await runBrowser(browserQueue.splice(0), lanesDone && b.fixedUrls ? undefined : fromLanes).catch((err: unknown) => {
        browserFailed = true;
        throw err;
      });
    })();
    const settled = await Promise.allSettled([lanesRun, chromium]);
    for (const result of settled) if (result.status === 'rejected') throw result.reason;
  };

  try {
    await (b.lanesFirst ? lanesThenBrowser() : browserOnly());
    // Files not started when the batch stops early go back to the queue; those loading are finished.
    if (leases.yielding) for (const target of fileLoads.takeQueued()) await b.source.giveBack(target);
    await fileLoads.drain();
  } finally {
    // A batch that failed leaves its unstarted files to its retry, but lets no load outlive it.
    fileLoads.takeQueued();
    await fileLoads.drain().catch(() => undefined);
  }
}
