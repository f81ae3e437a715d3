// What the `branding` format is derived from: the computed styles of a rendered
// page's prominent elements and the markup of its logo and icons, read in
// Chromium with one page.evaluate. The page runs in the same world and may lie
// about itself (that only misdescribes its own branding) or never yield the
// thread: the read inspects at most MAX_ELEMENTS elements, gives up after
// SAMPLE_TIMEOUT_MS, and what comes back is checked here (brandingSampleSchema)
// before anything reads it. The profile itself is made by derive-branding.ts, a
// pure function of this sample.
import type { Page } from 'playwright';
import { z } from 'zod';
import { PageBudget, PageTimeoutError } from '../page-budget.ts';

/** Elements whose styles are read, over all kinds. */
export const MAX_ELEMENTS = 400;
/** How long the read may take; a page that keeps its thread busy longer gets no branding. */
export const SAMPLE_TIMEOUT_MS = 5000;
/** A logo URL longer than this (an inline <svg> as a data: URL, a data: image) is left out. */
export const MAX_LOGO_URL_CHARS = 30_000;
/** An icon or og:image URL longer than this is left out. */
const MAX_URL_CHARS = 8192;
/** Computed style values are cut to this many characters (a font stack can be long). */
const MAX_CSS_CHARS = 500;

const text = (max: number) => z.string().max(max);
const css = text(MAX_CSS_CHARS);

const styledSchema = z.object({
  /** What the element is taken for. */
  kind: z.enum(['h1', 'h2', 'h3', 'body', 'text', 'link', 'button', 'header', 'code', 'input']),
  color: css,
  background: css,
  borderColor: css,
  borderRadius: css,
  fontFamily: css,
  fontSize: css,
  fontWeight: css,
  lineHeight: css,
  /** How much it counts: characters of text for text, area in CSS pixels (capped) for boxes. */
  weight: z.number().finite().min(0).max(1e7),
});

const logoSchema = z.object({
  src: text(MAX_LOGO_URL_CHARS),
  inHeader: z.boolean(),
  /** Its id, class, alt or file name says "logo", or it sits in a link to the home page. */
  named: z.boolean(),
  area: z.number().finite().min(0).max(1e7),
});

export const brandingSampleSchema = z.object({
  root: z.object({ htmlBackground: css, bodyBackground: css, color: css, fontFamily: css, fontSize: css }),
  elements: z.array(styledSchema).max(MAX_ELEMENTS),
  logos: z.array(logoSchema).max(20),
  icons: z.array(z.object({ href: text(MAX_URL_CHARS), rel: css, sizes: css })).max(20),
  ogImage: text(MAX_URL_CHARS),
});
export type BrandingSample = z.infer<typeof brandingSampleSchema>;
export type StyledElement = BrandingSample['elements'][number];
export type LogoCandidate = BrandingSample['logos'][number];

interface ReadLimits {
  maxElements: number;
  maxLogoChars: number;
  maxUrlChars: number;
  maxCssChars: number;
}

