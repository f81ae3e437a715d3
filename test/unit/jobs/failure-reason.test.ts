// The reason class of a failed page, read from the messages the code that fails
// pages makes: built here by that code wherever it is exported, so a change of
// wording that would move a page to `other` fails this test.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { failureReason, FAILURE_REASONS, type FailureReason } from '../../../src/jobs/pages/failure-reason.ts';
import { NO_CACHED_DATA } from '../../../src/jobs/pages/page-cache.ts';
import { tooLongReason } from '../../../src/jobs/frontier/url-length.ts';
import { BlockedAddressError } from '../../../src/platform/net/address-policy.ts';
import { ActionFailure } from '../../../src/page/actions.ts';
import { PageBudget } from '../../../src/page/page-budget.ts';
import { documentTooLargeMessage, fileTooLargeMessage, pageOverLimitMessage, pageTooLargeMessage } from '../../../src/page/page-size.ts';
import { renderingRefusal } from '../../../src/page/rendering/needs-browser.ts';
import { throttledFailure } from '../../../src/jobs/politeness/host-answer.ts';

const url = 'http://site.test/page';

async function budgetTimeout(): Promise<string> {
  const budget = new PageBudget(1);
  return budget.race(new Promise<never>(() => {})).catch((err: Error) => err.message);
}

describe('failureReason', () => {
  it('sorts every kind of page failure into its class', async () => {
    const cases: [string, FailureReason][] = [
      ['robots.txt disallows the start URL, so it was not scraped.', 'robots'],
      [`Redirected to ${url}, which robots.txt disallows`, 'robots'],
      ['The start URL matches excludePaths pattern /x/, so it was not scraped.', 'crawl_rules'],
      [`Redirected to ${url}, which this crawl does not follow: external link`, 'crawl_rules'],
      [`Redirected to ${url}, which this crawl already scraped`, 'crawl_rules'],
      [`The page redirected to a URL too long to crawl: ${tooLongReason({ url, urlKey: url }, 10)}`, 'crawl_rules'],
      [new BlockedAddressError('127.0.0.1', '127.0.0.1', 'loopback', url).message, 'blocked_address'],
      [new BlockedAddressError('127.0.0.1', '127.0.0.1', 'loopback').message, 'blocked_address'],
      [BlockedAddressError.forService('localhost', '127.0.0.1', { name: 'gateway', host: '127.0.0.1', port: 3002 }).forUrl(url).message, 'blocked_address'],
      [NO_CACHED_DATA, 'not_served'],
      [renderingRefusal('a screenshot'), 'not_served'],
      ['The URL is a file download (application/zip), not a web page', 'not_served'],
      ['The page is a PDF and PDF parsing is off for this crawl (scrapeOptions.parsers does not include "pdf")', 'not_served'],
      [
        'OCR is not available on this server: tesseract (Debian: apt-get install tesseract-ocr tesseract-ocr-eng; or set OCR_TESSERACT_PATH) was not found',
        'not_served',
      ],
      [throttledFailure(429, 7), 'throttled'],
      [throttledFailure(503, 1), 'throttled'],
      [await budgetTimeout(), 'timeout'],
      ['TimeoutError: page.waitForSelector: Timeout 300ms exceeded.', 'timeout'],
      ['page.goto: Timeout 30000ms exceeded.', 'timeout'],
      ['Navigation timed out after 30 seconds.', 'timeout'],
      ['page.goto: net::ERR_NAME_NOT_RESOLVED at http://nowhere.test/', 'network'],
      ['Cannot resolve nowhere.test: nowhere.test did not resolve to any address', 'network'],
      [`Cannot fetch ${url}: connection refused`, 'network'],
      [`Too many redirects fetching ${url}: more than 10`, 'network'],
      [pageTooLargeMessage(2_000_000, 1_000_000), 'too_large'],
      [pageOverLimitMessage(1_000_000), 'too_large'],
      [fileTooLargeMessage(1_000_000), 'too_large'],
      ['The image is 10000×10000 pixels, more than OCR reads (OCR_MAX_PIXELS=40000000)', 'too_large'],
      [documentTooLargeMessage(2_000_000, 1_000_000), 'too_large'],
      ['The PDF could not be read: Invalid PDF structure.', 'conversion'],
      ['The image could not be read by OCR: tesseract took longer than 30000 ms (OCR_PAGE_TIMEOUT_MS)', 'conversion'],
      ['The page could not be turned into a document: RangeError: Maximum call stack size exceeded', 'conversion'],
      ['The page could not be stored: invalid byte sequence', 'conversion'],
      [`Cannot decode the gzip response of ${url}: incorrect header check`, 'conversion'],
      [new ActionFailure(0, 'click', 'no element matches #go').message, 'action'],
      ['something nobody expected', 'other'],
    ];
    expect(cases.map(([message]) => [message, failureReason(message)])).toEqual(cases);
  });

  it('has every class explained in the metrics table', () => {
    const docs = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
    const row = docs.split('\n').find((line) => line.startsWith('| `crawl_service_pages_failed_total`'))!;
    expect(FAILURE_REASONS.filter((reason) => !new RegExp(`[ ,]${reason}( \\(|,| \\|)`).test(row))).toEqual([]);
  });
});
