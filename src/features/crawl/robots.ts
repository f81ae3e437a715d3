// robots.txt for a crawl (shared/reference/firecrawl-v2.md section 2.4).
import robotsParserModule from 'robots-parser';
import type { FetchResource } from '../../platform/net/fetch-resource.ts';

// robots-parser is CommonJS whose typings declare an ES default export; Node's
// ESM loader hands us module.exports, which is the parser function itself.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** Product token our crawler answers to in `User-agent:` lines. */
export const CRAWLER_ROBOTS_TOKEN = 'CrawlServiceBot';

// Google reads at most 500 KiB of a robots.txt and ignores the rest; so do we.
const MAX_ROBOTS_BYTES = 500 * 1024;

export interface RobotsRules {
  isAllowed(url: string): boolean;
  sitemaps: string[];
}

/**
 * The robots.txt text of an origin, or null when every URL is allowed. Redirects
 * are whatever `fetch` followed; the rules still belong to the origin asked for.
 * Only 4xx strictly means "no robots.txt", but 5xx and network failures are
 * treated the same because the public API ignores robots fetch failures rather
 * than refusing the whole site as RFC 9309 would.
 */
export async function fetchRobotsTxt(origin: string, fetch: FetchResource): Promise<string | null> {
  let res: Awaited<ReturnType<FetchResource>>;
  try {
    res = await fetch(new URL('/robots.txt', origin).href);
  } catch {
    return null;
  }
  if (res.status < 200 || res.status > 299) return null;
  // TextDecoder drops a UTF-8 BOM, which would otherwise hide the first line.
  return new TextDecoder().decode(res.body.subarray(0, MAX_ROBOTS_BYTES));
}

/** robots-parser's group key: lower case, version (`/1.0`) dropped. */
function groupKey(token: string): string {
  return token.toLowerCase().split('/')[0].trim();
}

function groupNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/^\s*user-agent\s*:([^#\r\n]*)/gim)) {
    const key = groupKey(m[1]);
    if (key && key !== '*') names.add(key);
  }
  return names;
}

/**
 * robots-parser keys a user agent by its text before the first `/`, so a full
 * header like `Mozilla/5.0 (compatible; CrawlServiceBot/1.0)` would only ever
 * match a `Mozilla` group. We split the user agent into product names and pick
 * the robots.txt group naming one of them, preferring the rightmost because bot
 * tokens follow the browser boilerplate; no match means the `*` group.
 */
function groupFor(userAgent: string, names: Set<string>): string {
  const tokens = userAgent.split(/[\s;(),]+/).map(groupKey).reverse();
  return tokens.find((t) => names.has(t)) ?? '*';
}

/** Rules of `robotsUrl`'s origin for `userAgent` (a bare token or a full UA header). */
export function parseRobots(robotsUrl: string, text: string | null, userAgent: string): RobotsRules {
  const origin = new URL(robotsUrl).origin;
  const robots = robotsParser(robotsUrl, text ?? '');
  const group = groupFor(userAgent, groupNames(text ?? ''));
  const sitemaps = [
    ...new Set(
      robots.getSitemaps().flatMap((s: string) => {
        const url = URL.parse(s, robotsUrl);
        return url && (url.protocol === 'http:' || url.protocol === 'https:') ? [url.href] : [];
      }),
    ),
  ];
  return {
    sitemaps,
    isAllowed(url: string): boolean {
      // Other origins have their own robots.txt, which this one cannot speak for.
      if (URL.parse(url)?.origin !== origin) return true;
      return robots.isAllowed(url, group) ?? true;
    },
  };
}
