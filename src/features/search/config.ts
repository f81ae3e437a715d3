// Search's section of the settings (src/config.ts composes them all).
import { bool, MB, positiveInt, str } from '../../platform/config/env.ts';
import type { JobSettings } from '../../jobs/config.ts';

function searxngUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new Error(`SEARXNG_URL must be an http(s) URL of a SearXNG instance, got "${value}"`);
  return value;
}

export function searchConfig() {
  return {
    /** Index every stored page in the local search index (zero-data-retention pages never are). */
    indexPages: bool('SEARCH_INDEX_PAGES', true),
    /**
     * Let every team find pages fetched without credentials (no custom headers, cookies or actions) by
     * any team's jobs. For single-tenant deployments; off, a team finds only pages its own jobs fetched.
     */
    sharePublicPages: bool('SEARCH_SHARE_PUBLIC_PAGES', false),
    /** Search the local index (POST /v2/search); off leaves only the configured web engines. */
    local: bool('SEARCH_LOCAL', true),
    /** Matching pages the local index ranks exactly per query (taken by page score first). */
    candidates: positiveInt('SEARCH_CANDIDATES', 200),
    /** Longest one query of the local index may run; past it the index is reported as not answering. */
    statementTimeoutMs: positiveInt('SEARCH_STATEMENT_TIMEOUT_MS', 5000),
    /** A SearXNG instance (http(s)://host:port) for the open web, searched after the local index; unset: none. */
    searxngUrl: searxngUrl(str('SEARXNG_URL')),
    /** SearXNG's `engines` parameter (comma-separated names); unset: the instance's defaults. */
    searxngEngines: str('SEARXNG_ENGINES'),
    searxngMaxResponseBytes: positiveInt('SEARXNG_MAX_RESPONSE_BYTES', 5 * MB),
    /** Result pages (about 20 results each) read per search at most. */
    searxngMaxPages: positiveInt('SEARXNG_MAX_PAGES', 3),
  };
}

export type SearchSettings = ReturnType<typeof searchConfig>;

/** What search reads: its section and the job engine's (scrapeOptions scrape the results). */
export type SearchFeatureSettings = JobSettings & { search: SearchSettings };
