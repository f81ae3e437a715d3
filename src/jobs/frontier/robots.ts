// robots.txt for a crawl (docs/api/crawl.md#robotstxt, RFC 9309).
// robots.txt is hostile input: it is parsed in one pass over its lines and
// matched without regular expressions, so time is linear in its size.
import type { FetchResource } from '../../platform/net/fetch-resource.ts';

/** Product token our crawler answers to in `User-agent:` lines. */
export const CRAWLER_ROBOTS_TOKEN = 'CrawlServiceBot';

/** Google reads at most 500 KiB of a robots.txt and ignores the rest; so do we by default (CRAWL_ROBOTS_MAX_BYTES). */
export const DEFAULT_ROBOTS_MAX_BYTES = 500 * 1024;

export interface RobotsRules {
  isAllowed(url: string): boolean;
  sitemaps: string[];
  /** The chosen group's `Crawl-delay` (milliseconds; the largest when it repeats), if it has one. */
  crawlDelayMs?: number;
}

interface Rule {
  /** Percent-encoding normalised, `$` and `*` kept: its length decides precedence. */
  pattern: string;
  allow: boolean;
}

interface Group {
  agents: string[];
  rules: Rule[];
  /** Seconds, as `Crawl-delay` gives them (a non-standard line most crawlers read). */
  crawlDelay?: number;
}

/**
 * The robots.txt text of an origin, or null when every URL is allowed. Redirects
 * are whatever `fetch` followed; the rules still belong to the origin asked for.
 * Only 4xx strictly means "no robots.txt", but 5xx and network failures are
 * treated the same because the public API ignores robots fetch failures rather
 * than refusing the whole site as RFC 9309 would. Beyond `maxBytes` the text is
 * ignored from the last line break before the limit, so no rule is cut short.
 */
export async function fetchRobotsTxt(origin: string, fetch: FetchResource, maxBytes = DEFAULT_ROBOTS_MAX_BYTES): Promise<string | null> {
  let res: Awaited<ReturnType<FetchResource>>;
  try {
    res = await fetch(new URL('/robots.txt', origin).href);
  } catch {
    return null;
  }
  if (res.status < 200 || res.status > 299) return null;
  let body = res.body;
  if (body.length > maxBytes) {
    const cut = Math.max(body.lastIndexOf(0x0a, maxBytes - 1), body.lastIndexOf(0x0d, maxBytes - 1));
    body = body.subarray(0, cut + 1);
  }
  // TextDecoder drops a UTF-8 BOM, which would otherwise hide the first line.
  return new TextDecoder().decode(body);
}

/** A group key: lower case, version (`/1.0`) dropped. */
function groupKey(token: string): string {
  const lower = token.toLowerCase();
  const slash = lower.indexOf('/');
  return (slash < 0 ? lower : lower.slice(0, slash)).trim();
}

function upperEscapes(path: string): string {
  return path.replace(/%[0-9a-fA-F]{2}/g, (escape) => escape.toUpperCase());
}

/** Rules are compared with URLs as the URL parser encodes them: non-ASCII percent-encoded, escapes upper case. */
function normalisePattern(pattern: string): string {
  try {
    return upperEscapes(encodeURI(pattern).replace(/%25/g, '%'));
  } catch {
    return pattern;
  }
}

/**
 * Groups and Sitemap lines, in one pass. As Google's parser: consecutive
 * `User-agent` lines share a group, a `User-agent` after a rule starts a new one,
 * other lines (Sitemap, Crawl-delay, unknown keys, blank lines) do not end a
 * group, and rules before any `User-agent` belong to none. A `Crawl-delay` belongs
 * to the group it is in (one that is no number of seconds is ignored).
 */
