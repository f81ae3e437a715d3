// A page loaded over HTTP instead of in Chromium. Under CRAWL_RENDERING=auto,
// anything the HTTP path could answer differently from the browser goes to the
// browser, failures included, so that a page's document and its errors read the
// same whichever path it took; whether the HTML itself looks script-rendered is
// told when it is converted (html-conversion.ts), where it is parsed. Under
// CRAWL_RENDERING=http there is no browser: the answer is taken as it is, a
// failed fetch fails the page, and an answer that is no HTML page is loaded as a
// file (a PDF is parsed), as the browser path does with downloads.
import type { GuardedFetchResult } from '../platform/net/guarded-fetch.ts';
import { answerNeedsBrowser, isHtmlType, mediaType } from './rendering/needs-browser.ts';
import type { PageLoad } from './page-load.ts';

/**
 * `browser` (auto only): why the page goes to Chromium (its status, its type, a failed fetch).
 * `file` (http only): the answer is no HTML page, so the page is loaded as a file.
 */
export type HttpLoad = { load: PageLoad } | { browser: string } | { file: string };

/** auto: HTTP first, Chromium when the page needs it; http: never Chromium. */
export type HttpRendering = 'auto' | 'http';

export type FetchPage = (url: string, opts: FetchPageOptions) => Promise<GuardedFetchResult>;

export interface FetchPageOptions {
  headers?: Record<string, string>;
  timeoutMs: number;
  /** scrapeOptions.skipTlsVerification (unset: true), as the browser is told. */
  insecureTls?: boolean;
  signal?: AbortSignal;
}

/**
 * A fetch that failed for a reason of the page's own that Chromium would not change (its host kept
 * throttling it): the page fails with this message instead of going to the browser.
 */
export class PageGivenUp extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageGivenUp';
  }
}

/** The charset the answer declares (header, then a <meta> in the first 1,024 bytes), UTF-8 when none or an unknown one. */
export function decodeHtml(body: Buffer, contentType: string | undefined): string {
  const declared =
    /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 1024).toString('latin1'))?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(body);
}

export async function loadOverHttp(url: string, fetchPage: FetchPage, opts: FetchPageOptions, rendering: HttpRendering = 'auto'): Promise<HttpLoad> {
  let res: GuardedFetchResult;
  try {
    res = await fetchPage(url, opts);
  } catch (err) {
    if (opts.signal?.aborted || rendering === 'http' || err instanceof PageGivenUp) throw err;
    return { browser: `the HTTP fetch failed (${(err as Error).message})` };
  }
  const contentType = res.headers['content-type'];
  if (rendering === 'http') {
    if (!isHtmlType(contentType)) return { file: `content type ${mediaType(contentType)}` };
  } else {
    const answered = answerNeedsBrowser(res.status, contentType);
    if (answered) return { browser: answered };
  }
  const rawHtml = decodeHtml(res.body, contentType);
  return { load: { finalUrl: res.finalUrl, statusCode: res.status, ...(contentType !== undefined && { contentType }), rawHtml } };
}
