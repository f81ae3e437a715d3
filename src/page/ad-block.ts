// blockAds: requests to well-known ad and tracker hosts never reach them.
//
// In the service every browser goes through a guard proxy, and a batch with
// blockAds goes through one that refuses these hosts (AD_HOST_REFUSAL): nothing
// to do per page. A page without such a proxy is set up with CDP
// `Network.setBlockedURLs` (blockAdRequests), which Chromium checks in the
// renderer: no CPU to speak of (measured on a local 20 KB page with 8
// sub-requests), but a CDP session and two commands before each navigation,
// which cost a crawl of small pages about an eighth of its pages/s
// (bench:crawl under CRAWL_RENDERING=browser, quiet machine: 0.86 of a bare
// PlaywrightCrawler that way, 0.99 with `blockAds: false`, 0.97 with the proxy). `page.route` costs ≈+30 ms CPU per page
// (a Node round trip per request, HTTP cache off), CDP `Fetch` interception
// limited to these hosts ≈+14 ms. `--host-resolver-rules` cannot do it: Chromium
// sends all traffic to the proxy and never resolves the hosts itself.
import type { CDPSession } from 'playwright';

export const AD_HOSTS = [
  'doubleclick.net',
  'googlesyndication.com',
  'googleadservices.com',
  'googletagservices.com',
  'googletagmanager.com',
  'google-analytics.com',
  'adservice.google.com',
  'connect.facebook.net',
  'amazon-adsystem.com',
  'adnxs.com',
  'adsrvr.org',
  'rubiconproject.com',
  'pubmatic.com',
  'openx.net',
  'casalemedia.com',
  'criteo.com',
  'criteo.net',
  'taboola.com',
  'outbrain.com',
  'moatads.com',
  'scorecardresearch.com',
  'quantserve.com',
  'hotjar.com',
  'adform.net',
  'smartadserver.com',
  'teads.tv',
  '3lift.com',
  'sharethrough.com',
  'bidswitch.net',
  'mathtag.com',
  'media.net',
  'popads.net',
] as const;

/** For the guard proxy: these hosts and their subdomains refused, with the reason a page that needed one is given. */
export const AD_HOST_REFUSAL = { hosts: AD_HOSTS, why: 'is an ad or tracker host, blocked by blockAds' };

/** URLPattern strings for each host and its subdomains, on any scheme and port. */
export const AD_URL_PATTERNS = AD_HOSTS.map((host) => `*://{*.}?${host}:*/*`);

/** Starts blocking on the page behind `session` (before its navigation: requests already sent are not caught). */
export async function blockAdRequests(session: CDPSession): Promise<void> {
  // The block list only applies while the Network domain is enabled on this session; no bodies need keeping.
  await session.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
  await session.send('Network.setBlockedURLs', { urlPatterns: AD_URL_PATTERNS.map((urlPattern) => ({ urlPattern, block: true })) });
}
