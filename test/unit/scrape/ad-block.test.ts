import { describe, expect, it } from 'vitest';
import { AD_HOSTS, AD_URL_PATTERNS, isAdHost } from '../../../src/scrape/ad-block.ts';

/** Chromium's Fetch pattern semantics: `*` is any run of characters, `?` one character. */
function matchesPattern(url: string, pattern: string): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(url);
}

const caught = (url: string) => AD_URL_PATTERNS.some((p) => matchesPattern(url, p));

describe('isAdHost', () => {
  it('matches listed hosts and their subdomains, nothing else', () => {
    expect(isAdHost('doubleclick.net')).toBe(true);
    expect(isAdHost('ads.g.DoubleClick.net.')).toBe(true);
    expect(isAdHost('connect.facebook.net')).toBe(true);
    expect(isAdHost('facebook.net')).toBe(false);
    expect(isAdHost('notdoubleclick.net')).toBe(false);
    expect(isAdHost('doubleclick.net.example.com')).toBe(false);
  });

  it('has a compact list of about thirty hosts', () => {
    expect(AD_HOSTS.length).toBeGreaterThanOrEqual(25);
    expect(new Set(AD_HOSTS).size).toBe(AD_HOSTS.length);
  });
});

describe('AD_URL_PATTERNS', () => {
  it('lets Chromium pause every request to an ad host, on any scheme and port', () => {
    expect(caught('https://securepubads.g.doubleclick.net/tag/js/gpt.js')).toBe(true);
    expect(caught('http://doubleclick.net/')).toBe(true);
    expect(caught('https://www.googletagmanager.com:8443/gtm.js?id=1')).toBe(true);
    expect(caught('wss://x.hotjar.com/socket')).toBe(true);
  });

  it('does not pause ordinary requests', () => {
    expect(caught('https://example.com/app.js')).toBe(false);
    expect(caught('https://facebook.net/sdk.js')).toBe(false);
  });
});
