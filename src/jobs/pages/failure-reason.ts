// Why a page failed, as one of a few classes a metric can carry. The page store
// records a failure as the message the page's owner reads (GET /v2/crawl/{id}/errors),
// so the class is read from that message: each rule matches the wording of the
// code that makes such a message (named beside the rule). An answer with an HTTP
// error status is no failure here: the page is stored with its statusCode.

export const FAILURE_REASONS = [
  'robots',
  'crawl_rules',
  'blocked_address',
  'not_served',
  'throttled',
  'blocked',
  'timeout',
  'network',
  'too_large',
  'conversion',
  'action',
  'other',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

const RULES: [FailureReason, RegExp][] = [
  // planCrawl's start URL, page-handler's redirect refusal.
  ['robots', /robots\.txt disallows/],
  // address-policy.ts BlockedAddressError (the guard proxy's 403, guarded fetches).
  ['blocked_address', /^Refused to (crawl|connect to|fetch) .*(address|listeners)/],
  // The page's size limits (page-size.ts), an image larger than OCR reads (image-to-markdown.ts).
  ['too_large', /\(CRAWL_MAX_(PAGE|FILE|DOCUMENT)_BYTES\)|\(OCR_MAX_PIXELS=/],
  // The crawl's own rules: the start URL's filters, redirects it does not follow, URL length, a redirect to a page it has.
  ['crawl_rules', /^The start URL |which this crawl (does not follow|already scraped)|\(CRAWL_MAX_URL_LENGTH\)/],
  // The request's options: minAge with no cached copy, a browser-only request without a browser, a file download,
  // OCR asked of a server without its engine (ocr-engine.ts).
  ['not_served', /^No cached copy of this page|\(CRAWL_RENDERING=http\)|^The URL is a file download|PDF parsing is off|^OCR is not available on this server/],
  // The page's host kept throttling it (jobs/politeness/host-answer.ts throttledFailure).
  ['throttled', /^The site kept answering HTTP \d+ .*(HOST_THROTTLE_MAX_RETRIES|outlasts the scrape's timeout)/],
  // proxy auto found no proxy tier the site lets the page through (jobs/batch/browser-verdicts.ts blockedFailure).
  ['blocked', /^Blocked by the site at every proxy tier tried/],
  // page-budget.ts, Playwright's and Crawlee's timeouts, guarded-fetch.ts.
  ['timeout', /did not finish within|Timeout \d+ ?ms exceeded|timed out|TimeoutError/i],
  // actions.ts ActionFailure.
  ['action', /^Action \d+ \(/],
  // Chromium's net::ERR_*, the guard proxy's 502s, Node's socket errors.
  [
    'network',
    /net::ERR_|^Cannot (resolve|fetch) |did not resolve|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|closed before the response|Too many redirects/,
  ],
  // page-handler.ts conversion and storage, pdf-to-markdown.ts, image-to-markdown.ts, guarded-fetch.ts decoding.
  ['conversion', /could not be turned into a document|^The (PDF|image) could not be read|^The page could not be stored|^Cannot decode the /],
];

export function failureReason(error: string): FailureReason {
  return RULES.find(([, pattern]) => pattern.test(error))?.[0] ?? 'other';
}