function parseLines(text: string): { groups: Group[]; sitemaps: string[] } {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let group: Group | undefined;
  let sawRule = false;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const hash = raw.indexOf('#');
    const line = hash < 0 ? raw : raw.slice(0, hash);
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (!group || sawRule) {
        group = { agents: [], rules: [] };
        groups.push(group);
        sawRule = false;
      }
      const agent = groupKey(value);
      if (agent) group.agents.push(agent);
    } else if ((key === 'allow' || key === 'disallow') && group) {
      sawRule = true;
      if (value) group.rules.push({ pattern: normalisePattern(value), allow: key === 'allow' });
    } else if (key === 'sitemap' && value) {
      sitemaps.push(value);
    } else if (key === 'crawl-delay' && group && /^\d+(?:\.\d+)?$/.test(value)) {
      group.crawlDelay = Math.max(group.crawlDelay ?? 0, Number(value));
    }
  }
  return { groups, sitemaps };
}

/**
 * A group key names a user agent by its text before the first `/`, so a full
 * header like `Mozilla/5.0 (compatible; CrawlServiceBot/1.0)` would only ever
 * match a `Mozilla` group. We split the user agent into product names and pick
 * the group naming one of them, preferring the rightmost because bot tokens
 * follow the browser boilerplate; no match means the `*` group.
 */
function groupFor(userAgent: string, names: Set<string>): string {
  const tokens = userAgent
    .split(/[\s;(),]+/)
    .map(groupKey)
    .reverse();
  return tokens.find((t) => t !== '*' && names.has(t)) ?? '*';
}

/**
 * Whether `pattern` matches `path` from its start: `*` is any run of characters,
 * a final `$` anchors the end. Greedy leftmost placement of each `*`-separated
 * piece is exact for such patterns, so this is one forward scan of the path per
 * rule (indexOf), with no backtracking.
 */
export function matchesRule(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const pieces = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  const first = pieces[0];
  if (!path.startsWith(first)) return false;
  if (pieces.length === 1) return !anchored || path.length === first.length;
  let pos = first.length;
  const middleEnd = anchored ? pieces.length - 1 : pieces.length;
  for (let i = 1; i < middleEnd; i++) {
    const at = path.indexOf(pieces[i], pos);
    if (at < 0) return false;
    pos = at + pieces[i].length;
  }
  if (!anchored) return true;
  const last = pieces[pieces.length - 1];
  return path.endsWith(last) && path.length - last.length >= pos;
}

/** The rules of the chosen group, longest first and Allow first among equals, so the first match decides. */
function rulesFor(groups: Group[], key: string): Rule[] {
  const seen = new Set<string>();
  const rules: Rule[] = [];
  for (const group of groups) {
    if (!group.agents.includes(key)) continue;
    for (const rule of group.rules) {
      const id = `${rule.allow ? 'A' : 'D'}${rule.pattern}`;
      if (seen.has(id)) continue;
      seen.add(id);
      rules.push(rule);
    }
  }
  return rules.sort((a, b) => b.pattern.length - a.pattern.length || Number(b.allow) - Number(a.allow));
}

/**
 * Rules of `robotsUrl`'s origin for `userAgent` (a bare token or a full UA header):
 * the longest matching rule wins, Allow on a tie, no match allows. Parse once and
 * keep the result; isAllowed does not re-read the text.
 */
export function parseRobots(robotsUrl: string, text: string | null, userAgent: string): RobotsRules {
  const origin = new URL(robotsUrl).origin;
  const { groups, sitemaps: listed } = parseLines(text ?? '');
  const names = new Set(groups.flatMap((g) => g.agents));
  const key = groupFor(userAgent, names);
  const rules = rulesFor(groups, key);
  const delays = groups.flatMap((g) => (g.agents.includes(key) && g.crawlDelay !== undefined ? [g.crawlDelay] : []));
  const sitemaps = [
    ...new Set(
      listed.flatMap((s) => {
        const url = URL.parse(s, robotsUrl);
        return url && (url.protocol === 'http:' || url.protocol === 'https:') ? [url.href] : [];
      }),
    ),
  ];
  return {
    sitemaps,
    ...(delays.length > 0 && { crawlDelayMs: Math.round(Math.max(...delays) * 1000) }),
    isAllowed(url: string): boolean {
      const parsed = URL.parse(url);
      // Other origins have their own robots.txt, which this one cannot speak for.
      if (parsed?.origin !== origin) return true;
      const path = upperEscapes(parsed.pathname + parsed.search);
      return rules.find((rule) => matchesRule(rule.pattern, path))?.allow ?? true;
    },
  };
}
