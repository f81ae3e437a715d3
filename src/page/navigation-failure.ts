// Why a page's navigation failed, beyond Playwright's one-line error: the failed
// main-frame request tells the URL that failed (after redirects) and, for a
// response Chromium turned into a download, its content type.
import type { Page, Request } from 'playwright';
import { imageFormatOfType } from './ocr/image-format.ts';

/** Playwright's goto error when the response became a download instead of a document. */
export function isDownloadError(error: unknown): boolean {
  return /Download is starting/.test((error as Error)?.message ?? '');
}

/** Chromium's network errors (DNS, connection, proxy, TLS): opaque codes a caller may be able to explain. */
export function isNetworkError(error: unknown): boolean {
  return /net::ERR_[A-Z_]+/.test((error as Error)?.message ?? '');
}

/**
 * Content types Chromium may show in a viewer instead of downloading (the full browser has a PDF
 * viewer; images it shows on a page of their own), which the file path reads: PDFs, and the images
 * OCR reads when the image parser is on.
 */
export function isFileContentType(contentType: string | undefined, opts: { images: boolean }): boolean {
  return /^application\/pdf\b/i.test(contentType ?? '') || (opts.images && imageFormatOfType(contentType) !== undefined);
}

export interface NavigationWatch {
  /** The main-frame navigation request that failed, if one did. */
  failed(): Request | undefined;
}

/**
 * Remembers the page's failed main-frame navigation. Playwright sends
 * `requestfailed` events only to pages that listen, and only for failed
 * requests, so this costs nothing on pages that load.
 */
export function watchNavigation(page: Page): NavigationWatch {
  let failed: Request | undefined;
  page.on('requestfailed', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) failed = request;
  });
  return { failed: () => failed };
}

/** Content type of the response behind a failed navigation (a download has one; a refused connection has none). */
export async function failedContentType(watch: NavigationWatch): Promise<string | undefined> {
  const response = await watch.failed()?.response();
  return response?.headers()['content-type'];
}
