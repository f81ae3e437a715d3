// The `images` format: every image URL a page names, absolute, each once, in
// document order. URLs resolve as links do (the page's <base href>, else its
// URL). Only http(s) URLs count: a data: URL is the image itself, not an address
// of it (and can be megabytes), so it is left out, as are blob: and javascript:.
import { documentBaseUrl } from './links.ts';
import { parseSrcset } from './srcset.ts';

/** Images listed per page at most; a page naming more is cut at this many, in document order. */
export const MAX_IMAGES = 1000;
/** An image URL longer than this is left out (URLs the crawler follows have their own, lower, limit). */
export const MAX_IMAGE_URL_CHARS = 8192;

const WEB_PROTOCOLS = new Set(['http:', 'https:']);

// Where a page names images: <img> (src, lazy-loading data-src, srcset), <picture>'s <source>,
// a video's poster, image inputs, the icons and the social-card images of <head>.
const IMAGE_ELEMENTS = [
  'img',
  'source[srcset]',
  'video[poster]',
  'input[type=image i][src]',
  'link[href][rel~=icon i]',
  'link[href][rel~=apple-touch-icon i]',
  'meta[content][property=og:image i]',
  'meta[content][property=og:image:url i]',
  'meta[content][name=twitter:image i]',
].join(', ');

function candidates(element: Element): string[] {
  switch (element.tagName) {
    case 'IMG':
      return [element.getAttribute('src'), element.getAttribute('data-src'), ...parseSrcset(element.getAttribute('srcset') ?? '').map((c) => c.url)].filter(
        (url): url is string => !!url,
      );
    case 'SOURCE':
      return parseSrcset(element.getAttribute('srcset') ?? '').map((c) => c.url);
    case 'VIDEO':
      return [element.getAttribute('poster') ?? ''];
    case 'LINK':
      return [element.getAttribute('href') ?? ''];
    case 'META':
      return [element.getAttribute('content') ?? ''];
    default:
      return [element.getAttribute('src') ?? ''];
  }
}

/** Every distinct http(s) image URL of the page, absolute, in first-seen order; at most MAX_IMAGES. */
export function extractImages(document: Document, pageUrl: string): string[] {
  const base = documentBaseUrl(document, pageUrl);
  const images = new Set<string>();
  for (const element of document.querySelectorAll(IMAGE_ELEMENTS)) {
    for (const candidate of candidates(element)) {
      const trimmed = candidate.trim();
      if (trimmed === '' || trimmed.length > MAX_IMAGE_URL_CHARS) continue;
      const url = URL.parse(trimmed, base);
      if (!url || !WEB_PROTOCOLS.has(url.protocol)) continue;
      images.add(url.href);
      if (images.size >= MAX_IMAGES) return [...images];
    }
  }
  return [...images];
}
