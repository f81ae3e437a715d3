// Snapshots of a page as data the caller can store: HTML, screenshots, PDFs.
// Shared by the final capture of a page and by the screenshot/scrape/pdf actions.
import type { Page } from 'playwright';
import type { PageBudget } from './page-budget.ts';

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

/**
 * The current document's HTML. Right after an action that starts a navigation
 * (pressing Enter in a form), Playwright refuses while the page is navigating:
 * wait for the new document to load and read that one.
 */
export async function pageHtml(page: Page, budget: PageBudget): Promise<string> {
  for (;;) {
    try {
      return await budget.race(page.content());
    } catch (err) {
      if (!/page is navigating/.test((err as Error).message)) throw err;
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
