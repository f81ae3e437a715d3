// Size limits on what a page may bring in, and the failed-page messages that
// name the limit and its setting. MB here is 1,048,576 bytes, as in docs/limits.md.

const KB = 1024;
const MB = 1024 * KB;

function amount(bytes: number, round: (n: number) => number): string {
  if (bytes >= MB) return `${round((bytes / MB) * 10) / 10} MB`;
  if (bytes >= KB) return `${round((bytes / KB) * 10) / 10} KB`;
  return `${bytes} bytes`;
}

/** A size over a limit is rounded up, so it never reads as equal to the limit it exceeds. */
function overLimit(what: string, bytes: number, limit: number, setting: string): string {
  return `${what} is ${amount(bytes, Math.ceil)}, more than the ${amount(limit, Math.round)} limit (${setting})`;
}

export function pageTooLargeMessage(bytes: number, limit: number): string {
  return overLimit('The page', bytes, limit, 'CRAWL_MAX_PAGE_BYTES');
}

export function documentTooLargeMessage(bytes: number, limit: number): string {
  return `${overLimit("The page's document (every requested format together)", bytes, limit, 'CRAWL_MAX_DOCUMENT_BYTES')}; ask for fewer formats`;
}

/** For a body cut off at the limit, whose full size is unknown. */
function largerThan(what: string, limit: number, setting: string): string {
  return `${what} is larger than the ${amount(limit, Math.round)} limit (${setting})`;
}

export function fileTooLargeMessage(limit: number): string {
  return largerThan('The file', limit, 'CRAWL_MAX_FILE_BYTES');
}

export function pageOverLimitMessage(limit: number): string {
  return largerThan('The page', limit, 'CRAWL_MAX_PAGE_BYTES');
}

/** The page's HTML is over CRAWL_MAX_PAGE_BYTES: the page fails without being read in full. */
export class PageTooLargeError extends Error {
  constructor(bytes: number, limit: number) {
    super(pageTooLargeMessage(bytes, limit));
    this.name = 'PageTooLargeError';
  }
}
