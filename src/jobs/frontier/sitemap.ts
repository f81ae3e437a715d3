// Sitemap discovery for a crawl (docs/api/crawl.md#sitemaps).
// A tolerant scanner rather than an XML parser: real sitemaps are often
// slightly malformed, and only <loc> values matter. Sitemaps are hostile input:
// the scan is one forward pass over the bytes that never looks back, so time is
// linear in the size, and sizes are capped.
import { gunzipSync } from 'node:zlib';
import type { FetchResource } from '../../platform/net/fetch-resource.ts';
import { crawlScope } from './link-filter.ts';

/** Sitemap fetches per crawl, as upstream (CRAWL_MAX_SITEMAPS). */
export const DEFAULT_MAX_SITEMAPS = 20;

/**
 * The sitemap protocol's own limits: 50 MB (52,428,800 bytes) uncompressed and
 * 50,000 entries per file (CRAWL_SITEMAP_MAX_BYTES, CRAWL_SITEMAP_MAX_URLS).
 */
export const DEFAULT_SITEMAP_LIMITS: SitemapLimits = { maxBytes: 50 * 1024 * 1024, maxUrls: 50_000 };

// Upstream runs each sitemap as its own job; a few at a time keeps crawl start
// quick without hammering the site.
const PARALLEL_FETCHES = 4;

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export interface SitemapLimits {
  /** Bytes of one sitemap as received and once inflated; a bigger one is skipped. */
  maxBytes: number;
  /** Entries (<url> or <sitemap> elements, or lines of a text sitemap) read from one sitemap; the rest are ignored. */
  maxUrls: number;
}

export interface ParsedSitemap {
  urls: string[];
  sitemaps: string[];
  /** Set when entries beyond maxUrls were ignored. */
  capped?: true;
}

export interface CollectSitemapOptions {
  startUrl: string;
  robotsSitemaps: string[];
  fetch: FetchResource;
  maxSitemaps?: number;
  /** URLs collected from all sitemaps together. */
  maxUrls?: number;
  limits?: SitemapLimits;
}

export interface SitemapCollection {
  urls: string[];
  fetched: string[];
  errors: { url: string; error: string }[];
}

function tooLarge(maxBytes: number, what: string): Error {
  return new Error(`The sitemap is larger than ${maxBytes} bytes ${what} (CRAWL_SITEMAP_MAX_BYTES), so it was skipped`);
}

/**
 * Gzip is recognised by its magic bytes: a `.xml.gz` may arrive already
 * inflated (Content-Encoding), and gzip is sometimes served under `.xml`.
 * Inflating stops at the cap, so a decompression bomb costs no more than it.
 */
function inflate(body: Buffer, maxBytes: number): Buffer {
  if (body[0] !== 0x1f || body[1] !== 0x8b) {
    if (body.length > maxBytes) throw tooLarge(maxBytes, 'as received');
    return body;
  }
  try {
    return gunzipSync(body, { maxOutputLength: maxBytes });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(maxBytes, 'once inflated');
    throw err;
  }
}

function webUrl(value: string, base?: string): string | undefined {
  const url = URL.parse(value, base);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.href : undefined;
}

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return XML_ENTITIES[ref] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const COLON = 0x3a;
const CR = 0x0d;
const LF = 0x0a;

const utf8 = new TextDecoder();

const NAME = 1;
const SPACE = 2;
/** NAME for the bytes the scanner accepts in a tag name (ASCII letters, digits, `_ . - :`), SPACE for white space. */
const BYTE_CLASS = new Uint8Array(256);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[\w.:-]/.test(ch)) BYTE_CLASS[c] = NAME;
  else if (/\s/.test(ch)) BYTE_CLASS[c] = SPACE;
}

function startsWithAscii(buf: Buffer, at: number, text: string): boolean {
  if (at + text.length > buf.length) return false;
  for (let k = 0; k < text.length; k++) if (buf[at + k] !== text.charCodeAt(k)) return false;
  return true;
}

interface Entry {
  kind: 'url' | 'sitemap';
  /** Where the entry's namespace prefix (with its colon) sits in the buffer, and its length (0: none). */
  prefixAt: number;
  prefixLength: number;
  loc?: string;
  /** `</prefix:kind`, when there is a prefix. */
  prefixedClose?: Buffer;
}

