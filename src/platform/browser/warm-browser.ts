// A Chromium a worker keeps running for single scrapes (POST /v2/scrape): each
// scrape opens a fresh incognito context in it (its own cookies, cache, storage,
// and proxy setting) instead of launching a browser of its own, which was most of
// a script-rendered scrape's time. It is started as every browser of the worker
// is (chromium-launch.ts: sandbox on, CHROMIUM_USER, CHROMIUM_ENVIRONMENT, all
// traffic through the guard proxy), started again when it died, and closed once
// no scrape used it for CRAWL_WARM_BROWSER_IDLE_MS.
import { chromium, type Browser, type BrowserContext, type LaunchOptions, type Page } from 'playwright';

/** What Crawlee calls on its `launchContext.launcher` with `useIncognitoPages` (browser-scraper.ts). */
export interface WarmLauncher {
  name(): string;
  executablePath(): string;
  /** Lends the warm browser, started with these options if none runs: closing the loan closes only the contexts opened through it. */
  launch(options: LaunchOptions): Promise<Browser>;
}

export interface WarmBrowser {
  launcher: WarmLauncher;
  /** Closes the browser (the worker stops). */
  close(): Promise<void>;
}

/** The browser as one batch sees it: its contexts are its own, and its close() ends only them, then calls `returned`. */
function lend(browser: Browser, returned: () => void): Browser {
  const contexts = new Set<BrowserContext>();
  let closed = false;
  const own = <T extends BrowserContext>(context: T): T => {
    contexts.add(context);
    context.once('close', () => contexts.delete(context));
    return context;
  };
  return new Proxy(browser, {
    get(target, prop, receiver) {
      if (prop === 'newContext') return async (...args: Parameters<Browser['newContext']>) => own(await target.newContext(...args));
      if (prop === 'newPage') {
        return async (...args: Parameters<Browser['newPage']>): Promise<Page> => {
          const page = await target.newPage(...args);
          own(page.context());
          return page;
        };
      }
      if (prop === 'contexts') return () => [...contexts];
      if (prop === 'close') {
        return async () => {
          if (closed) return;
          closed = true;
          await Promise.all([...contexts].map((c) => c.close().catch(() => undefined)));
          returned();
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export function createWarmBrowser(opts: { idleMs: number }): WarmBrowser {
  let running: Promise<Browser> | undefined;
  let loans = 0;
  let idleTimer: NodeJS.Timeout | undefined;

  const start = (options: LaunchOptions): Promise<Browser> => {
    const launched = chromium.launch(options);
    running = launched;
    launched.then(
      (browser) => browser.on('disconnected', () => running === launched && (running = undefined)),
      () => running === launched && (running = undefined),
    );
    return launched;
  };

  const closeRunning = async () => {
    const browser = running;
    running = undefined;
    await (await browser?.catch(() => undefined))?.close();
  };

  const returned = () => {
    loans--;
    if (loans > 0) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void closeRunning().catch(() => undefined), opts.idleMs);
    idleTimer.unref();
  };

  return {
    launcher: {
      name: () => chromium.name(),
      executablePath: () => chromium.executablePath(),
      async launch(options) {
        clearTimeout(idleTimer);
        loans++;
        try {
          const browser = await (running ?? start(options));
          return lend(browser, returned);
        } catch (err) {
          returned();
          throw err;
        }
      },
    },
    async close() {
      clearTimeout(idleTimer);
      await closeRunning();
    },
  };
}
