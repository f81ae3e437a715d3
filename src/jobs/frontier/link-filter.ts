// Decides which discovered URLs a crawl follows. Mirrors the public API's rules
// (see docs/api/crawl.md#which-urls-are-followed).
import { compilePathPattern } from './path-patterns.ts';

export interface LinkFilterOptions {
  includePaths: string[];
  excludePaths: string[];
  regexOnFullURL: boolean;
  crawlEntireDomain: boolean;
  allowExternalLinks: boolean;
  allowSubdomains: boolean;
  /** How many path segments a URL may have beyond the start URL's (the /v1 API's maxDepth); no limit when absent. */
  maxPathDepth?: number;
}

export type LinkDecision = { allowed: true } | { allowed: false; reason: string };

const SKIPPED_EXTENSIONS = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'css',
  'js',
  'ico',
  'svg',
  'tiff',
  'zip',
  'exe',
  'dmg',
  'mp4',
  'mp3',
  'wav',
  'pptx',
  'xlsx',
  'avi',
  'flv',
  'woff',
  'ttf',
  'woff2',
  'webp',
  'inc',
]);

/** The segments of a URL's path, an index page not counted (`/a/b/index.html` is 2 deep, as `/a/b/`). */
export function pathDepth(url: string | URL): number {
  const pathname = typeof url === 'string' ? new URL(url).pathname : url.pathname;
  return pathname.split('/').filter((s) => s !== '' && s !== 'index.php' && s !== 'index.html').length;
}

function bareHost(host: string): string {
  return host.toLowerCase().replace(/^www\./, '');
}

/**
 * The path prefix a crawl without crawlEntireDomain stays under: the start
 * path itself if it ends in `/`, the parent folder of a document (`/a/b.html`),
 * otherwise the path and everything below `path/`.
 */
export function crawlScope(startPath: string): { exact?: string; prefix: string } {
  if (startPath.endsWith('/')) return { prefix: startPath };
  const last = startPath.slice(startPath.lastIndexOf('/') + 1);
  if (/\.[a-z0-9]{1,5}$/i.test(last)) return { prefix: startPath.slice(0, startPath.lastIndexOf('/') + 1) };
  return { exact: startPath, prefix: `${startPath}/` };
}

export function createLinkFilter(startUrl: string, opts: LinkFilterOptions) {
  const start = new URL(startUrl);
  const startHost = bareHost(start.hostname);
  const scope = crawlScope(start.pathname);
  // Compiled once per filter (one per crawl context), never per URL.
  const includes = opts.includePaths.filter((p) => p.trim() !== '').map(compilePathPattern);
  const excludes = opts.excludePaths.filter((p) => p.trim() !== '').map(compilePathPattern);

  const subject = (url: URL) => (opts.regexOnFullURL ? url.href : url.pathname);
  const maxDepth = opts.maxPathDepth === undefined ? undefined : pathDepth(start) + opts.maxPathDepth;

  function pathRules(url: URL): LinkDecision {
    const target = subject(url);
    const excluded = excludes.find((re) => re.test(target));
    if (excluded) return { allowed: false, reason: `matches excludePaths pattern ${excluded.source}` };
    if (includes.length > 0 && !includes.some((re) => re.test(target))) return { allowed: false, reason: 'matches no includePaths pattern' };
    return { allowed: true };
  }

  return {
    /**
     * External pages are followed one hop only: links found on a page outside
     * the start host (and its subdomains, when allowed) are not followed.
     */
    followsLinksOn(pageUrl: string): boolean {
      const url = new URL(pageUrl);
      const host = bareHost(url.hostname);
      return (host === startHost && url.port === start.port) || (opts.allowSubdomains && host.endsWith(`.${startHost}`));
    },

    /** The start URL is checked against include/exclude too, never against scope. */
    checkStart(url: string): LinkDecision {
      return pathRules(new URL(url));
    },

    check(link: string): LinkDecision {
      let url: URL;
      try {
        url = new URL(link);
      } catch {
        return { allowed: false, reason: 'not a valid URL' };
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return { allowed: false, reason: `unsupported scheme ${url.protocol}` };
      const ext = url.pathname
        .slice(url.pathname.lastIndexOf('/') + 1)
        .match(/\.([a-z0-9]+)$/i)?.[1]
        ?.toLowerCase();
      if (ext && SKIPPED_EXTENSIONS.has(ext)) return { allowed: false, reason: `file type .${ext} is not crawled` };
      if (maxDepth !== undefined && pathDepth(url) > maxDepth) {
        return { allowed: false, reason: `its path is ${pathDepth(url)} segments deep, more than maxDepth allows (${maxDepth})` };
      }

      const host = bareHost(url.hostname);
      const samePort = url.port === start.port;
      if (host === startHost && samePort) {
        if (!opts.crawlEntireDomain && url.pathname !== scope.exact && !url.pathname.startsWith(scope.prefix)) {
          return { allowed: false, reason: `outside ${scope.exact ?? scope.prefix} (set crawlEntireDomain to follow it)` };
        }
        return pathRules(url);
      }
      if (opts.allowSubdomains && host.endsWith(`.${startHost}`)) return pathRules(url);
      if (opts.allowExternalLinks) {
        const excluded = excludes.find((re) => re.test(url.href));
        return excluded ? { allowed: false, reason: `matches excludePaths pattern ${excluded.source}` } : { allowed: true };
      }
      return { allowed: false, reason: 'external link (set allowExternalLinks or allowSubdomains to follow it)' };
    },
  };
}

export type LinkFilter = ReturnType<typeof createLinkFilter>;
