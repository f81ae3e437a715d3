// PDFs are fetched outside the browser (Chromium turns them into downloads)
// and parsed into markdown; `parsers: []` leaves them unparsed and the page
// fails with a clear message instead. With the image parser, images (by URL
// extension, content type or first bytes) come the same way and are read by OCR.
import type { FetchResource } from '../platform/net/fetch-resource.ts';
import { imageToMarkdown } from './image-to-markdown.ts';
import { imageFormat, imageFormatOfPath, imageFormatOfType } from './ocr/image-format.ts';
import type { OcrRun } from './ocr/ocr-pages.ts';
import type { PageLoad } from './page-load.ts';
import { pdfToMarkdown, type PdfToMarkdownOptions } from './pdf-to-markdown.ts';

export function looksLikePdfUrl(url: string): boolean {
  return /\.pdf$/i.test(new URL(url).pathname);
}

/** An image URL by its extension (.png, .jpg, ... .avif): fetched as a file when the image parser is on. */
export function looksLikeImageUrl(url: string): boolean {
  return imageFormatOfPath(new URL(url).pathname) !== undefined;
}

function isPdf(body: Buffer, contentType: string | undefined): boolean {
  return body.subarray(0, 5).toString('latin1') === '%PDF-' || /application\/pdf/i.test(contentType ?? '');
}

export interface FileOptions {
  /** The pdf parser's options; undefined: PDFs are not parsed. */
  pdf?: Omit<PdfToMarkdownOptions, 'ocr'>;
  /** The image parser is on. */
  images: boolean;
  ocr: OcrRun;
}

/** The file at `url` as a page load: a parsed PDF, an image read by OCR, or its HTML when the server answered with a page. */
export async function loadFile(url: string, fetch: FetchResource, opts: FileOptions): Promise<PageLoad> {
  const res = await fetch(url);
  const contentType = res.headers['content-type'];
  const base = { finalUrl: res.finalUrl, statusCode: res.status, contentType };
  const body = new Uint8Array(res.body);
  if (isPdf(res.body, contentType)) {
    if (!opts.pdf) throw new Error('The page is a PDF and PDF parsing is off for this crawl (scrapeOptions.parsers does not include "pdf")');
    return { ...base, pdf: await pdfToMarkdown(body, { ...opts.pdf, ocr: opts.ocr }) };
  }
  if (opts.images && (imageFormat(body) || imageFormatOfType(contentType))) {
    return { ...base, pdf: await imageToMarkdown(body, opts.ocr, { pages: opts.pdf?.pages, blocks: opts.pdf?.blocks }) };
  }
  return { ...base, rawHtml: res.body.toString('utf8') };
}
