// blockAds: requests to well-known ad and tracker hosts never leave the browser.
//
// Done with CDP Fetch interception limited to these hosts: Chromium pauses only
// matching requests, so ordinary requests cost nothing and keep the HTTP cache.
// Cheaper-looking alternatives do not fit: `page.route` intercepts every request
// (a Node round trip each, cache off), `Network.setBlockedURLs` needs
// `Network.enable` on a second session (every network event of the page is then
// sent to Node twice), and `--host-resolver-rules` is ignored because Chromium
// sends all traffic to a proxy (Crawlee's local one or ours) without resolving hosts.
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

/** True for an ad host itself and every subdomain of one. */
export function isAdHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return AD_HOSTS.some((ad) => host === ad || host.endsWith(`.${ad}`));
}

function isAdUrl(url: string): boolean {
  try {
    return isAdHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * Fetch patterns for every ad host and its subdomains (`*` spans any
 * characters). They also catch look-alikes such as `notdoubleclick.net` or a
 * path containing `/x.doubleclick.net/`, which {@link isAdHost} then lets through.
 */
export const AD_URL_PATTERNS = AD_HOSTS.flatMap((host) => [`*://*${host}/*`, `*://*${host}:*`]);

interface RequestPaused {
  requestId: string;
  request: { url: string };
}

/** Starts blocking on the page behind `session` (before its navigation: requests already sent are not caught). */
export async function blockAdRequests(session: CDPSession): Promise<void> {
  session.on('Fetch.requestPaused', (event: RequestPaused) => {
    // Failing calls mean the page is gone; nothing is waiting for the request any more.
    const reply = isAdUrl(event.request.url)
      ? session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' })
      : session.send('Fetch.continueRequest', { requestId: event.requestId });
    reply.catch(() => {});
  });
  await session.send('Fetch.enable', { patterns: AD_URL_PATTERNS.map((urlPattern) => ({ urlPattern, requestStage: 'Request' as const })) });
}
