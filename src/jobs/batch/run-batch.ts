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
  await new BatchRun(b).run();
}

type Supplied = { http: ScrapeTarget[]; browser: ScrapeTarget[]; exhausted: boolean };

/** One run of a batch: its file loads, the pages the HTTP lanes hand to the browser, and the runners. */
class BatchRun {
  // Pages the HTTP lanes found to need Chromium, for the browser to take.
  private readonly browserQueue: ScrapeTarget[] = [];
  private browserWanted: (() => void) | undefined;
  /** Set while HTTP lanes run beside the browser: they, not the browser, ask the source for the links it stores. */
  private lanes: HttpLanes | undefined;
  private readonly fileLoads: FileLoads<ScrapeTarget>;

  constructor(private readonly b: BatchParts) {
    const { leases, signal } = b;
    this.fileLoads = new FileLoads<ScrapeTarget>(b.concurrency, async (target) => {
      const slot = await leases.take(signal);
      try {
        await this.loadFile(target, slot.waitedMs);
      } finally {
        await slot.release();
      }
    });
  }

  async run(): Promise<void> {
    const { b, fileLoads } = this;
    try {
      await (b.lanesFirst ? this.lanesThenBrowser() : this.browserOnly());
      // Files not started when the batch stops early go back to the queue; those loading are finished.
      if (b.leases.yielding) for (const target of fileLoads.takeQueued()) await b.source.giveBack(target);
      await fileLoads.drain();
    } finally {
      // A batch that failed leaves its unstarted files to its retry, but lets no load outlive it.
      fileLoads.takeQueued();
      await fileLoads.drain().catch(() => undefined);
    }
  }

  private toBrowser(targets: ScrapeTarget[]): void {
    if (targets.length === 0) return;
    this.browserQueue.push(...targets);
    this.browserWanted?.();
  }

  /** `scriptedPage`: the page itself looked script-rendered (not its status, type or a failed fetch), so its host is remembered. */
  private needsBrowser(target: ScrapeTarget, reason: string, scriptedPage: boolean): void {
    if (scriptedPage) this.b.onScripted(target.url);
    this.b.log.debug('page goes to the browser', { url: target.url, reason });
    this.toBrowser([target]);
  }

  private async store(target: ScrapeTarget, load: PageLoad, extras: LoadExtras): Promise<void> {
    const stored = await this.b.handler.store(target, load, extras);
    if (stored) this.needsBrowser(target, stored.needsBrowser, true);
  }

  /** Loads a file under a slot that is held for it already. */
  private async loadFile(target: ScrapeTarget, waitedMs: number): Promise<void> {
    const started = performance.now();
    const load = await this.b.loaders.file(target);
    if ('failed' in load) return this.b.handler.fail(target, load.failed);
    await this.store(target, load, { queuedMs: waitedMs || undefined, path: 'file', loadMs: performance.now() - started });
  }

  /**
   * The batch's URLs, by path. Cached copies and refusals are settled here and files handed to the
   * file loads: none of it waits for a slot. An empty answer that is not exhausted means "ask again".
   */
  private async supply(room: number): Promise<Supplied> {
    const { b } = this;
    for (;;) {
      // A file that could not be stored is not the page's fault: the batch fails, and its retry loads the file again.
      if (this.fileLoads.failure) throw this.fileLoads.failure.error;
      const claimed = await b.source.claim(room);
      if (claimed === null) return { http: [], browser: [], exhausted: true };
      if (claimed.length === 0) return { http: [], browser: [], exhausted: await b.source.exhausted() };
      const routed = await this.route(claimed);
      if (routed.http.length + routed.browser.length > 0) return routed;
    }
  }

  /** Settles the claimed URLs that need no loader, hands files on, and sorts the rest by path. */
  private async route(claimed: ClaimedTarget[]): Promise<Supplied> {
    const { b } = this;
    const cached = await b.cached(claimed);
    const http: ScrapeTarget[] = [];
    const browser: ScrapeTarget[] = [];
    for (const { url, key } of claimed) {
      const target = { url, key };
      const route = routeTarget(url, cached.get(key), b.rules);
      if (route.to === 'cache') await this.store(target, route.load, { path: 'cache' });
      else if (route.to === 'refuse') await b.handler.fail(target, route.error);
      else if (route.to === 'file') this.fileLoads.add(target);
      else (route.to === 'http' ? http : browser).push(target);
    }
    return { http, browser, exhausted: false };
  }

