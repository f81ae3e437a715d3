// The intrinsic sizes of a page's images, for the search index's imagesize: and
// larger: operators when the HTML gives none: Chromium has decoded the image
// bytes by the time the page is captured, so asking it costs one round trip and
// no download. The page runs in the same world and can lie about its own
// images; that only misdescribes its own entry, and the answer is checked here.
import type { Page } from 'playwright';
import { InPageScript } from './in-page/in-page-script.ts';
import type { PageBudget } from './page-budget.ts';

/** Image URL (absolute, as the browser resolved it) -> [width, height] in pixels. */
export type ImageSizes = Record<string, [number, number]>;

const MAX_IMAGES = 50;
const MAX_URL_CHARS = 2048;
const MAX_DIMENSION = 100_000;
const UNSIZED_IMAGE_SIZES = new InPageScript<number, unknown>('image-sizes.js');

/** A side length the index accepts, whoever measured it. */
export const isImageDimension = (n: unknown): n is number => Number.isInteger(n) && (n as number) > 0 && (n as number) < MAX_DIMENSION;

/** Sizes of the loaded images lacking a width or height attribute; {} when the page cannot say (it is navigating, say). */
export async function imageSizes(page: Page, budget: PageBudget): Promise<ImageSizes> {
  let found: unknown;
  try {
    found = await budget.race(UNSIZED_IMAGE_SIZES.run(page, MAX_IMAGES));
  } catch {
    return {};
  }
  const sizes: ImageSizes = {};
  if (!Array.isArray(found)) return sizes;
  for (const item of found.slice(0, MAX_IMAGES)) {
    if (!Array.isArray(item)) continue;
    const [src, width, height] = item as unknown[];
    if (typeof src === 'string' && src.length <= MAX_URL_CHARS && isImageDimension(width) && isImageDimension(height)) sizes[src] = [width, height];
  }
  return sizes;
}
