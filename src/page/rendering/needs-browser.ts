// When a page needs Chromium (CRAWL_RENDERING=auto). A page is first fetched
// over HTTP; it goes to the browser when the request asks for what only a
// browser does, or when the HTML it got looks written by scripts. The rule,
// in order (the first that holds is the reason given):
//   request: actions, a format that needs one (its module's needsBrowser: a
//     screenshot, the branding format's computed styles), waitFor, mobile
//     emulation, a location;
//   answer: not HTML (anything but a PDF, which has its own path), or a status
//     that bot filters answer non-browsers with (401, 403, 429, 503; a 429 or
//     503 only reaches this when it is a challenge: jobs/politeness/ waits out
//     and retries any other as its site throttling);
//   page: a <meta http-equiv="refresh"> or a script that navigates (client-side
//     redirects); a <noscript> that asks for JavaScript; less than
//     MIN_STATIC_TEXT characters of text while scripts are present (an app
//     shell); an inline script that writes into the document.
// Scripts that only load (analytics, bundles of a server-rendered page) do not
// count: a server-rendered page converts the same either way.
import type { ScrapeOptions } from '../scrape-options.ts';
import { requestedFormats } from '../formats/registry.ts';
import { visibleText } from '../page-text.ts';

/** Below this much visible text, a page with scripts is taken for an app shell. */
export const MIN_STATIC_TEXT = 200;

/** Statuses bot filters send to clients that run no JavaScript; the browser may get the page. */
const BROWSER_CHALLENGE_STATUSES = new Set([401, 403, 429, 503]);

const WRITES_DOCUMENT =
  /\b(?:document\.write(?:ln)?\s*\(|innerHTML\s*=|outerHTML\s*=|insertAdjacent(?:HTML|Element|Text)\s*\(|appendChild\s*\(|\.append\s*\(|\.prepend\s*\(|replaceChildren\s*\(|textContent\s*=|innerText\s*=|createElement\s*\(|ReactDOM|createRoot\s*\(|hydrate(?:Root)?\s*\()/;
const NAVIGATES = /\b(?:(?:window|document|top|self)\.)?location(?:\.href)?\s*=(?!=)|\blocation\.(?:replace|assign)\s*\(/;
const ASKS_FOR_JAVASCRIPT = /javascript/i;
/** Inline script text examined per page: enough for any real page's inline code, bounded for a hostile one. */
const MAX_INLINE_SCRIPT_CHARS = 200_000;

/** Why the request itself needs the browser, or undefined. */
export function requestNeedsBrowser(so: ScrapeOptions): string | undefined {
  if (so.actions?.length) return 'actions';
  const format = requestedFormats(so.formats).find(({ module }) => module.needsBrowser !== undefined);
  if (format) return format.module.needsBrowser;
  if (so.waitFor > 0) return 'waitFor';
  if (so.mobile) return 'mobile emulation';
  if (so.location) return 'a location';
  return undefined;
}

/** A Content-Type header's media type, lower case; 'none' when the answer has none. */
export function mediaType(contentType: string | undefined): string {
  return contentType?.split(';')[0]!.trim().toLowerCase() || 'none';
}

/** An answer without a type is taken for HTML, as browsers sniff it. */
export function isHtmlType(contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  return type === 'none' || type === 'text/html' || type === 'application/xhtml+xml';
}

/** A page's failure when the request needs a browser and CRAWL_RENDERING=http runs none. */
export function renderingRefusal(reason: string): string {
  return `The request asks for ${reason}, which needs a browser, and this deployment renders pages without one (CRAWL_RENDERING=http)`;
}

/** Why an HTTP answer cannot stand for what the browser would show, or undefined. */
export function answerNeedsBrowser(status: number, contentType: string | undefined): string | undefined {
  if (BROWSER_CHALLENGE_STATUSES.has(status)) return `HTTP ${status}`;
  if (!isHtmlType(contentType)) return `content type ${mediaType(contentType)}`;
  return undefined;
}

/** Why the fetched HTML looks script-rendered, or undefined when it converts as it is. */
export function pageNeedsBrowser(doc: Document): string | undefined {
  for (const meta of doc.querySelectorAll('meta[http-equiv]')) {
    if (meta.getAttribute('http-equiv')?.trim().toLowerCase() === 'refresh') return 'a meta refresh';
  }
  const scripts = [...doc.querySelectorAll('script')].filter((s) => {
    const type = s.getAttribute('type')?.trim().toLowerCase();
    return !type || type === 'module' || type.includes('javascript') || type.includes('ecmascript');
  });
  let inline = '';
  for (const s of scripts) {
    if (inline.length >= MAX_INLINE_SCRIPT_CHARS) break;
    inline += `${s.textContent ?? ''}\n`;
  }
  inline = inline.slice(0, MAX_INLINE_SCRIPT_CHARS);
  if (NAVIGATES.test(inline)) return 'a script that navigates';
  for (const n of doc.querySelectorAll('noscript')) {
    if (ASKS_FOR_JAVASCRIPT.test(n.textContent ?? '')) return 'a <noscript> asking for JavaScript';
  }
  if (scripts.length > 0 && visibleText(doc.body, MIN_STATIC_TEXT).length < MIN_STATIC_TEXT) return 'little text besides scripts';
  if (WRITES_DOCUMENT.test(inline)) return 'a script that writes into the page';
  return undefined;
}
