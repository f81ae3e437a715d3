import { describe, expect, it } from 'vitest';
import { scrapeOptionsSchema, type ScrapeOptionsInput } from '../../../src/page/scrape-options.ts';
import { pageContext } from '../../../src/page/page-context.ts';
import { DEFAULT_USER_AGENTS, PRODUCT_TOKEN } from '../../../src/platform/net/user-agents.ts';

const contextFor = (input: ScrapeOptionsInput, userAgents = DEFAULT_USER_AGENTS) => pageContext(scrapeOptionsSchema.parse(input), userAgents);

describe('DEFAULT_USER_AGENTS', () => {
  it('look like Chrome on Linux and Android and carry our product token', () => {
    expect(DEFAULT_USER_AGENTS.desktop).toMatch(/^Mozilla\/5\.0 \(X11; Linux x86_64\) .* Chrome\/\d+\.0\.0\.0 Safari\/537\.36 CrawlServiceBot\/1\.0$/);
    expect(DEFAULT_USER_AGENTS.mobile).toMatch(
      /^Mozilla\/5\.0 \(Linux; Android \d+; K\) .* Chrome\/\d+\.0\.0\.0 Mobile Safari\/537\.36 CrawlServiceBot\/1\.0$/,
    );
  });
});

describe('pageContext', () => {
  it('is a desktop browser that skips TLS checks and sends a default Accept-Language', () => {
    expect(contextFor({})).toEqual({
      userAgent: DEFAULT_USER_AGENTS.desktop,
      contextOptions: {
        userAgent: DEFAULT_USER_AGENTS.desktop,
        ignoreHTTPSErrors: true,
        acceptDownloads: false,
        extraHTTPHeaders: { 'Accept-Language': 'en-US,en;q=0.9' },
      },
    });
  });

  it('checks TLS only when skipTlsVerification is false', () => {
    expect(contextFor({ skipTlsVerification: false }).contextOptions.ignoreHTTPSErrors).toBe(false);
    expect(contextFor({ skipTlsVerification: true }).contextOptions.ignoreHTTPSErrors).toBe(true);
  });

  it('emulates a phone with the mobile user agent', () => {
    const ctx = contextFor({ mobile: true });
    expect(ctx.userAgent).toBe(DEFAULT_USER_AGENTS.mobile);
    expect(ctx.contextOptions).toMatchObject({
      userAgent: DEFAULT_USER_AGENTS.mobile,
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
    });
  });

  it('lets the caller’s headers win, Accept-Language included', () => {
    expect(contextFor({ headers: { 'X-A': '1', 'accept-language': 'fr' } }).contextOptions.extraHTTPHeaders).toEqual({
      'X-A': '1',
      'accept-language': 'fr',
    });
  });

  it('sets locale and time zone for a location; several languages need the per-page override', () => {
    const single = contextFor({ location: { country: 'JP' } });
    expect(single.contextOptions).toMatchObject({ locale: 'ja-JP', timezoneId: 'Asia/Tokyo', extraHTTPHeaders: {} });
    expect(single.acceptLanguages).toBeUndefined();

    const several = contextFor({ location: { country: 'DE', languages: ['de-DE', 'en'] } });
    expect(several.contextOptions).toMatchObject({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });
    expect(several.acceptLanguages).toEqual(['de-DE', 'en']);
  });

  it('sends the caller’s Accept-Language languages even with a location (Playwright’s locale would replace them)', () => {
    const ctx = contextFor({ location: { country: 'DE' }, headers: { 'Accept-Language': 'fr-FR,fr;q=0.9' } });
    expect(ctx.contextOptions.locale).toBe('de-DE');
    expect(ctx.acceptLanguages).toEqual(['fr-FR', 'fr']);
  });

  it('refuses user agents without our product token', () => {
    expect(() => contextFor({}, { desktop: 'Mozilla/5.0', mobile: DEFAULT_USER_AGENTS.mobile })).toThrow(
      `The desktop user agent must contain ${PRODUCT_TOKEN}: "Mozilla/5.0"`,
    );
  });
});
