// PDFs are fetched outside the browser (Chromium turns them into downloads)
// and parsed into markdown; `parsers: []` leaves them unparsed and the page
// fails with a clear message instead.
import type { FetchResource } from '../platform/net/fetch-resource.ts';
import type { PageLoad } from './page-load.ts';
import { pdfToMarkdown } from './pdf-to-markdown.ts';

export function looksLikePdfUrl(url: string): boolean {
  return /\.pdf$/i.test(new URL(url).pathname);
}

function isPdf(body: Buffer, contentType: string | undefined): boolean {
  return body.subarray(0, 5).toString('latin1') === '%PDF-' || /application\/pdf/i.test(contentType ?? '');
}

/** The file at `url` as a page load: a parsed PDF, or its HTML when the server answered with a page. */
export async function loadFile(url: string, fetch: FetchResource, opts: { parsePdf: boolean; maxPages?: number }): Promise<PageLoad> {
  const res = await fetch(url);
  const contentType = res.headers['content-type'];
  const base = { finalUrl: res.finalUrl, statusCode: res.status, contentType };
  if (!isPdf(res.body, contentType)) return { ...base, rawHtml: res.body.toString('utf8') };
  if (!opts.parsePdf) throw new Error('The page is a PDF and PDF parsing is off for this crawl (scrapeOptions.parsers does not include "pdf")');
  return { ...base, pdf: await pdfToMarkdown(new Uint8Array(res.body), { maxPages: opts.maxPages }) };
}
