import { describe, expect, it } from 'vitest';
import { AD_HOSTS, AD_URL_PATTERNS } from '../../../src/page/ad-block.ts';

// Chromium matches the block list with the URLPattern standard, which Node implements too.
const patterns = AD_URL_PATTERNS.map((p) => new URLPattern(p));
const blocked = (url: string) => patterns.some((p) => p.test(url));

describe('AD_URL_PATTERNS', () => {
  it('covers a compact list of about thirty hosts', () => {
    expect(AD_HOSTS.length).toBeGreaterThanOrEqual(25);
    expect(new Set(AD_HOSTS).size).toBe(AD_HOSTS.length);
    expect(AD_URL_PATTERNS).toHaveLength(AD_HOSTS.length);
  });

  it('blocks ad hosts and their subdomains on any scheme and port', () => {
    expect(blocked('http://doubleclick.net/')).toBe(true);
    expect(blocked('https://securepubads.g.doubleclick.net/tag/js/gpt.js')).toBe(true);
    expect(blocked('https://www.googletagmanager.com:8443/gtm.js?id=1')).toBe(true);
    expect(blocked('wss://x.hotjar.com/socket')).toBe(true);
    expect(blocked('https://connect.facebook.net/en_US/sdk.js')).toBe(true);
  });

  it('leaves look-alike hosts and paths alone', () => {
    expect(blocked('https://example.com/app.js')).toBe(false);
    expect(blocked('https://notdoubleclick.net/x.js')).toBe(false);
    expect(blocked('https://doubleclick.net.example.com/x.js')).toBe(false);
    expect(blocked('https://example.com/ads.doubleclick.net/x.js')).toBe(false);
    expect(blocked('https://facebook.net/sdk.js')).toBe(false);
  });
});
