// Snapshots of a page as data the caller can store: HTML, screenshots, PDFs.
// Shared by the final capture of a page and by the screenshot/scrape/pdf actions.
import type { CDPSession, Page } from 'playwright';
import { InPageScript } from './in-page/in-page-script.ts';
import type { PageBudget } from './page-budget.ts';
import { PageTooLargeError } from './page-size.ts';

export interface ScreenshotOptions {
  fullPage?: boolean;
  /** JPEG quality; without it the screenshot is a PNG. */
  quality?: number;
  /** Window size for the shot; the page's own size is restored afterwards. */
  viewport?: { width: number; height: number };
}

export interface PdfOptions {
  format?: string;
  landscape?: boolean;
  scale?: number;
}

const HTML_BYTES = new InPageScript<number, number>('html-bytes.js');

/** What the DevTools protocol answers while the page's document is being replaced. */
const NAVIGATING = /Execution context was destroyed|Cannot find default execution context|Cannot find context with specified id/;

/**
 * UTF-8 size of the document's HTML, measured in the browser so that an oversized DOM never
 * crosses into the worker. It runs in the page's own world, so a page that rewrites its DOM
 * getters can misreport itself; the worker checks the size again on what it receives.
 */
async function htmlBytesInPage(session: CDPSession, max: number): Promise<number> {
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', { returnByValue: true, expression: HTML_BYTES.expression(max) });
  if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
  return Number(result.value);
}

/**
 * The document's HTML as page.content() gives it (the doctype, then the root element), serialized
 * by the browser's DOM agent, which the page's scripts cannot change. Through a CDP session of its
 * own rather than page.content(), whose first call on a document injects Playwright's utility
 * script into a world of its own: with page.evaluate, 37 ms of a fresh page against 16 this way
 * (bench site, 2026-11-29), most of it the renderer's main thread.
 */
async function readHtml(page: Page, maxBytes: number): Promise<string> {
  const session = await page.context().newCDPSession(page);
  try {
    if (maxBytes !== Infinity) {
      const bytes = await htmlBytesInPage(session, maxBytes);
      if (bytes > maxBytes) throw new PageTooLargeError(bytes, maxBytes);
    }
    const { root } = await session.send('DOM.getDocument', { depth: 0 });
    return (await session.send('DOM.getOuterHTML', { nodeId: root.nodeId })).outerHTML;
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/**
 * The current document's HTML, refused (PageTooLargeError) when larger than `maxBytes`.
 * Right after an action that starts a navigation (pressing Enter in a form), the document is
 * being replaced: wait for the new one to load and read that one.
 */
export async function pageHtml(page: Page, budget: PageBudget, maxBytes = Infinity): Promise<string> {
  for (;;) {
    try {
      return await budget.race(readHtml(page, maxBytes));
    } catch (err) {
      if (!NAVIGATING.test((err as Error).message)) throw err;
      await page.waitForLoadState('load', { timeout: budget.remaining() });
    }
  }
}

export async function screenshotDataUrl(page: Page, opts: ScreenshotOptions, budget: PageBudget): Promise<string> {
  const previous = opts.viewport ? page.viewportSize() : null;
  if (opts.viewport) await page.setViewportSize(opts.viewport);
  const jpeg = opts.quality !== undefined;
  const image = await page.screenshot({
    fullPage: opts.fullPage === true,
    type: jpeg ? 'jpeg' : 'png',
    quality: opts.quality,
    // CSS pixels: a mobile page (device scale factor 3) would otherwise give 9x the image.
    scale: 'css',
    timeout: budget.remaining(),
  });
  // A failed shot fails the page, so only a successful one needs the size put back.
  if (previous) await page.setViewportSize(previous);
  return `data:image/${jpeg ? 'jpeg' : 'png'};base64,${image.toString('base64')}`;
}

export async function pdfDataUrl(page: Page, opts: PdfOptions, budget: PageBudget): Promise<string> {
  const pdf = await budget.race(page.pdf({ format: opts.format, landscape: opts.landscape, scale: opts.scale, printBackground: true }));
  return `data:application/pdf;base64,${pdf.toString('base64')}`;
}