/**
 * Where an entry may close next: the first `</kind` or `</prefix:kind` at or
 * after `from`, or -1. The unprefixed needle's position is remembered across
 * entries (`plain`); the prefixed one is only searched for up to it. Every
 * search starts ahead of the scan and the scan passes its result before the
 * next search, so searching stays linear in all.
 */
function closeCandidate(buf: Buffer, entry: Entry, from: number, plain: Map<string, number>): number {
  let at = plain.get(entry.kind) ?? -2;
  if (at !== -1 && at < from) {
    at = buf.indexOf(`</${entry.kind}`, from, 'latin1');
    plain.set(entry.kind, at);
  }
  if (!entry.prefixedClose) return at;
  const prefixed = buf.subarray(from, at < 0 ? buf.length : at).indexOf(entry.prefixedClose);
  return prefixed < 0 ? at : from + prefixed;
}

/** Whether the tag name at [at, at + length) is the entry's prefix followed by `local`. */
function isPrefixed(buf: Buffer, at: number, length: number, entry: Entry, local: string): boolean {
  if (length !== entry.prefixLength + local.length) return false;
  for (let k = 0; k < entry.prefixLength; k++) if (buf[at + k] !== buf[entry.prefixAt + k]) return false;
  return startsWithAscii(buf, at + entry.prefixLength, local);
}

/**
 * The entry a start tag named [nameStart, nameEnd) opens: `<url>` or `<sitemap>`, with or
 * without a namespace prefix (its colon at `colon`, -1 for none); undefined for any other tag.
 */
function openedEntry(buf: Buffer, nameStart: number, nameEnd: number, colon: number): Entry | undefined {
  const localStart = colon < 0 ? nameStart : colon + 1;
  const kind = nameEnd - localStart === 3 ? 'url' : nameEnd - localStart === 7 ? 'sitemap' : undefined;
  if (!kind || !startsWithAscii(buf, localStart, kind)) return undefined;
  const entry: Entry = { kind, prefixAt: nameStart, prefixLength: localStart - nameStart };
  if (entry.prefixLength > 0) entry.prefixedClose = Buffer.concat([Buffer.from('</'), buf.subarray(nameStart, nameEnd)]);
  return entry;
}

/** Whether the end tag named [at, at + length) closes the entry: `</kind>`, or `</prefix:kind>` with the entry's own prefix. */
function closesEntry(buf: Buffer, at: number, length: number, entry: Entry): boolean {
  return (length === entry.kind.length && startsWithAscii(buf, at, entry.kind)) || isPrefixed(buf, at, length, entry, entry.kind);
}

/** Whether [from, to) holds only white space (an end tag's name may be followed by nothing else before its `>`). */
function onlySpace(buf: Buffer, from: number, to: number): boolean {
  let j = from;
  while (j < to && BYTE_CLASS[buf[j]] === SPACE) j++;
  return j === to;
}

/** A closed entry's loc, resolved against the sitemap's URL, joins its list when it is a web URL. */
function keepEntry(parsed: ParsedSitemap, entry: Entry, base: string): void {
  const url = entry.loc === undefined ? undefined : webUrl(entry.loc, base);
  if (url) (entry.kind === 'url' ? parsed.urls : parsed.sitemaps).push(url);
}

/**
 * Index just past the markup at `lt` (a `<`), or -1 when it is never closed
 * (nothing after it can close either), or `lt` itself for a lone `<`, which is
 * text. `<!--…-->`, `<![CDATA[…]]>`, `<!…>` and tags are markup.
 */
function markupEnd(buf: Buffer, lt: number): number {
  const next = lt + 1 < buf.length ? buf[lt + 1] : 0;
  if (next === BANG) {
    const [open, close] = startsWithAscii(buf, lt, '<!--') ? ['<!--', '-->'] : startsWithAscii(buf, lt, '<![CDATA[') ? ['<![CDATA[', ']]>'] : ['<!', '>'];
    const end = buf.indexOf(close, lt + open.length, 'latin1');
    return end < 0 ? -1 : end + close.length;
  }
  const nameStart = next === SLASH ? lt + 2 : lt + 1;
  if (nameStart >= buf.length || BYTE_CLASS[buf[nameStart]] !== NAME) return lt;
  const gt = buf.indexOf(GT, nameStart);
  return gt < 0 ? -1 : gt + 1;
}

