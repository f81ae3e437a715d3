// What the local index keeps of a page, taken from the HTML the crawl pipeline
// already parsed: title, description, headings and body text (clipped), the
// language and the text-search configuration for it, the date the page declares
// (meta, JSON-LD, <time>), whether it is news, its images, the domains it links
// to, and its category. Pages are hostile: every walk is iterative and bounded.
import { categoryOf } from './categories.ts';
import { textSearchConfig } from './languages.ts';
import { isImageDimension, type ImageSizes } from '../image-sizes.ts';
import { visibleText } from '../page-text.ts';

export interface ImageEntry {
  src: string;
  alt: string;
  context: string;
  width?: number;
  height?: number;
}

export interface PageEntry {
  url: string;
  urlKey: string;
  host: string;
  path: string;
  ext: string | null;
  contentType: string | null;
  title: string;
  description: string;
  headings: string;
  body: string;
  lang: string | null;
  tsConfig: string;
  publishedAt: Date | null;
  news: boolean;
  imageUrl: string | null;
  outboundDomains: string[];
  category: string | null;
  images: ImageEntry[];
  score: number;
}

/** Body text kept per page: under PostgreSQL's tsvector limits (1 MB, positions up to 16,383) with room to spare. */
export const MAX_BODY_CHARS = 100_000;
const MAX_IMAGES = 50;
const MAX_HEADINGS = 30;
const MAX_OUTBOUND = 200;
const MAX_JSON_LD_CHARS = 200_000;

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);
const squash = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

function validDate(value: unknown, now: number): Date | null {
  if (typeof value !== 'string' || value.length > 64) return null;
  const time = Date.parse(value);
  // Before the web, or more than a day ahead: not a date a page can mean.
  if (Number.isNaN(time) || time < Date.UTC(1990, 0, 1) || time > now + 86_400_000) return null;
  return new Date(time);
}

interface JsonLdFacts {
  published?: unknown;
  modified?: unknown;
  news: boolean;
  image?: string;
}

const NEWS_TYPES = /^(NewsArticle|ReportageNewsArticle|AnalysisNewsArticle|BackgroundNewsArticle|OpinionNewsArticle|ReviewNewsArticle|LiveBlogPosting)$/;

function jsonLdFacts(doc: Document): JsonLdFacts {
  const facts: JsonLdFacts = { news: false };
  const scripts = doc.querySelectorAll('script[type="application/ld+json"]');
  for (let i = 0; i < Math.min(scripts.length, 10); i++) {
    const text = scripts[i].textContent ?? '';
    if (text.length > MAX_JSON_LD_CHARS) continue;
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      continue;
    }
    // Breadth-first over at most 500 nodes: @graph arrays and nested objects.
    const queue: unknown[] = [data];
    for (let seen = 0; queue.length > 0 && seen < 500; seen++) {
      const item = queue.shift();
      if (Array.isArray(item)) queue.push(...item.slice(0, 50));
      else if (item && typeof item === 'object') {
        const obj = item as Record<string, unknown>;
        const types = Array.isArray(obj['@type']) ? obj['@type'] : [obj['@type']];
        if (types.some((t) => typeof t === 'string' && NEWS_TYPES.test(t))) facts.news = true;
        facts.published ??= obj.datePublished;
        facts.modified ??= obj.dateModified;
        const image = Array.isArray(obj.image) ? obj.image[0] : obj.image;
        if (!facts.image && typeof image === 'string') facts.image = image;
        if (!facts.image && image && typeof image === 'object' && typeof (image as { url?: unknown }).url === 'string')
          facts.image = (image as { url: string }).url;
        if (obj['@graph']) queue.push(obj['@graph']);
      }
    }
  }
  return facts;
}

function meta(doc: Document, selector: string): string | undefined {
  return doc.querySelector(selector)?.getAttribute('content') ?? undefined;
}

function absolute(src: string | null | undefined, base: string): string | null {
  if (!src || src.length > 2048) return null;
  const url = URL.parse(src.trim(), base);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.href : null;
}

function dimension(value: string | null): number | undefined {
  const n = Number.parseInt(value ?? '', 10);
  return isImageDimension(n) ? n : undefined;
}

/** The URL an <img> is indexed under: its src, else data-src, made absolute; null when it names no http(s) URL. */
export function imageSource(img: Element, base: string): string | null {
  return absolute(img.getAttribute('src') ?? img.getAttribute('data-src'), base);
}

/** Attributes when both are there, else what the browser decoded, else whichever attribute there is. */
function imageSize(img: Element, src: string, decoded: ImageSizes | undefined): Pick<ImageEntry, 'width' | 'height'> {
  const width = dimension(img.getAttribute('width'));
  const height = dimension(img.getAttribute('height'));
  if (width !== undefined && height !== undefined) return { width, height };
  const intrinsic = decoded && Object.hasOwn(decoded, src) ? decoded[src] : undefined;
  return intrinsic ? { width: intrinsic[0], height: intrinsic[1] } : { width, height };
}

/**
 * The entry's images with sizes measured after it was made (the HTTP path's probes): what
 * imageSize gives had they been known, since an image lacking either attribute takes both sides from them.
 */
