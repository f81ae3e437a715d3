// The longest URL a crawl admits (CRAWL_MAX_URL_LENGTH). Its key is
// unique-indexed in the frontier, the pages, the robots-blocked list, the
// webhook outbox and the usage ledger, and an index entry cannot pass 2,704
// bytes: a longer key would fail the write that carries it, on every retry.
// The key can be longer than the URL (query parameters are re-encoded), so
// both are measured. Both are ASCII (the URL parser percent-encodes and
// punycodes), so characters are bytes.

export interface QueuedUrl {
  url: string;
  urlKey: string;
}

export function isTooLong(entry: QueuedUrl, maxLength: number): boolean {
  return entry.url.length > maxLength || entry.urlKey.length > maxLength;
}

/** The start of a long URL, enough to recognise it in a message. */
function abbreviated(url: string): string {
  return url.length > 200 ? `${url.slice(0, 200)}...` : url;
}

/** `<url> is N characters long, more than the M-character limit (CRAWL_MAX_URL_LENGTH)`, for a sentence that names the URL's role. */
export function tooLongReason(entry: QueuedUrl, maxLength: number): string {
  const length = Math.max(entry.url.length, entry.urlKey.length);
  return `${abbreviated(entry.url)} is ${length} characters long, more than the ${maxLength}-character limit (CRAWL_MAX_URL_LENGTH)`;
}
