import { describe, expect, it } from 'vitest';
import { documentTooLargeMessage, fileTooLargeMessage, pageTooLargeMessage } from '../../../src/page/page-size.ts';

const MB = 1024 * 1024;

describe('size limit messages', () => {
  it('say how large the page is and which limit and setting it passed', () => {
    expect(pageTooLargeMessage(12.34 * MB, 10 * MB)).toBe('The page is 12.4 MB, more than the 10 MB limit (CRAWL_MAX_PAGE_BYTES)');
    expect(pageTooLargeMessage(300 * 1024, 200 * 1024)).toBe('The page is 300 KB, more than the 200 KB limit (CRAWL_MAX_PAGE_BYTES)');
    expect(pageTooLargeMessage(900, 512)).toBe('The page is 900 bytes, more than the 512 bytes limit (CRAWL_MAX_PAGE_BYTES)');
  });

  it('never show a size just over the limit as equal to it', () => {
    expect(pageTooLargeMessage(10 * MB + 1, 10 * MB)).toBe('The page is 10.1 MB, more than the 10 MB limit (CRAWL_MAX_PAGE_BYTES)');
  });

  it('name the document and file settings', () => {
    expect(documentTooLargeMessage(60 * MB, 50 * MB)).toMatch(/^The page's document .* is 60 MB, more than the 50 MB limit \(CRAWL_MAX_DOCUMENT_BYTES\)/);
    expect(fileTooLargeMessage(50 * MB)).toBe('The file is larger than the 50 MB limit (CRAWL_MAX_FILE_BYTES)');
  });
});
