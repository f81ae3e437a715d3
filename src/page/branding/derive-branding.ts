// The `branding` profile from a page's branding sample (branding-sample.ts): a
// pure function, so one page always gives one profile. The rules:
// - background: the body's background, else the root's, else white (what the
//   browser paints); colorScheme: dark when its relative luminance is below 0.4.
// - colors are votes of prominent elements: a button's background counts 5, a
//   coloured header 3, a link's or heading's colour 2, body text 1 (each element
//   once, in document order, ties to the first seen). primary is the top
//   chromatic colour, accent the next one clearly different from it; textPrimary
//   and textSecondary the two most voted text colours; link the most voted link colour.
// - fonts and sizes: the most used values over body text (by characters) and
//   over h1/h2/h3; line heights as ratios of the font size.
// - logo: a visible <img>/<svg> named logo/brand, or linking home, in the
//   header first; else the og:image. favicon: the first <link rel=icon>, else
//   apple-touch-icon.
// Colours the sample gives in other notations than rgb()/rgba() (color(),
// oklch(), ...) and colours less than half opaque are not counted.
import type { BrandingProfile } from './branding-profile.ts';
import type { BrandingSample, LogoCandidate, StyledElement } from './branding-sample.ts';

interface Rgb {
  r: number;
  g: number;
  b: number;
}

const RGB = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/i;
const WHITE: Rgb = { r: 255, g: 255, b: 255 };
/** Two colours closer than this (Euclidean, 0-255 channels) count as one. */
const DISTINCT = 60;
/** A colour whose channels differ by less than this is a grey. */
const CHROMA = 24;

/** An opaque enough rgb()/rgba() colour, else undefined. */
export function parseCssColor(value: string): Rgb | undefined {
  const m = RGB.exec(value.trim());
  if (!m) return undefined;
  const alpha = m[4] === undefined ? 1 : m[4].endsWith('%') ? Number(m[4].slice(0, -1)) / 100 : Number(m[4]);
  if (!(alpha >= 0.5)) return undefined;
  const [r, g, b] = [m[1], m[2], m[3]].map((c) => Math.min(255, Math.round(Number(c))));
  return [r, g, b].every(Number.isFinite) ? { r, g, b } : undefined;
}