/** The text of a closed <loc>: entities decoded outside CDATA, CDATA literal, comments and other markup dropped. */
function locText(buf: Buffer, start: number, end: number): string {
  const parts: string[] = [];
  let pos = start;
  while (pos < end) {
    let lt = buf.indexOf(LT, pos);
    if (lt < 0 || lt >= end) lt = end;
    if (lt > pos) parts.push(decodeEntities(utf8.decode(buf.subarray(pos, lt))));
    if (lt === end) break;
    const after = markupEnd(buf, lt);
    if (after === lt) {
      parts.push('<');
      pos = lt + 1;
    } else {
      if (startsWithAscii(buf, lt, '<![CDATA[')) parts.push(utf8.decode(buf.subarray(lt + 9, after - 3)));
      pos = after;
    }
  }
  return parts.join('').trim();
}

/**
 * Each <url>/<sitemap> entry's own <loc>: the first one closed inside the entry,
 * entities decoded, CDATA literal, other markup inside it dropped. The loc must
 * carry the entry's namespace prefix, so <image:loc> and other extension
 * elements nested in an entry are never taken for the page itself. An entry is
 * counted at its closing tag (`</url>`, with or without the prefix); one never
 * closed counts for nothing, and tags of another entry inside it are ignored.
 *
 * Works on the bytes (markup is ASCII); a loc's text is decoded once it closes.
 * Each byte is looked at a bounded number of times, and markup left open
 * (`<!--`, `<![CDATA[`, a tag without `>`) ends the scan, as nothing after it
 * can close. The next byte is checked before a native search, which costs a
 * call: in dense markup it is usually the one looked for.
 */
function scanXml(buf: Buffer, from: number, base: string, maxUrls: number): ParsedSitemap {
  const parsed: ParsedSitemap = { urls: [], sitemaps: [] };
  const n = buf.length;
  let entry: Entry | undefined;
  /** Where the text of the <loc> being read starts, or -1 outside one. */
  let locStart = -1;
  /** The open entry's next possible closing tag; an entry that can never close ends the scan, as nothing after it counts. */
  let closeAt = -1;
  const plainCloses = new Map<string, number>();
  let entries = 0;
  let pos = from;
  while (pos < n) {
    if (entry && pos > closeAt) {
      closeAt = closeCandidate(buf, entry, pos, plainCloses);
      if (closeAt < 0) break;
    }
    let lt = pos;
    if (buf[lt] !== LT) {
      lt = buf.indexOf(LT, pos);
      if (lt < 0) break;
    }
    const next = lt + 1 < n ? buf[lt + 1] : 0;
    if (next === BANG) {
      pos = markupEnd(buf, lt);
      if (pos < 0) break;
      continue;
    }
    const closing = next === SLASH;
    const nameStart = closing ? lt + 2 : lt + 1;
    let nameEnd = nameStart;
    let colon = -1;
    let c = nameEnd < n ? buf[nameEnd] : GT;
    while (BYTE_CLASS[c] === NAME) {
      if (c === COLON && colon < 0) colon = nameEnd;
      nameEnd++;
      c = nameEnd < n ? buf[nameEnd] : GT;
    }
    if (nameEnd === nameStart) {
      pos = lt + 1;
      continue;
    }
    let gt = nameEnd;
    if (c !== GT || gt === n) {
      gt = buf.indexOf(GT, nameEnd);
      if (gt < 0) break;
    }
    pos = gt + 1;
    if (!entry) {
      if (closing || (c !== GT && BYTE_CLASS[c] !== SPACE)) continue;
      entry = openedEntry(buf, nameStart, nameEnd, colon);
      if (entry) closeAt = -1;
      continue;
    }
    const nameLength = nameEnd - nameStart;
    if (!closing) {
      if (locStart < 0 && entry.loc === undefined && (c === GT || BYTE_CLASS[c] === SPACE) && isPrefixed(buf, nameStart, nameLength, entry, 'loc'))
        locStart = pos;
      continue;
    }
    if (!onlySpace(buf, nameEnd, gt)) continue;
    if (locStart >= 0 && isPrefixed(buf, nameStart, nameLength, entry, 'loc')) {
      entry.loc = locText(buf, locStart, lt);
      locStart = -1;
    } else if (closesEntry(buf, nameStart, nameLength, entry)) {
      // Every closed entry counts against the cap, usable or not, so a flood of empty ones ends too.
      if (entries === maxUrls) {
        parsed.capped = true;
        break;
      }
      entries++;
      keepEntry(parsed, entry, base);
      entry = undefined;
      locStart = -1;
    }
  }
  return parsed;
}