  /** Loads a page in an HTTP lane that holds a slot for it; returns its conversion and storage, which run behind the lane. */
  private async loadInLane(target: ScrapeTarget, waitedMs: number): Promise<(() => Promise<void>) | void> {
    const { b } = this;
    const started = performance.now();
    const http = await b.loaders.overHttp(target);
    if ('failed' in http) return b.handler.fail(target, http.failed);
    if ('browser' in http) return this.needsBrowser(target, http.browser, false);
    // As the browser path does with a download: fetched again, with the file limits, under the lane's slot.
    if ('file' in http) return this.loadFile(target, waitedMs);
    const loadMs = performance.now() - started;
    return () => this.store(target, http.load, { queuedMs: waitedMs || undefined, path: 'http', loadMs });
  }

  private runBrowser(targets: ScrapeTarget[], more: ((room: number) => Promise<TargetSupply>) | undefined): Promise<void> {
    const { b } = this;
    return b.loaders.browser(targets, {
      slot: (abort) => b.leases.take(abort),
      more,
      page: async (target, load, extras) => {
        await this.store(target, load, { ...extras, path: 'browser' });
        // The page's links reach the browser's queue before the browser asks for more, not a poll or two later.
        await this.lanes?.askNow();
      },
      failure: (target, error) => b.handler.fail(target, error),
      // Giving the browser up: pages not yet opened go back to the queue for the crawl's next batch.
      stopOpening: () => b.leases.yielding,
      returned: (target) => b.source.giveBack(target),
      download: async (target) => this.fileLoads.add(target),
    });
  }

  /** Chromium only: the browser asks the source itself. */
  private async browserOnly(): Promise<void> {
    const { b } = this;
    const more = async (room: number): Promise<TargetSupply> => {
      const { browser, exhausted } = await this.supply(room);
      return { targets: browser, exhausted };
    };
    const first = await more(2 * b.concurrency);
    if (!b.signal.aborted && (first.targets.length > 0 || !first.exhausted))
      await this.runBrowser(first.targets, first.exhausted || b.fixedUrls ? undefined : more);
  }

  /** HTTP lanes load the pages; Chromium starts only once one of them needs it (under http none ever does). */
  private async lanesThenBrowser(): Promise<void> {
    const { b } = this;
    const state = { lanesDone: false, browserFailed: false };
    let supplied = false;
    this.lanes = startHttpLanes({
      lanes: b.concurrency,
      more: async (room) => {
        if (b.fixedUrls && supplied) return { targets: [], exhausted: true };
        const { http, browser, exhausted } = await this.supply(room);
        supplied = true;
        this.toBrowser(browser);
        // A single scrape's one URL is all it will ever have: the lanes do not ask again.
        return { targets: http, exhausted: exhausted || b.fixedUrls };
      },
      openLane: () => b.leases.take(b.signal),
      load: (target, waitedMs) => this.loadInLane(target, waitedMs),
      stopTaking: () => b.leases.yielding || state.browserFailed,
      giveBack: (target) => b.source.giveBack(target),
      signal: b.signal,
      pollMs: b.pollMs,
    });
    const lanesRun = this.lanes.done.finally(() => {
      state.lanesDone = true;
      this.browserWanted?.();
    });
    const settled = await Promise.allSettled([lanesRun, this.browserAfterLanes(state)]);
    for (const result of settled) if (result.status === 'rejected') throw result.reason;
  }

  /** Chromium for the pages the lanes hand it, started by the first of them; `state` is shared with the lanes. */
  private async browserAfterLanes(state: { lanesDone: boolean; browserFailed: boolean }): Promise<void> {
    const { b, browserQueue } = this;
    while (browserQueue.length === 0 && !state.lanesDone) await new Promise<void>((resolve) => (this.browserWanted = resolve));
    this.browserWanted = undefined;
    if (browserQueue.length === 0 || b.signal.aborted) return;
    const fromLanes = async (room: number): Promise<TargetSupply> => ({
      targets: browserQueue.splice(0, room),
      exhausted: state.lanesDone && browserQueue.length === 0,
    });
    await this.runBrowser(browserQueue.splice(0), state.lanesDone && b.fixedUrls ? undefined : fromLanes).catch((err: unknown) => {
      state.browserFailed = true;
      throw err;
    });
  }
}
