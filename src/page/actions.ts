// Firecrawl's page actions, run in order after the page has loaded (and waitFor
// has passed), before the page's content is captured. Their products are returned
// under the document's `actions` field.
import type { ElementHandle, Page } from 'playwright';
import type { ScrapeAction } from './scrape-options.ts';
import { pageHtml, pdfDataUrl, screenshotDataUrl } from './capture.ts';
import { InPageScript } from './in-page/in-page-script.ts';
import type { PageBudget } from './page-budget.ts';

const FOCUSED_ELEMENT = new InPageScript<void, Element>('focused-element.js');
const SCROLL_BY_VIEW = new InPageScript<{ element: ElementHandle | null; sign: number }, void>('scroll-by-view.js');

export interface ActionResults {
  /** Data URLs, one per screenshot action. */
  screenshots: string[];
  scrapes: { url: string; html: string }[];
  javascriptReturns: { type: string; value: unknown }[];
  /** Data URLs, one per pdf action. */
  pdfs: string[];
}

/** Names the failing action by its index in the request's `actions` array (0-based, like the request's own paths). */
export class ActionFailure extends Error {
  constructor(index: number, type: string, reason: string) {
    super(`Action ${index} (${type}) failed: ${reason}`);
  }
}

class NoMatch extends Error {
  constructor(selector: string) {
    super(`no element matches ${JSON.stringify(selector)}`);
  }
}

/** Matches of `selector` now; a missing element fails at once instead of after the whole timeout (use a wait action for late ones). */
async function present(page: Page, selector: string) {
  const matches = page.locator(selector);
  const count = await matches.count();
  if (count === 0) throw new NoMatch(selector);
  return { matches, count };
}

/** `typeof`, with null and arrays told apart from objects. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Runs the script as an expression (its value is returned; promises are awaited)
 * or, if it uses `return` at top level, as the body of an async function. The
 * first attempt fails at parse time in that case, so nothing runs twice.
 */
async function evaluateScript(page: Page, script: string, budget: PageBudget): Promise<unknown> {
  try {
    return await budget.race(page.evaluate(script));
  } catch (err) {
    if (!/Illegal return statement/.test((err as Error).message)) throw err;
    return budget.race(page.evaluate(`(async () => {\n${script}\n})()`));
  }
}

async function runAction(page: Page, action: ScrapeAction, budget: PageBudget, results: ActionResults, maxHtmlBytes: number): Promise<void> {
  switch (action.type) {
    case 'wait':
      if (action.selector !== undefined) await page.waitForSelector(action.selector, { timeout: budget.remaining() });
      else await page.waitForTimeout(Math.min(action.milliseconds ?? 0, budget.remaining()));
      return;
    case 'click': {
      const { matches, count } = await present(page, action.selector);
      for (let i = 0; i < (action.all ? count : 1); i++) await matches.nth(i).click({ timeout: budget.remaining() });
      return;
    }
    case 'write':
      await budget.race(page.keyboard.type(action.text));
      return;
    case 'press': {
      // Through the focused element rather than page.keyboard: then Playwright waits for a navigation
      // the key starts (Enter in a form), and what follows sees the new page.
      const focused = (await FOCUSED_ELEMENT.handle(page)).asElement();
      if (!focused) throw new Error('no element has the focus');
      await focused.press(action.key, { timeout: budget.remaining() });
      return;
    }
    case 'scroll': {
      const sign = action.direction === 'up' ? -1 : 1;
      if (action.selector === undefined) return budget.race(SCROLL_BY_VIEW.run(page, { element: null, sign }));
      const { matches } = await present(page, action.selector);
      const element = await matches.first().elementHandle({ timeout: budget.remaining() });
      try {
        await budget.race(SCROLL_BY_VIEW.run(page, { element, sign }));
      } finally {
        await element.dispose();
      }
      return;
    }
    case 'screenshot':
      results.screenshots.push(await screenshotDataUrl(page, action, budget));
      return;
    case 'scrape':
      results.scrapes.push({ url: page.url(), html: await pageHtml(page, budget, maxHtmlBytes) });
      return;
    case 'executeJavascript': {
      const value = await evaluateScript(page, action.script, budget);
      // Through JSON so that what is stored later is exactly what is returned here (undefined becomes null).
      const json = JSON.stringify(value);
      results.javascriptReturns.push({ type: typeOf(value), value: json === undefined ? null : JSON.parse(json) });
      return;
    }
    case 'pdf':
      results.pdfs.push(await pdfDataUrl(page, action, budget));
      return;
  }
}

/**
 * Runs every action; the first failure stops the page with an {@link ActionFailure}.
 * A `scrape` action's HTML is held to `maxHtmlBytes`, like the page's own.
 */
export async function runActions(page: Page, actions: ScrapeAction[], budget: PageBudget, maxHtmlBytes = Infinity): Promise<ActionResults> {
  const results: ActionResults = { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] };
  for (const [index, action] of actions.entries()) {
    try {
      await runAction(page, action, budget, results, maxHtmlBytes);
    } catch (err) {
      const reason = (err as Error).message.split('\n')[0] ?? String(err);
      throw new ActionFailure(index, action.type, reason);
    }
  }
  return results;
}
