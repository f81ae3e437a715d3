// What the `branding` format is derived from: the computed styles of a rendered
// page's prominent elements and the markup of its logo and icons, read in
// Chromium by one call of ../in-page/branding-sample.js. The page runs in the
// same world and may lie about itself (that only misdescribes its own branding)
// or never yield the thread: the read inspects at most MAX_ELEMENTS elements,
// gives up after SAMPLE_TIMEOUT_MS, and what comes back is checked here
// (brandingSampleSchema) before anything reads it. The profile itself is made by
// derive-branding.ts, a pure function of this sample.
import type { Page } from 'playwright';
import { z } from 'zod';
import { InPageScript } from '../in-page/in-page-script.ts';
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

const READ_SAMPLE = new InPageScript<ReadLimits, unknown>('branding-sample.js');

/** The page's branding sample, or a reason it has none (it did not answer in time, or answered nonsense). */
export async function sampleBranding(page: Page, budget: PageBudget): Promise<BrandingSample | { error: string }> {
  const limit = new PageBudget(Math.min(SAMPLE_TIMEOUT_MS, budget.remaining()));
  let raw: unknown;
  try {
    raw = await limit.race(
      READ_SAMPLE.run(page, { maxElements: MAX_ELEMENTS, maxLogoChars: MAX_LOGO_URL_CHARS, maxUrlChars: MAX_URL_CHARS, maxCssChars: MAX_CSS_CHARS }),
    );
  } catch (err) {
    if (err instanceof PageTimeoutError) return { error: `the page did not answer the style read within ${limit.totalMs} ms` };
    return { error: `the page's styles could not be read: ${(err as Error).message.split('\n')[0]}` };
  }
  const parsed = brandingSampleSchema.safeParse(raw);
  return parsed.success ? parsed.data : { error: 'the page answered the style read with something unexpected' };
}
