// blockAds: requests to well-known ad and tracker hosts never leave the browser.
//
// Done with CDP `Network.setBlockedURLs`, which Chromium checks in the renderer.
// Measured on a local 20 KB page with 8 sub-requests (≈115 ms CPU per page):
// no difference beyond noise from a page without blocking, whereas `page.route`
// cost ≈+30 ms CPU per page (a Node round trip per request, HTTP cache off) and
// CDP `Fetch` interception limited to these hosts ≈+14 ms (every request then
// passes through the browser's interceptor). `--host-resolver-rules` cannot do it:
// Chromium sends all traffic to a proxy (Crawlee's local one or ours) and
// never resolves the hosts itself.
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

/** URLPattern strings for each host and its subdomains, on any scheme and port. */
export const AD_URL_PATTERNS = AD_HOSTS.map((host) => `*://{*.}?${host}:*/*`);

/** Starts blocking on the page behind `session` (before its navigation: requests already sent are not caught). */
export async function blockAdRequests(session: CDPSession): Promise<void> {
  // The block list only applies while the Network domain is enabled on this session; no bodies need keeping.
  await session.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
  await session.send('Network.setBlockedURLs', { urlPatterns: AD_URL_PATTERNS.map((urlPattern) => ({ urlPattern, block: true })) });
}