/**
 * Text sitemaps hold one absolute URL per line (CR, LF or CRLF); anything else
 * is not a URL list. Every line that is not blank counts against the cap.
 */
function scanText(buf: Buffer, from: number, maxUrls: number): ParsedSitemap {
  const parsed: ParsedSitemap = { urls: [], sitemaps: [] };
  const n = buf.length;
  let entries = 0;
  let pos = from;
  while (pos < n) {
    let end = pos;
    while (end < n && buf[end] !== LF && buf[end] !== CR) end++;
    let first = pos;
    while (first < end && BYTE_CLASS[buf[first]] === SPACE) first++;
    let last = end;
    while (last > first && BYTE_CLASS[buf[last - 1]] === SPACE) last--;
    pos = end + 1;
    if (first === last) continue;
    if (entries === maxUrls) {
      parsed.capped = true;
      break;
    }
    entries++;
    const url = webUrl(utf8.decode(buf.subarray(first, last)).trim());
    if (url) parsed.urls.push(url);
  }
  return parsed;
}

/**
 * Page URLs and nested sitemaps of a `<urlset>`, `<sitemapindex>` or text
 * sitemap, resolved against `url` (where the body came from after redirects).
 * Throws on a corrupt gzip body or one over `limits.maxBytes`.
 */
export function parseSitemap(body: Buffer, url: string, limits: SitemapLimits = DEFAULT_SITEMAP_LIMITS): ParsedSitemap {
  const buf = inflate(body, limits.maxBytes);
  // A UTF-8 BOM would otherwise hide the first URL of a text sitemap.
  let start = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  while (start < buf.length && BYTE_CLASS[buf[start]] === SPACE) start++;
  return buf[start] === LT ? scanXml(buf, start, url, limits.maxUrls) : scanText(buf, start, limits.maxUrls);
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

async function load(url: string, fetch: FetchResource, limits: SitemapLimits): Promise<Loaded> {
  try {
    const res = await fetch(url);
    // Most sites have no sitemap at the guessed locations, so 404 is not worth reporting.
    if (res.status === 404) return { urls: [], sitemaps: [], finalUrl: res.finalUrl };
    if (res.status < 200 || res.status > 299) return { error: `HTTP ${res.status}` };
    return { ...parseSitemap(res.body, res.finalUrl, limits), finalUrl: res.finalUrl };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Page URLs from a crawl's sitemaps, breadth-first through sitemap indexes,
 * each sitemap fetched once and at most `maxSitemaps` fetches in all. URLs are
 * deduplicated by exact string in discovery order; filtering is the caller's.
 * A sitemap over a limit is reported in `errors` (skipped when too big, its
 * first entries used when it has too many).
 */
export async function collectSitemapUrls(opts: CollectSitemapOptions): Promise<SitemapCollection> {
  const maxSitemaps = opts.maxSitemaps ?? DEFAULT_MAX_SITEMAPS;
  const maxUrls = opts.maxUrls ?? Infinity;
  const limits = opts.limits ?? DEFAULT_SITEMAP_LIMITS;
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
    const results = await Promise.all(batch.map((url) => load(url, opts.fetch, limits)));
    results.forEach((result, i) => {
      if ('error' in result) {
        errors.push({ url: batch[i], error: result.error });
        return;
      }
      // A redirect target counts as fetched, so listing it again does not refetch it.
      seen.add(result.finalUrl);
      if (result.capped) {
        errors.push({ url: batch[i], error: `Only the first ${limits.maxUrls} entries of the sitemap were read (CRAWL_SITEMAP_MAX_URLS)` });
      }
      for (const url of result.urls) {
        if (urls.size >= maxUrls) break;
        urls.add(url);
      }
      result.sitemaps.forEach(enqueue);
    });
  }
  return { urls: [...urls], fetched, errors };
}
