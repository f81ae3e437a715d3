// The bench's floor for the browser path: Playwright with nothing around it. One
// Chromium, a fresh context per page (as isolated as the service's pages), a fixed
// number of pages at a time, `load`, the page's HTML read once, same-origin links
// followed, every URL visited once. What a crawler adds on top of this (queues,
// retries, storage, durability) is the gap the service should close.
import { chromium, type LaunchOptions } from 'playwright';

/** Crawls from `start` until no unvisited same-origin link is left; returns the pages loaded. */
export async function rawPlaywrightCrawl(start: string, launchOptions: LaunchOptions, concurrency: number): Promise<number> {
  const origin = new URL(start).origin;
  const seen = new Set([start]);
  const queue = [start];
  let inFlight = 0;
  let pages = 0;
  // Runners with nothing to take wait until a page in flight finishes (and perhaps queues links).
  const waiting: (() => void)[] = [];
  const wakeAll = () => waiting.splice(0).forEach((resolve) => resolve());
  const browser = await chromium.launch(launchOptions);
  try {
    const loadOne = async (url: string) => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(url, { waitUntil: 'load' });
        await page.content();
        // Source text, as all code sent into a page (docs/development.md): tsx would rewrite a function.
        const links = await page.evaluate<string[]>("Array.from(document.querySelectorAll('a[href]'), (a) => a.href)");
        pages++;
        for (const link of links) {
          const next = new URL(link);
          next.hash = '';
          if (next.origin === origin && !seen.has(next.href)) {
            seen.add(next.href);
            queue.push(next.href);
          }
        }
      } finally {
        await context.close();
      }
    };
    const runner = async () => {
      for (;;) {
        const url = queue.shift();
        if (url === undefined) {
          if (inFlight === 0) return wakeAll();
          await new Promise<void>((resolve) => waiting.push(resolve));
          continue;
        }
        inFlight++;
        try {
          await loadOne(url);
        } finally {
          inFlight--;
          wakeAll();
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, runner));
    return pages;
  } finally {
    await browser.close();
  }
}
