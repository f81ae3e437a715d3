// robots.txt as one crawl applies it: the start origin's rules were fetched
// once when the crawl was planned and are stored with it; other origins
// (subdomains, external links) are fetched when first met. Parsed rules are kept
// for the rest of this process's work on the crawl, so a batch does not parse
// robots.txt again unless the stored text changed.
import type { FetchResource } from '../../platform/net/fetch-resource.ts';
import { fetchRobotsTxt, parseRobots, type RobotsRules } from './robots.ts';

export interface CrawlRobots {
  isAllowed(url: string): Promise<boolean>;
  /** The `Crawl-delay` of the URL's origin for this crawl, in milliseconds; undefined without one or when robots.txt is ignored. */
  crawlDelayMs(url: string): Promise<number | undefined>;
  /** Sitemap lines of the start origin's robots.txt. */
  sitemaps: string[];
}

interface KeptRobots {
  startRobotsTxt: string | null;
  userAgent: string;
  start: RobotsRules;
  origins: Map<string, Promise<RobotsRules>>;
}

const ALLOW_ALL: CrawlRobots = { isAllowed: async () => true, crawlDelayMs: async () => undefined, sitemaps: [] };
const perCrawl = new Map<string, KeptRobots>();
const MAX_CRAWLS_KEPT = 50;

export interface CrawlRobotsOptions {
  crawlId: string;
  startUrl: string;
  startRobotsTxt: string | null;
  userAgent: string;
  ignore: boolean;
  fetch: FetchResource;
  /** Bytes of another origin's robots.txt that are read (CRAWL_ROBOTS_MAX_BYTES). */
  maxBytes: number;
}

function keptFor(opts: CrawlRobotsOptions, startOrigin: string): KeptRobots {
  const kept = perCrawl.get(opts.crawlId);
  if (kept && kept.startRobotsTxt === opts.startRobotsTxt && kept.userAgent === opts.userAgent) return kept;
  if (!kept && perCrawl.size >= MAX_CRAWLS_KEPT) perCrawl.delete(perCrawl.keys().next().value!);
  const start = parseRobots(`${startOrigin}/robots.txt`, opts.startRobotsTxt, opts.userAgent);
  const fresh: KeptRobots = {
    startRobotsTxt: opts.startRobotsTxt,
    userAgent: opts.userAgent,
    start,
    origins: new Map([[startOrigin, Promise.resolve(start)]]),
  };
  perCrawl.set(opts.crawlId, fresh);
  return fresh;
}

export function crawlRobots(opts: CrawlRobotsOptions): CrawlRobots {
  if (opts.ignore) return ALLOW_ALL;
  const kept = keptFor(opts, new URL(opts.startUrl).origin);
  const rulesFor = (origin: string) => {
    let rules = kept.origins.get(origin);
    if (!rules) {
      rules = fetchRobotsTxt(origin, opts.fetch, opts.maxBytes).then((text) => parseRobots(`${origin}/robots.txt`, text, opts.userAgent));
      kept.origins.set(origin, rules);
    }
    return rules;
  };
  return {
    sitemaps: kept.start.sitemaps,
    async isAllowed(url) {
      return (await rulesFor(new URL(url).origin)).isAllowed(url);
    },
    async crawlDelayMs(url) {
      return (await rulesFor(new URL(url).origin)).crawlDelayMs;
    },
  };
}
