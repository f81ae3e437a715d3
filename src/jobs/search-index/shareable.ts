// Whether a page was fetched as anyone would fetch it: no custom headers (cookies,
// authorization and the like travel there), no actions (a login is a sequence of
// actions). Only such pages may be found by other teams, and only when
// SEARCH_SHARE_PUBLIC_PAGES is on.
import type { ScrapeOptions } from '../../page/scrape-options.ts';

export function fetchedWithoutCredentials(so: Pick<ScrapeOptions, 'headers' | 'actions'>): boolean {
  return Object.keys(so.headers ?? {}).length === 0 && (so.actions?.length ?? 0) === 0;
}
