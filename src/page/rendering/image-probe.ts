// Image sizes for a page taken over HTTP, which the search index's imagesize:
// and larger: need when the HTML names none: Chromium would have decoded the
// images; here the first bytes of each are fetched (a Range request, cut off at
// CRAWL_IMAGE_PROBE_BYTES whatever the server sends) and the header is read.
// Bounded per page in count (CRAWL_IMAGE_PROBES) and in time shared by all of
// them (CRAWL_IMAGE_PROBE_TIMEOUT_MS); a probe that fails gives no size, as an
// image Chromium could not load has none. Sizes are remembered per crawl, so a
// logo on every page is fetched once.
import { BoundedMap } from '../../platform/bounded-map.ts';
import { deadline } from '../../platform/deadline.ts';
import { imageSource } from '../index-entry/page-entry.ts';
import type { ImageSizes } from '../image-sizes.ts';
import { imageDimensions, type Dimensions } from './image-dimensions.ts';

export interface ImageProbeLimits {
  /** Time all of a page's probes share. */
  timeoutMs: number;
  /** Probes of one page in flight at once. */
  parallel?: number;
  /** Image URLs remembered per worker, across crawls (each keyed by its crawl). */
  remembered?: number;
}

export interface ProbeRequest {
  /** What the page was fetched with: sent to images of the page's own origin only. */
  headers?: Record<string, string>;
  insecureTls?: boolean;
  signal?: AbortSignal;
}

/** The first bytes of an image (or fewer, or a rejection); the status says whether they are the image. */
export type FetchImageHead = (url: string, opts: ProbeRequest & { timeoutMs: number }) => Promise<{ status: number; body: Buffer }>;

/** Sizes the images `urls` (imagesToProbe's list) of the page at `pageUrl`, for the crawl `scope`. */
export type ImageProbe = (urls: string[], pageUrl: string, scope: string, req: ProbeRequest) => Promise<ImageSizes>;

/**
 * The images the browser path would measure: those lacking a width or height attribute, keyed as
 * the index looks them up; `max` at most (CRAWL_IMAGE_PROBES).
 */
export function imagesToProbe(doc: Document, pageUrl: string, max: number): string[] {
  const found = new Set<string>();
  for (const img of doc.querySelectorAll('img')) {
    if (found.size >= max) break;
    if (img.getAttribute('width') && img.getAttribute('height')) continue;
    const src = imageSource(img, pageUrl);
    if (src) found.add(src);
  }
  return [...found];
}

export function createImageProbe(fetchHead: FetchImageHead, limits: ImageProbeLimits): ImageProbe {
  const parallel = limits.parallel ?? 4;
  // null: probed, and no size came of it.
  const known = new BoundedMap<string, Promise<Dimensions | null>>(limits.remembered ?? 10_000);

  const probe = async (url: string, req: ProbeRequest & { timeoutMs: number }): Promise<Dimensions | null> => {
    try {
      const res = await fetchHead(url, req);
      return (res.status === 200 || res.status === 206 ? imageDimensions(res.body) : undefined) ?? null;
    } catch {
      return null;
    }
  };

  return async (urls, pageUrl, scope, req) => {
    const sizes: ImageSizes = {};
    if (urls.length === 0) return sizes;
    const endsAt = Date.now() + limits.timeoutMs;
    const limit = deadline(limits.timeoutMs, req.signal);
    const { signal } = limit;
    const origin = new URL(pageUrl).origin;
    const queue = [...urls];
    const worker = async () => {
      for (let url = queue.shift(); url !== undefined && !signal.aborted; url = queue.shift()) {
        const ownOrigin = new URL(url).origin === origin;
        const opts = {
          ...(ownOrigin && req.headers && { headers: req.headers }),
          insecureTls: req.insecureTls,
          signal,
          timeoutMs: Math.max(1, endsAt - Date.now()),
        };
        // The crawl's headers can make the answer differ, so a size is remembered only within the crawl.
        const key = `${scope} ${url}`;
        const pending = known.getOrSet(key, () => probe(url, opts));
        const size = await pending;
        // A probe cut short by this page's deadline says nothing about the image: the next page may ask again.
        // The fetch's own timeout ends at the same moment as the deadline and may fire first.
        if (size === null && (signal.aborted || Date.now() >= endsAt)) known.delete(key);
        if (size) sizes[url] = size;
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(parallel, urls.length) }, worker));
    } finally {
      limit.clear();
    }
    return sizes;
  };
}
