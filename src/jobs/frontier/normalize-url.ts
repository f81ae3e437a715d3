// One normalization for every place that decides whether two URLs are the same
// page: the frontier's unique key, dedup of discovered links, and filters.

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };
const INDEX_FILES = /\/(index\.html?|index\.php)$/i;

export interface NormalizeOptions {
  ignoreQueryParameters: boolean;
}

/** The URL to fetch: fragment dropped, scheme/host lower-cased, default port removed. */
export function canonicalUrl(input: string | URL, opts: NormalizeOptions): string {
  const url = new URL(String(input));
  url.hash = '';
  url.hostname = url.hostname.toLowerCase();
  if (DEFAULT_PORTS[url.protocol] === url.port) url.port = '';
  if (opts.ignoreQueryParameters) url.search = '';
  return url.toString();
}

/**
 * The dedup key: http/https, a leading `www.`, a trailing slash and a trailing
 * index.html/index.php all name the same page.
 */
export function urlKey(input: string | URL, opts: NormalizeOptions): string {
  const url = new URL(canonicalUrl(input, opts));
  const host = url.hostname.replace(/^www\./, '') + (url.port ? `:${url.port}` : '');
  let path = url.pathname.replace(INDEX_FILES, '/');
  if (path.length > 1) path = path.replace(/\/+$/, '');
  if (path === '') path = '/';
  const params = [...url.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  return `${host}${path}${query}`;
}
