// robots.txt as one crawl applies it: the start origin's rules were fetched
// once when the crawl was planned and are stored with it; other origins
// (subdomains, external links) are fetched when first met and kept for the
// rest of this process's work on the crawl.
import type { FetchResource } from '../../platform/net/fetch-resource.ts';
import { fetchRobotsTxt, parseRobots, type RobotsRules } from './robots.ts';

export interface CrawlRobots {
  isAllowed(url: string): Promise<boolean>;
}

const ALLOW_ALL: CrawlRobots = { isAllowed: async () => true };
const perCrawl = new Map<string, Map<string, Promise<RobotsRules>>>();
const MAX_CRAWLS_KEPT = 50;

export function crawlRobots(opts: { crawlId: string; startUrl: string; startRobotsTxt: string | null; userAgent: string; ignore: boolean; fetch: FetchResource }): CrawlRobots {
  if (opts.ignore) return ALLOW_ALL;
  let origins = perCrawl.get(opts.crawlId);
  if (!origins) {
    if (perCrawl.size >= MAX_CRAWLS_KEPT) perCrawl.delete(perCrawl.keys().next().value!);
    origins = new Map();
    perCrawl.set(opts.crawlId, origins);
  }
  const startOrigin = new URL(opts.startUrl).origin;
  origins.set(startOrigin, Promise.resolve(parseRobots(`${startOrigin}/robots.txt`, opts.startRobotsTxt, opts.userAgent)));
  const rulesFor = (origin: string) => {
    let rules = origins.get(origin);
    if (!rules) {
      rules = fetchRobotsTxt(origin, opts.fetch).then((text) => parseRobots(`${origin}/robots.txt`, text, opts.userAgent));
      origins.set(origin, rules);
    }
    return rules;
  };
  return {
    async isAllowed(url) {
      return (await rulesFor(new URL(url).origin)).isAllowed(url);
    },
  };
}
