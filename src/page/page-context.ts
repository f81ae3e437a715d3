// What every page of a browser batch looks like to the sites it visits: device,
// user agent, locale, time zone, headers, TLS checks. Almost all of it is set once
// as options of the batch's browser context, which every page inherits for free;
// only ad blocking and a multi-language Accept-Language need a per-page CDP call.
import type { BrowserContextOptions, Page } from 'playwright';
import type { ScrapeOptions } from './scrape-options.ts';
import { blockAdRequests } from './ad-block.ts';
import { languagesOfHeader, locationSettings } from './location.ts';
import { PRODUCT_TOKEN, type UserAgents } from '../platform/net/user-agents.ts';

/** A current mid-size phone. Desktop keeps Playwright's default 1280x720 window. */
const MOBILE_DEVICE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

/** Headless Chromium sends no Accept-Language at all, which real browsers never do. */
const DEFAULT_ACCEPT_LANGUAGE = 'en-US,en;q=0.9';

export interface PageContext {
  contextOptions: BrowserContextOptions;
  userAgent: string;
  /**
   * Languages for Accept-Language when they cannot come from the context options:
   * Playwright's `locale` overrides the header with that single locale.
   */
  acceptLanguages?: string[];
}

export function pageContext(so: ScrapeOptions, userAgents: UserAgents): PageContext {
  for (const [kind, ua] of Object.entries(userAgents)) {
    if (!ua.includes(PRODUCT_TOKEN)) throw new Error(`The ${kind} user agent must contain ${PRODUCT_TOKEN}: "${ua}"`);
  }
  const userAgent = so.mobile ? userAgents.mobile : userAgents.desktop;
  const headers = { ...so.headers };
  const callerLanguage = Object.entries(headers).find(([name]) => name.toLowerCase() === 'accept-language')?.[1];
  const contextOptions: BrowserContextOptions = {
    userAgent,
    ...(so.mobile ? MOBILE_DEVICE : {}),
    // Firecrawl treats an unset skipTlsVerification as true; the schema leaves it optional for that reason.
    ignoreHTTPSErrors: so.skipTlsVerification ?? true,
    // Files are handed to the caller to fetch (onDownload); Chromium need not write them to disk.
    acceptDownloads: false,
    extraHTTPHeaders: callerLanguage === undefined && !so.location ? { 'Accept-Language': DEFAULT_ACCEPT_LANGUAGE, ...headers } : headers,
  };
  if (!so.location) return { contextOptions, userAgent };

  const { locale, timezoneId, languages } = locationSettings(so.location);
  const wanted = callerLanguage === undefined ? languages : languagesOfHeader(callerLanguage);
  return {
    contextOptions: { ...contextOptions, locale, timezoneId },
    userAgent,
    acceptLanguages: wanted.length > 1 || (wanted.length === 1 && wanted[0] !== locale) ? wanted : undefined,
  };
}

/** User-agent client hints like the ones Playwright derives from the context options. */
function userAgentMetadata(mobile: boolean) {
  return mobile
    ? { mobile, platform: 'Android', platformVersion: '10', architecture: 'arm', model: '' }
    : { mobile, platform: 'Linux', platformVersion: '', architecture: 'x86', model: '' };
}

/** Per-page settings the context options cannot express; a no-op (no CDP session) when none apply. */
export async function preparePage(page: Page, ctx: PageContext, opts: { blockAds: boolean; mobile: boolean }): Promise<void> {
  if (!opts.blockAds && !ctx.acceptLanguages) return;
  const session = await page.context().newCDPSession(page);
  await Promise.all([
    opts.blockAds ? blockAdRequests(session) : undefined,
    ctx.acceptLanguages
      ? session.send('Emulation.setUserAgentOverride', {
          userAgent: ctx.userAgent,
          acceptLanguage: ctx.acceptLanguages.join(','),
          userAgentMetadata: userAgentMetadata(opts.mobile),
        })
      : undefined,
  ]);
}
