// Sitemap discovery for a crawl (shared/reference/firecrawl-v2.md sections 2.1 and 2.5).
// A tolerant scanner rather than an XML parser: real sitemaps are often
// slightly malformed, and only <loc> values matter.
import { gunzipSync } from 'node:zlib';
import type { FetchResource } from '../../platform/net/fetch-resource.ts';
import { crawlScope } from './link-filter.ts';

/** Sitemap fetches per crawl, as upstream. */
export const DEFAULT_MAX_SITEMAPS = 20;

// The sitemap protocol caps a file at 50 MB uncompressed; enforcing it while
// inflating also defuses gzip bombs.
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

// Upstream runs each sitemap as its own job; a few at a time keeps crawl start
// quick without hammering the site.
const PARALLEL_FETCHES = 4;

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export interface ParsedSitemap {
  urls: string[];
  sitemaps: string[];
}

export interface CollectSitemapOptions {
  startUrl: string;
  robotsSitemaps: string[];
  fetch: FetchResource;
  maxSitemaps?: number;
  maxUrls?: number;
}

export interface SitemapCollection {
  urls: string[];
  fetched: string[];
  errors: { url: string; error: string }[];
}

/**
 * Gzip is recognised by its magic bytes: a `.xml.gz` may arrive already
 * inflated (Content-Encoding), and gzip is sometimes served under `.xml`.
 */
function inflate(body: Buffer): Buffer {
  if (body[0] === 0x1f && body[1] === 0x8b) return gunzipSync(body, { maxOutputLength: MAX_SITEMAP_BYTES });
  return body;
}

function webUrl(value: string, base?: string): string | undefined {
  const url = URL.parse(value, base);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.href : undefined;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return XML_ENTITIES[ref] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** CDATA is literal; only the text around it carries entities. */
function textOf(xml: string): string {
  return xml
    .split(/<!\[CDATA\[([\s\S]*?)\]\]>/)
    .map((part, i) => (i % 2 === 1 ? part : decodeEntities(part)))
    .join('')
    .trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Each <url>/<sitemap> entry's own <loc>. The loc must carry the entry's
 * namespace prefix, so <image:loc> and other extension elements nested in an
 * entry are never taken for the page itself.
 */
function scanXml(xml: string, base: string): ParsedSitemap {
  const parsed: ParsedSitemap = { urls: [], sitemaps: [] };
  const entries = /<([\w.-]+:)?(url|sitemap)(?:\s[^>]*)?>([\s\S]*?)<\/\1?\2\s*>/g;
  for (const [, prefix = '', kind, inner] of xml.replace(/<!--[\s\S]*?-->/g, '').matchAll(entries)) {
    const tag = escapeRegExp(`${prefix}loc`);
    const loc = inner.match(new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}\\s*>`))?.[1];
    const url = loc === undefined ? undefined : webUrl(textOf(loc), base);
    if (url) (kind === 'url' ? parsed.urls : parsed.sitemaps).push(url);
  }
  return parsed;
}

/** Text sitemaps hold one absolute URL per line; anything else is not a URL list. */
function scanText(text: string): ParsedSitemap {
  const urls = text.split(/\r\n|\r|\n/).flatMap((line) => webUrl(line.trim()) ?? []);
  return { urls, sitemaps: [] };
}

/**
 * Page URLs and nested sitemaps of a `<urlset>`, `<sitemapindex>` or text
 * sitemap, resolved against `url` (where the body came from after redirects).
 * Throws on a corrupt or oversized gzip body.
 */
export function parseSitemap(body: Buffer, url: string): ParsedSitemap {
  // TextDecoder drops a UTF-8 BOM, which would otherwise hide the first URL of a text sitemap.
  const text = new TextDecoder().decode(inflate(body));
  return text.trimStart().startsWith('<') ? scanXml(text, url) : scanText(text);
}

/**
 * Where a crawl looks first: robots.txt `Sitemap:` lines, then the start URL
 * itself when it is a sitemap, else `sitemap.xml` in its scope folder, then the
 * site root's `sitemap.xml`.
 */
function candidates(startUrl: string, robotsSitemaps: string[]): string[] {
  const start = new URL(startUrl);
  start.hash = '';
  const own = /\.xml(\.gz)?$/i.test(start.pathname) ? start.href : new URL(`${crawlScope(start.pathname).prefix}sitemap.xml`, start).href;
  return [...robotsSitemaps, own, new URL('/sitemap.xml', start).href];
}

type Loaded = (ParsedSitemap & { finalUrl: string }) | { error: string };

async function load(url: string, fetch: FetchResource): Promise<Loaded> {
  try {
    const res = await fetch(url);
    // Most sites have no sitemap at the guessed locations, so 404 is not worth reporting.
    if (res.status === 404) return { urls: [], sitemaps: [], finalUrl: res.finalUrl };
    if (res.status < 200 || res.status > 299) return { error: `HTTP ${res.status}` };
    return { ...parseSitemap(res.body, res.finalUrl), finalUrl: res.finalUrl };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Page URLs from a crawl's sitemaps, breadth-first through sitemap indexes,
 * each sitemap fetched once and at most `maxSitemaps` fetches in all. URLs are
 * deduplicated by exact string in discovery order; filtering is the caller's.
 */
export async function collectSitemapUrls(opts: CollectSitemapOptions): Promise<SitemapCollection> {
  const maxSitemaps = opts.maxSitemaps ?? DEFAULT_MAX_SITEMAPS;
  const maxUrls = opts.maxUrls ?? Infinity;
  const seen = new Set<string>();
  const queue: string[] = [];
  const urls = new Set<string>();
  const fetched: string[] = [];
  const errors: SitemapCollection['errors'] = [];

  const enqueue = (candidate: string) => {
    const url = webUrl(candidate);
    if (url && !seen.has(url)) {
      seen.add(url);
      queue.push(url);
    }
  };
  candidates(opts.startUrl, opts.robotsSitemaps).forEach(enqueue);

  while (queue.length > 0 && fetched.length < maxSitemaps && urls.size < maxUrls) {
    const batch = queue.splice(0, Math.min(PARALLEL_FETCHES, maxSitemaps - fetched.length));
    fetched.push(...batch);
    const results = await Promise.all(batch.map((url) => load(url, opts.fetch)));
    results.forEach((result, i) => {
      if ('error' in result) {
        errors.push({ url: batch[i], error: result.error });
        return;
      }
      // A redirect target counts as fetched, so listing it again does not refetch it.
      seen.add(result.finalUrl);
      for (const url of result.urls) {
        if (urls.size >= maxUrls) break;
        urls.add(url);
      }
      result.sitemaps.forEach(enqueue);
    });
  }
  return { urls: [...urls], fetched, errors };
}
