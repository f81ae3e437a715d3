// What a map finds for a site: the URLs of its sitemaps (robots.txt's Sitemap
// lines and the usual places), the links of its start page and the site's pages
// in the local search index, within the crawl's host rules (the start host, its
// subdomains with includeSubdomains), normalized and de-duplicated, ranked for a
// `search` term (indexed pages by full-text relevance first), cut to `limit`.
// Everything read here is hostile: fetches are guarded and size-capped,
// sitemap parsing is linear (jobs/frontier/sitemap.ts), link lists are capped.
import type { CrawlNetwork } from '../../platform/net/outbound-network.ts';
import type { FetchResource } from '../../platform/net/fetch-resource.ts';
import { createLinkFilter } from '../../jobs/frontier/link-filter.ts';
import { canonicalUrl, urlKey } from '../../jobs/frontier/normalize-url.ts';
import { fetchRobotsTxt, parseRobots } from '../../jobs/frontier/robots.ts';
import { collectSitemapUrls } from '../../jobs/frontier/sitemap.ts';
import { extractLinks } from '../../page/links.ts';
import { threatPolicy, threatRefusal } from '../../page/threat-policy.ts';
import { extractMetadata } from '../../page/metadata.ts';
import { parseHtmlDocument } from '../../page/parse-html.ts';
import type { MapRequest } from './map-request.ts';
import { rankLinks, type MapLink } from './rank-links.ts';
import type { MapFeatureSettings } from './config.ts';

export interface SiteMap {
  links: MapLink[];
  warning?: string;
}

/** The start page's title, description and links; nothing when it cannot be read as HTML. */
async function startPage(url: string, fetchPage: FetchResource, config: MapFeatureSettings): Promise<{ page?: MapLink; links: string[] }> {
  let res: Awaited<ReturnType<FetchResource>>;
  try {
    res = await fetchPage(url);
  } catch {
    return { links: [] };
  }
  const type = res.headers['content-type'] ?? '';
  if (res.status >= 400 || !/html/i.test(type) || res.body.length > config.crawl.maxPageBytes) return { links: [] };
  const document = parseHtmlDocument(res.body.toString('utf8'));
  const meta = extractMetadata(document);
  return {
    page: { url: res.finalUrl, ...(meta.title && { title: meta.title }), ...(meta.description && { description: meta.description }) },
    links: extractLinks(document, res.finalUrl).slice(0, config.scrape.mapMaxPageLinks),
  };
}

/** The site's pages in the local index; with a search term only the matching ones, most relevant first. */
export type IndexedPages = (query: { host: string; includeSubdomains: boolean; search?: string; limit: number }) => Promise<MapLink[]>;

export async function mapSite(
  req: MapRequest,
  network: CrawlNetwork,
  config: MapFeatureSettings,
  progress: (stage: string) => void,
  indexed: IndexedPages,
  /** The start page's fetch: network.fetch under the host budget (jobs/politeness/). */
  fetchPage: FetchResource = network.fetch,
): Promise<SiteMap> {
  const filter = createLinkFilter(req.url, {
    includePaths: [],
    excludePaths: [],
    regexOnFullURL: false,
    crawlEntireDomain: true,
    allowExternalLinks: false,
    allowSubdomains: req.includeSubdomains,
  });
  const norm = { ignoreQueryParameters: req.ignoreQueryParameters };
  const threat = threatPolicy(req.threatProtection);
  const found = new Map<string, MapLink>();
  const add = (link: MapLink) => {
    if (!filter.check(link.url).allowed || threatRefusal(link.url, threat) !== undefined) return;
    const key = urlKey(link.url, norm);
    const known = found.get(key);
    if (!known) found.set(key, { ...link, url: canonicalUrl(link.url, norm) });
    else if (!known.title && link.title) found.set(key, { ...known, title: link.title, description: link.description });
  };

  if (req.sitemap !== 'only') {
    const start = await startPage(req.url, fetchPage, config);
    progress('start page');
    add(start.page ?? { url: req.url });
    start.links.forEach((url) => add({ url }));
  }
  if (req.sitemap !== 'skip') {
    const robots = parseRobots(
      new URL('/robots.txt', req.url).href,
      await fetchRobotsTxt(new URL(req.url).origin, network.fetch, config.crawl.robotsMaxBytes),
      network.userAgents.desktop,
    );
    const sitemaps = await collectSitemapUrls({
      startUrl: req.url,
      robotsSitemaps: robots.sitemaps,
      fetch: network.fetch,
      // Filters drop some; more than this many candidates per admitted link would be wasted work.
      maxUrls: Math.min(4 * req.limit, config.crawl.sitemapTotalMaxUrls),
      maxSitemaps: config.crawl.maxSitemaps,
      limits: { maxBytes: config.crawl.sitemapMaxBytes, maxUrls: config.crawl.sitemapMaxUrls },
    });
    progress('sitemaps');
    sitemaps.urls.forEach((url) => add({ url }));
  }
  // sitemap: only means the sitemaps and nothing else.
  const fromIndex =
    req.sitemap === 'only'
      ? []
      : await indexed({ host: new URL(req.url).hostname, includeSubdomains: req.includeSubdomains, search: req.search, limit: req.limit });
  progress('index');
  fromIndex.forEach(add);
  // With a search term, the index's relevance orders the pages it matched; the rest follow by URL and title words.
  const relevant = req.search?.trim() ? fromIndex.map((l) => urlKey(l.url, norm)).filter((key) => found.has(key)) : [];
  const first = new Set(relevant);
  const links = [
    ...relevant.map((key) => found.get(key)!),
    ...rankLinks(
      [...found.entries()].filter(([key]) => !first.has(key)).map(([, link]) => link),
      req.search,
    ),
  ].slice(0, req.limit);
  const base = new URL(req.url);
  const isBase = base.pathname === '/' && base.search === '';
  const warning =
    links.length <= 1 && req.limit !== 1 && !isBase
      ? `Only ${links.length} result(s) found. For broader coverage, try mapping the base domain: ${base.origin}`
      : undefined;
  return { links, ...(warning && { warning }) };
}