export function withImageSizes(images: ImageEntry[], sizes: ImageSizes): ImageEntry[] {
  return images.map((image) => {
    if (image.width !== undefined && image.height !== undefined) return image;
    const intrinsic = Object.hasOwn(sizes, image.src) ? sizes[image.src] : undefined;
    return intrinsic ? { ...image, width: intrinsic[0], height: intrinsic[1] } : image;
  });
}

function images(doc: Document, base: string, decoded: ImageSizes | undefined): ImageEntry[] {
  const found: ImageEntry[] = [];
  const seen = new Set<string>();
  for (const img of doc.querySelectorAll('img')) {
    if (found.length >= MAX_IMAGES) break;
    const src = imageSource(img, base);
    if (!src || seen.has(src)) continue;
    seen.add(src);
    const figure = img.closest('figure');
    const context = squash(figure?.querySelector('figcaption')?.textContent ?? img.parentElement?.textContent);
    found.push({ src, alt: clip(squash(img.getAttribute('alt')), 500), context: clip(context, 300), ...imageSize(img, src, decoded) });
  }
  return found;
}

function urlParts(url: string): { host: string; path: string; ext: string | null } {
  const parsed = new URL(url);
  const ext = /\.([a-z0-9]{1,10})$/i.exec(parsed.pathname)?.[1]?.toLowerCase() ?? null;
  return { host: parsed.hostname.toLowerCase().replace(/^www\./, ''), path: parsed.pathname, ext };
}

/** A page's standing before any query: a little for a title, a description and body text, less the deeper its path. */
export function pageScore(entry: Pick<PageEntry, 'title' | 'description' | 'body' | 'path'>): number {
  const depth = entry.path.split('/').filter(Boolean).length;
  return 1 + (entry.title ? 0.5 : 0) + (entry.description ? 0.3 : 0) + Math.log10(1 + entry.body.length) / 10 - Math.min(depth, 10) * 0.05;
}

export interface EntryInput {
  url: string;
  urlKey: string;
  contentType?: string;
  /** The page's links (absolute), for the domains it points to. */
  links: string[];
  title?: string;
  description?: string;
  language?: string;
  /** What the browser decoded of the page's images (see page/image-sizes.ts). */
  imageSizes?: ImageSizes;
}

export function pageEntryFromHtml(doc: Document, input: EntryInput, now = Date.now()): PageEntry {
  const { host } = urlParts(input.url);
  const ld = jsonLdFacts(doc);
  const publishedMeta = meta(doc, 'meta[property="article:published_time"]') ?? meta(doc, 'meta[name="article:published_time"]');
  const published =
    validDate(publishedMeta, now) ??
    validDate(ld.published, now) ??
    validDate(meta(doc, 'meta[name="date"]') ?? meta(doc, 'meta[name="dc.date"]') ?? meta(doc, 'meta[itemprop="datePublished"]'), now) ??
    validDate(meta(doc, 'meta[property="article:modified_time"]'), now) ??
    validDate(ld.modified, now) ??
    validDate(doc.querySelector('time[datetime]')?.getAttribute('datetime'), now);
  const headings = [...doc.querySelectorAll('h1, h2, h3')].slice(0, MAX_HEADINGS).map((h) => clip(squash(h.textContent), 300));
  const lang = (input.language ?? doc.documentElement?.getAttribute('lang') ?? '').trim().toLowerCase() || null;
  const outbound = new Set<string>();
  for (const link of input.links) {
    if (outbound.size >= MAX_OUTBOUND) break;
    const linkHost = URL.parse(link)
      ?.hostname.toLowerCase()
      .replace(/^www\./, '');
    if (linkHost && linkHost !== host) outbound.add(linkHost);
  }
  return entryOf(input, visibleText(doc.body, MAX_BODY_CHARS), {
    title: input.title ?? doc.title,
    headings: headings.join(' · '),
    lang,
    publishedAt: published,
    news: ld.news || publishedMeta !== undefined,
    imageUrl: absolute(meta(doc, 'meta[property="og:image"]') ?? ld.image, input.url),
    outboundDomains: [...outbound],
    images: images(doc, input.url, input.imageSizes),
  });
}

type PageFacts = Pick<PageEntry, 'headings' | 'lang' | 'publishedAt' | 'news' | 'imageUrl' | 'outboundDomains' | 'images'> & { title: string | undefined };

/** The entry from the URL, the body text and what the page declares. */
function entryOf(input: EntryInput, body: string, facts: PageFacts): PageEntry {
  const { host, path, ext } = urlParts(input.url);
  const entry = {
    ...facts,
    url: input.url,
    urlKey: input.urlKey,
    host,
    path,
    ext,
    contentType: input.contentType?.split(';')[0].trim().toLowerCase() ?? null,
    title: clip(squash(facts.title), 1000),
    // A page without a description is described by the start of its text.
    description: clip(squash(input.description), 2000) || clip(body, 300),
    body,
    tsConfig: textSearchConfig(facts.lang),
    category: categoryOf(host, ext, input.contentType),
  };
  return { ...entry, score: pageScore(entry) };
}

/** A PDF: its title and text (as markdown), no images, no links. */
export function pageEntryFromText(input: EntryInput & { text: string }): PageEntry {
  return entryOf(input, clip(squash(input.text), MAX_BODY_CHARS), {
    title: input.title,
    headings: '',
    lang: input.language?.toLowerCase() ?? null,
    publishedAt: null,
    news: false,
    imageUrl: null,
    outboundDomains: [],
    images: [],
  });
}
