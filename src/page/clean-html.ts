import { resolveHref } from './links.ts';
import { parseHtmlDocument } from './parse-html.ts';
import { parseSrcset, type SrcsetCandidate } from './srcset.ts';
import { elementsMatching, simpleSelectors } from './simple-selectors.ts';

export interface CleanHtmlOptions {
  baseUrl: string;
  onlyMainContent: boolean;
  includeTags?: string[];
  excludeTags?: string[];
  removeBase64Images: boolean;
}

/** A user-supplied CSS selector that cannot be applied; the API reports it as a bad request. */
export class InvalidSelectorError extends Error {
  readonly selector: string;

  constructor(selector: string, cause?: unknown) {
    super(`Invalid CSS selector: ${JSON.stringify(selector)}`, { cause });
    this.name = 'InvalidSelectorError';
    this.selector = selector;
  }
}

const NEVER_CONTENT = simpleSelectors(['script', 'style', 'noscript', 'meta', 'head', 'link', 'template', 'iframe']);

// Firecrawl's list of page chrome dropped by onlyMainContent, kept identical so results match.
const NON_MAIN_CONTENT = simpleSelectors([
  'header',
  'footer',
  'nav',
  'aside',
  '.header',
  '.top',
  '.navbar',
  '#header',
  '.footer',
  '.bottom',
  '#footer',
  '.sidebar',
  '.side',
  '.aside',
  '#sidebar',
  '.modal',
  '.popup',
  '#modal',
  '.overlay',
  '.ad',
  '.ads',
  '.advert',
  '#ad',
  '.lang-selector',
  '.language',
  '#language-selector',
  '.social',
  '.social-media',
  '.social-links',
  '#social',
  '.menu',
  '.navigation',
  '#nav',
  '.breadcrumbs',
  '#breadcrumbs',
  '.share',
  '#share',
  '.widget',
  '#widget',
  '.cookie',
  '#cookie',
]);

const MAIN_CONTENT = '#main, main, [role=main]';

const BASE64_IMAGE = /^\s*data:image\/[^;,]*;base64,/i;
const BASE64_IMAGE_IN_SRCSET = /data:image\/[^;,]*;base64,/i;
const BASE64_IMAGE_PLACEHOLDER = '<Base64-Image-Removed>';

// Selector validity does not depend on the page, so one empty document serves every check.
const SELECTOR_PROBE = parseHtmlDocument('');

/**
 * The page's content (the API's `html` format is its outerHTML): chrome and non-content removed,
 * URLs absolute, as the cleaned document's root element, which the markdown reads as a tree. A
 * parsed page (parseHtmlDocument's) is cleaned in place, sparing a second parse: the caller gives it up.
 */
export function cleanPage(page: string | Document, opts: CleanHtmlOptions): Element {
  const includeTags = opts.includeTags ?? [];
  const excludeTags = opts.excludeTags ?? [];
  assertValidSelectors([...includeTags, ...excludeTags]);

  const document = typeof page === 'string' ? parseHtmlDocument(page) : page;
  // Captured once: linkedom's body getter re-creates a <head> whenever the first child is not one.
  const frame = new Set([document.documentElement, document.body]);
  if (includeTags.length > 0) keepOnly(document, includeTags);
  removeAll(elementsMatching(document, NEVER_CONTENT), frame);
  for (const selector of excludeTags) removeAll(document.querySelectorAll(selector), frame);
  if (opts.onlyMainContent) {
    const chrome = elementsMatching(document, NON_MAIN_CONTENT);
    removeAll(
      chrome.filter((element) => !element.matches(MAIN_CONTENT) && !element.querySelector(MAIN_CONTENT)),
      frame,
    );
  }

  for (const image of document.querySelectorAll('img[srcset]')) {
    const largest = largestSrcsetCandidate(image.getAttribute('srcset') ?? '', image.getAttribute('src'));
    if (largest !== undefined) image.setAttribute('src', largest);
  }
  absolutize(document.querySelectorAll('img[src]'), 'src', opts.baseUrl);
  absolutize(document.querySelectorAll('a[href]'), 'href', opts.baseUrl);
  if (opts.removeBase64Images) removeBase64Images(document);
  return document.documentElement;
}

/**
 * Throws InvalidSelectorError naming the first selector that cannot be applied. Exported so a
 * request can be rejected up front rather than when its first page is processed.
 */
export function assertValidSelectors(selectors: readonly string[]): void {
  for (const selector of selectors) {
    if (selector.trim() === '') throw new InvalidSelectorError(selector);
    try {
      SELECTOR_PROBE.querySelector(selector);
    } catch (error) {
      throw new InvalidSelectorError(selector, error);
    }
  }
}

/** Replaces the body with the outermost elements matching any selector, in document order. */
function keepOnly(document: Document, selectors: string[]): void {
  const matched = new Set(selectors.flatMap((selector) => [...document.querySelectorAll(selector)]));
  if (matched.has(document.documentElement) || matched.has(document.body)) return;
  const kept: Element[] = [];
  const visit = (parent: Element): void => {
    for (const child of parent.children) {
      if (matched.has(child)) kept.push(child);
      else visit(child);
    }
  };
  visit(document.documentElement);
  document.body.replaceChildren(...kept);
}

// <html> and <body> are the frame the output is serialized from; a page that puts a chrome class
// such as "top" on <body> must not lose all of its content.
function removeAll(elements: Iterable<Element>, frame: ReadonlySet<Element>): void {
  for (const element of elements) {
    if (!frame.has(element)) element.remove();
  }
}

function absolutize(elements: Iterable<Element>, attribute: string, baseUrl: string): void {
  for (const element of elements) {
    const absolute = resolveHref(element.getAttribute(attribute) ?? '', baseUrl);
    if (absolute !== undefined) element.setAttribute(attribute, absolute);
  }
}

function removeBase64Images(document: Document): void {
  for (const image of document.querySelectorAll('img')) {
    if (BASE64_IMAGE.test(image.getAttribute('src') ?? '')) image.setAttribute('src', BASE64_IMAGE_PLACEHOLDER);
    // src already holds the chosen candidate, so dropping srcset loses no image.
    if (BASE64_IMAGE_IN_SRCSET.test(image.getAttribute('srcset') ?? '')) image.removeAttribute('srcset');
  }
}

/**
 * The URL of the widest (or densest) srcset candidate. Like Firecrawl, when every candidate is a
 * density descriptor the existing src competes as 1x, so a 0.5x thumbnail never replaces it.
 */
function largestSrcsetCandidate(srcset: string, src: string | null): string | undefined {
  const candidates = parseSrcset(srcset);
  if (src && candidates.every((candidate) => candidate.isDensity)) candidates.push({ url: src, size: 1, isDensity: true });
  return candidates.reduce<SrcsetCandidate | undefined>((best, candidate) => (!best || candidate.size > best.size ? candidate : best), undefined)?.url;
}
