import { describe, expect, it } from 'vitest';
import { canonicalUrl, urlKey } from '../../../src/jobs/frontier/normalize-url.ts';
import { isTooLong, tooLongReason } from '../../../src/jobs/frontier/url-length.ts';

const norm = { ignoreQueryParameters: false };
const entry = (url: string) => ({ url: canonicalUrl(url, norm), urlKey: urlKey(url, norm) });

describe('URL length limit', () => {
  it('admits a URL of exactly the limit and refuses one character more', () => {
    const base = 'http://a.test/';
    const at = entry(base + 'x'.repeat(2048 - base.length));
    expect(at.url).toHaveLength(2048);
    expect(isTooLong(at, 2048)).toBe(false);
    expect(isTooLong(entry(base + 'x'.repeat(2049 - base.length)), 2048)).toBe(true);
  });

  it('measures the key too, which re-encoding can make longer than the URL', () => {
    const e = entry(`http://a.test/p?q=${'~'.repeat(1000)}`);
    expect(e.url.length).toBeLessThan(2048);
    expect(e.urlKey.length).toBeGreaterThan(2048);
    expect(isTooLong(e, 2048)).toBe(true);
  });

  it('ignores the fragment, which is dropped before the URL is queued', () => {
    expect(isTooLong(entry(`http://a.test/page#${'f'.repeat(5000)}`), 2048)).toBe(false);
  });

  it('names the limit and its setting, and quotes only the start of the URL', () => {
    const reason = tooLongReason(entry(`http://a.test/${'y'.repeat(3000)}`), 2048);
    expect(reason).toMatch(/^http:\/\/a\.test\/y+\.\.\. is 3014 characters long, more than the 2048-character limit \(CRAWL_MAX_URL_LENGTH\)$/);
    expect(reason.length).toBeLessThan(400);
  });
});