export function hex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`.toUpperCase();
}

function fromHex(value: string): Rgb {
  const n = Number.parseInt(value.slice(1), 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
}

/** WCAG relative luminance, 0 (black) to 1 (white). */
export function luminance({ r, g, b }: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

const distance = (a: Rgb, b: Rgb) => Math.hypot(a.r - b.r, a.g - b.g, a.b - b.b);
const chromatic = ({ r, g, b }: Rgb) => Math.max(r, g, b) - Math.min(r, g, b) >= CHROMA;

/** Votes per value, first-seen order kept for ties. */
class Tally {
  readonly #votes = new Map<string, number>();

  add(value: string | undefined, votes: number): void {
    if (value === undefined || value === '' || !(votes > 0)) return;
    this.#votes.set(value, (this.#votes.get(value) ?? 0) + votes);
  }

  /** Values by votes, most first; equal votes keep the order they were first seen in. */
  ranked(): string[] {
    return [...this.#votes.entries()].sort((a, b) => b[1] - a[1]).map(([value]) => value);
  }

  top(): string | undefined {
    return this.ranked()[0];
  }
}

const colorOf = (value: string) => {
  const rgb = parseCssColor(value);
  return rgb && hex(rgb);
};

/** The first family of a font-family stack, unquoted. */
function fontStack(value: string): string[] {
  return value
    .split(',')
    .map((f) => f.trim().replace(/^["']|["']$/g, ''))
    .filter(Boolean);
}

function topOf(
  elements: StyledElement[],
  pick: (e: StyledElement) => string | undefined,
  votes: (e: StyledElement) => number = (e) => e.weight,
): string | undefined {
  const tally = new Tally();
  for (const e of elements) tally.add(pick(e), votes(e));
  return tally.top();
}

function px(value: string | undefined): number | undefined {
  const m = /^([\d.]+)px$/.exec(value ?? '');
  return m ? Number(m[1]) : undefined;
}

/** line-height over font-size of the most used text style, two decimals; undefined for `normal`. */
function lineHeightRatio(elements: StyledElement[]): number | undefined {
  const style = topOf(elements, (e) => `${e.lineHeight}|${e.fontSize}`);
  if (!style) return undefined;
  const [line, size] = style.split('|').map(px);
  return line && size ? Math.round((line / size) * 100) / 100 : undefined;
}

function fontWeight(elements: StyledElement[]): number | undefined {
  const weight = Number(topOf(elements, (e) => e.fontWeight));
  return Number.isFinite(weight) && weight > 0 ? weight : undefined;
}

function pickLogo(logos: LogoCandidate[], ogImage: string): string | null {
  const usable = logos.filter((l) => (l.named || l.inHeader) && /^(https?:|data:image\/svg\+xml[,;])/i.test(l.src));
  const score = (l: LogoCandidate) => (l.named ? 2 : 0) + (l.inHeader ? 1 : 0);
  const best = usable.reduce<LogoCandidate | undefined>((a, l) => (!a || score(l) > score(a) ? l : a), undefined);
  return best?.src ?? (ogImage || null);
}

function pickFavicon(icons: BrandingSample['icons']): string | null {
  const web = icons.filter((i) => /^(https?:|data:image\/)/i.test(i.href));
  const isIcon = (i: { rel: string }) => /(^|\s)icon(\s|$)/i.test(i.rel);
  return (web.find(isIcon) ?? web[0])?.href ?? null;
}

/** Drops undefined fields, and the object itself when nothing is left. */
function compact<T extends object>(value: T): T | undefined {
  const kept = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
  return Object.keys(kept).length > 0 ? (kept as T) : undefined;
}

function button(e: StyledElement | undefined) {
  if (!e) return undefined;
  return compact({
    background: colorOf(e.background),
    textColor: colorOf(e.color),
    borderColor: colorOf(e.borderColor),
    borderRadius: e.borderRadius || undefined,
  });
}

type ElementKind = StyledElement['kind'];

/** The sample's elements of the given kinds, in document order. */
function elementsOf(sample: BrandingSample, ...kinds: ElementKind[]): StyledElement[] {
  return sample.elements.filter((e) => kinds.includes(e.kind));
}

/** textPrimary and textSecondary: body text, then headings (ties to text), by votes, with the body's own colour as a last resort. */
function textColors(sample: BrandingSample) {
  const tally = new Tally();
  for (const e of [...elementsOf(sample, 'text'), ...elementsOf(sample, 'h1', 'h2', 'h3')]) tally.add(colorOf(e.color), 1);
  tally.add(colorOf(sample.root.color), 0.5);
  const [textPrimary, ...otherText] = tally.ranked();
  const textSecondary = otherText.find((c) => textPrimary === undefined || distance(fromHex(c), fromHex(textPrimary)) >= DISTINCT / 2);
  return { textPrimary, textSecondary };
}

/** primary and accent: the chromatic colours most voted by prominent elements, clear of the background. */
function brandColors(sample: BrandingSample, backgroundRgb: Rgb) {
  const votes = new Tally();
  for (const e of sample.elements) {
    if (e.kind === 'button') votes.add(colorOf(e.background), 5);
    if (e.kind === 'header') votes.add(colorOf(e.background), 3);
    if (e.kind === 'link' || e.kind === 'h1' || e.kind === 'h2' || e.kind === 'h3') votes.add(colorOf(e.color), 2);
    if (e.kind === 'text') votes.add(colorOf(e.color), 1);
  }
  const ranked = votes.ranked().filter((c) => chromatic(fromHex(c)) && distance(fromHex(c), backgroundRgb) >= DISTINCT);
  const primary = ranked[0];
  const accent = primary === undefined ? undefined : ranked.find((c) => distance(fromHex(c), fromHex(primary)) >= DISTINCT);
  return { primary, accent };
}

/** Font families by weight over text, headings and links (ties in that order), the root's family counting once. */
function fontFamilies(sample: BrandingSample): string[] {
  const families = new Tally();
  for (const e of [...elementsOf(sample, 'text'), ...elementsOf(sample, 'h1', 'h2', 'h3'), ...elementsOf(sample, 'link')])
    families.add(fontStack(e.fontFamily)[0], e.weight);
  families.add(fontStack(sample.root.fontFamily)[0], 1);
  return families.ranked();
}

function typography(sample: BrandingSample) {
  const text = elementsOf(sample, 'text');
  const headingElements = elementsOf(sample, 'h1', 'h2');
  const bodyStack = topOf(text, (e) => e.fontFamily) ?? sample.root.fontFamily;
  const headingStack = topOf(elementsOf(sample, 'h1', 'h2', 'h3'), (e) => e.fontFamily);
  const codeStack = topOf(elementsOf(sample, 'code'), (e) => e.fontFamily);
  return compact({
    fontFamilies: compact({
      primary: fontStack(bodyStack)[0],
      heading: headingStack && fontStack(headingStack)[0],
      code: codeStack && fontStack(codeStack)[0],
    }),
    fontStacks: compact({ primary: fontStack(bodyStack), heading: headingStack ? fontStack(headingStack) : undefined }),
    fontSizes: compact({
      h1: topOf(elementsOf(sample, 'h1'), (e) => e.fontSize),
      h2: topOf(elementsOf(sample, 'h2'), (e) => e.fontSize),
      h3: topOf(elementsOf(sample, 'h3'), (e) => e.fontSize),
      body: topOf(text, (e) => e.fontSize) ?? (sample.root.fontSize || undefined),
    }),
    lineHeights: compact({ heading: lineHeightRatio(headingElements), body: lineHeightRatio(text) }),
    fontWeights: compact({ regular: fontWeight(text), bold: fontWeight(headingElements) }),
  });
}

/** The primary button wears the primary colour (else any chromatic one), the secondary another background. */
function components(sample: BrandingSample, primary: string | undefined) {
  const byWeight = [...elementsOf(sample, 'button')].sort((a, b) => b.weight - a.weight);
  const primaryButton =
    byWeight.find((b) => primary !== undefined && colorOf(b.background) === primary) ?? byWeight.find((b) => chromatic(parseCssColor(b.background) ?? WHITE));
  const secondaryButton = primaryButton && byWeight.find((b) => b !== primaryButton && colorOf(b.background) !== colorOf(primaryButton.background));
  const input = elementsOf(sample, 'input')[0];
  return compact({
    buttonPrimary: button(primaryButton),
    buttonSecondary: button(secondaryButton),
    input: input && compact({ borderColor: colorOf(input.borderColor), borderRadius: input.borderRadius || undefined }),
  });
}

export function deriveBranding(sample: BrandingSample): BrandingProfile {
  const backgroundRgb = parseCssColor(sample.root.bodyBackground) ?? parseCssColor(sample.root.htmlBackground) ?? WHITE;
  const background = hex(backgroundRgb);
  const { textPrimary, textSecondary } = textColors(sample);
  const link = topOf(
    elementsOf(sample, 'link'),
    (e) => colorOf(e.color),
    () => 1,
  );
  const { primary, accent } = brandColors(sample, backgroundRgb);
  const logo = pickLogo(sample.logos, sample.ogImage);
  const fonts = fontFamilies(sample).map((family) => ({ family }));
  return (
    compact({
      colorScheme: luminance(backgroundRgb) < 0.4 ? 'dark' : 'light',
      logo,
      fonts: fonts.length > 0 ? fonts : undefined,
      colors: compact({ primary, accent, background, textPrimary, textSecondary, link }),
      typography: typography(sample),
      spacing: compact({
        borderRadius: topOf(
          elementsOf(sample, 'button'),
          (e) => e.borderRadius,
          () => 1,
        ),
      }),
      components: components(sample, primary),
      images: { logo, favicon: pickFavicon(sample.icons), ogImage: sample.ogImage || null },
    }) ?? {}
  );
}
