// Where a claimed URL goes, decided from what is known before anything is
// loaded: threat protection may refuse it (before its cached copy too: a blocked
// URL gives nothing), a cached copy settles it, the request's own options may refuse it, a
// PDF (an image too, with the image parser) is fetched as a file, and a page goes over HTTP
// first unless the request or its host needs Chromium. Pure, so every rule is tested alone.
import type { PageLoad } from '../../page/page-load.ts';
import { looksLikeImageUrl, looksLikePdfUrl } from '../../page/load-pdf.ts';
import { renderingRefusal } from '../../page/rendering/needs-browser.ts';
import { NO_CACHED_DATA } from '../pages/page-cache.ts';

export type Rendering = 'browser' | 'auto' | 'http';

export interface RoutingRules {
  /** scrapeOptions.minAge: only a cached copy will do. */
  cacheOnly: boolean;
  rendering: Rendering;
  /** Why the request itself needs Chromium (actions, a screenshot, ...), if it does. */
  browserRequired?: string;
  /** Hosts whose pages looked script-rendered earlier in the crawl (auto). */
  scriptedHost(host: string): boolean;
  /** Why threat protection keeps the job from this URL, if it does. */
  threatRefusal?(url: string): string | undefined;
  /** The image parser is on: image URLs are files to read by OCR. */
  imageFiles?: boolean;
}

export type Route = { to: 'cache'; load: PageLoad } | { to: 'refuse'; error: string } | { to: 'file' } | { to: 'http' } | { to: 'browser' };

/** Whether the batch loads its pages in HTTP lanes (auto, http) or straight in Chromium. */
export function lanesFirst(rules: Pick<RoutingRules, 'rendering' | 'browserRequired'>): boolean {
  return rules.rendering === 'http' || (rules.rendering === 'auto' && rules.browserRequired === undefined);
}

export function routeTarget(url: string, cached: PageLoad | undefined, rules: RoutingRules): Route {
  const threat = rules.threatRefusal?.(url);
  if (threat) return { to: 'refuse', error: threat };
  if (cached) return { to: 'cache', load: cached };
  if (rules.cacheOnly) return { to: 'refuse', error: NO_CACHED_DATA };
  if (rules.rendering === 'http' && rules.browserRequired) return { to: 'refuse', error: renderingRefusal(rules.browserRequired) };
  if (looksLikePdfUrl(url) || (rules.imageFiles && looksLikeImageUrl(url))) return { to: 'file' };
  if (rules.rendering !== 'browser' && rules.browserRequired === undefined && !rules.scriptedHost(new URL(url).host)) return { to: 'http' };
  return { to: 'browser' };
}
