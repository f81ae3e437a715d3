// Opens the page a scrape saw in a session's browser: the scrape's URL with its
// headers, its waitFor and the actions that change the page (not those that only
// capture it). Trusted code of the host, over the session's own DevTools
// connection; the browser reaches the page through the session's guard proxy.
import { chromium } from 'playwright';
import { runActions } from '../../../page/actions.ts';
import { PageBudget } from '../../../page/page-budget.ts';
import { replayedActions, type PageOpening } from '../protocol/definitions.ts';

/** Opens the page in the first tab; returns why it did not open as the scrape saw it, if it did not. */
export async function openScrapedPage(cdpUrl: string, opening: PageOpening): Promise<string | undefined> {
  const budget = new PageBudget(opening.timeoutMs);
  let browser;
  try {
    browser = await chromium.connectOverCDP(cdpUrl, { timeout: budget.remaining() });
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = context.pages()[0] ?? (await context.newPage());
    if (opening.headers) await page.setExtraHTTPHeaders(opening.headers);
    const response = await page.goto(opening.url, { timeout: budget.remaining(), waitUntil: 'load' });
    if (opening.waitForMs > 0) await page.waitForTimeout(Math.min(opening.waitForMs, budget.remaining()));
    await runActions(page, replayedActions(opening.actions), budget);
    const status = response?.status();
    return status !== undefined && status >= 400 ? `The page answered ${status} when it was opened again` : undefined;
  } catch (err) {
    return `The scraped page did not open again as the scrape saw it: ${(err as Error).message}`;
  } finally {
    // Over a DevTools connection this only disconnects: the session's browser and its tab stay.
    await browser?.close();
  }
}