// Runs in the page: self-contained, no closure over this module. Values are cut or left out
// here to the limits the schema checks, so that one odd value never costs a page its profile.
function readPage({ maxElements, maxLogoChars, maxUrlChars, maxCssChars }: ReadLimits): unknown {
  const MAX_AREA = 1e6;
  const clip = (value: string | null | undefined) => (value ?? '').slice(0, maxCssChars);
  const elements: unknown[] = [];
  const seen = new Set<Element>();
  const visible = (el: Element, style: CSSStyleDeclaration): DOMRect | undefined => {
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0 && style.visibility !== 'hidden' && style.display !== 'none' ? rect : undefined;
  };
  const inHeader = (el: Element) => !!el.closest('header, nav, [role=banner], #header, .header');
  const add = (el: Element, kind: string) => {
    if (elements.length >= maxElements || seen.has(el)) return;
    seen.add(el);
    const style = getComputedStyle(el);
    const rect = visible(el, style);
    if (!rect) return;
    const isText = kind !== 'header' && kind !== 'button' && kind !== 'input';
    const weight = isText ? Math.min((el.textContent ?? '').trim().length, 5000) : Math.min(rect.width * rect.height, MAX_AREA);
    if (weight === 0) return;
    elements.push({
      kind,
      color: clip(style.color),
      background: clip(style.backgroundColor),
      borderColor: clip(style.borderTopColor),
      borderRadius: clip(style.borderTopLeftRadius),
      fontFamily: clip(style.fontFamily),
      fontSize: clip(style.fontSize),
      fontWeight: clip(style.fontWeight),
      lineHeight: clip(style.lineHeight),
      weight,
    });
  };
  const take = (selector: string, kind: string, max: number) => {
    let n = 0;
    for (const el of Array.from(document.querySelectorAll(selector))) {
      if (n >= max || elements.length >= maxElements) break;
      const before = elements.length;
      add(el, kind);
      if (elements.length > before) n++;
    }
  };
  take('h1', 'h1', 10);
  take('h2', 'h2', 20);
  take('h3', 'h3', 20);
  take('header, [role=banner], nav', 'header', 5);
  take('button, [role=button], input[type=submit], input[type=button], a[class*=btn], a[class*=button]', 'button', 40);
  take('input[type=text], input[type=email], input[type=search], textarea', 'input', 10);
  take('a[href]', 'link', 100);
  take('pre, code', 'code', 10);
  take('p, li, td, dd, blockquote', 'text', 200);

  const logos: unknown[] = [];
  const home = new URL('/', location.href).href;
  const candidates = Array.from(
    document.querySelectorAll(
      'header img, header svg, nav img, nav svg, a img, a svg, img[class*=logo i], img[id*=logo i], img[alt*=logo i], img[src*=logo i], svg[class*=logo i]',
    ),
  ).slice(0, 60);
  for (const el of candidates) {
    if (logos.length >= 20) break;
    const style = getComputedStyle(el);
    const rect = visible(el, style);
    if (!rect) continue;
    const link = el.closest('a');
    const label = `${el.id} ${el.getAttribute('class') ?? ''} ${el.getAttribute('alt') ?? ''} ${el.getAttribute('src') ?? ''} ${link?.getAttribute('class') ?? ''}`;
    const named = /logo|brand/i.test(label) || (!!link && link.href === home);
    let src = '';
    if (el instanceof HTMLImageElement) src = el.currentSrc || el.src;
    else {
      const markup = new XMLSerializer().serializeToString(el);
      // Encoding at most triples it: markup that cannot fit is not encoded at all.
      if (markup.length <= maxLogoChars) src = `data:image/svg+xml,${encodeURIComponent(markup)}`;
    }
    if (src && src.length <= maxLogoChars) logos.push({ src, inHeader: inHeader(el), named, area: Math.min(rect.width * rect.height, MAX_AREA) });
  }

  const icons = Array.from(document.querySelectorAll('link[rel][href]'))
    .filter((l) => /(^|\s)(icon|apple-touch-icon)(\s|$)/i.test(l.getAttribute('rel') ?? '') && (l as HTMLLinkElement).href.length <= maxUrlChars)
    .slice(0, 20)
    .map((l) => ({ href: (l as HTMLLinkElement).href, rel: clip(l.getAttribute('rel')), sizes: clip(l.getAttribute('sizes')) }));
  const og = document.querySelector('meta[property="og:image"], meta[name="twitter:image"]');
  const ogContent = og?.getAttribute('content');
  const ogImage = ogContent ? (URL.parse(ogContent, document.baseURI)?.href ?? '') : '';
  const rootStyle = getComputedStyle(document.documentElement);
  const bodyStyle = document.body ? getComputedStyle(document.body) : rootStyle;
  return {
    root: {
      htmlBackground: clip(rootStyle.backgroundColor),
      bodyBackground: clip(bodyStyle.backgroundColor),
      color: clip(bodyStyle.color),
      fontFamily: clip(bodyStyle.fontFamily),
      fontSize: clip(bodyStyle.fontSize),
    },
    elements,
    logos,
    icons,
    ogImage: ogImage.length <= maxUrlChars ? ogImage : '',
  };
}

/** The page's branding sample, or a reason it has none (it did not answer in time, or answered nonsense). */
export async function sampleBranding(page: Page, budget: PageBudget): Promise<BrandingSample | { error: string }> {
  const limit = new PageBudget(Math.min(SAMPLE_TIMEOUT_MS, budget.remaining()));
  let raw: unknown;
  try {
    raw = await limit.race(
      page.evaluate(readPage, { maxElements: MAX_ELEMENTS, maxLogoChars: MAX_LOGO_URL_CHARS, maxUrlChars: MAX_URL_CHARS, maxCssChars: MAX_CSS_CHARS }),
    );
  } catch (err) {
    if (err instanceof PageTimeoutError) return { error: `the page did not answer the style read within ${limit.totalMs} ms` };
    return { error: `the page's styles could not be read: ${(err as Error).message.split('\n')[0]}` };
  }
  const parsed = brandingSampleSchema.safeParse(raw);
  return parsed.success ? parsed.data : { error: 'the page answered the style read with something unexpected' };
}
