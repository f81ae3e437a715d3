// The images format: every image URL the page names (images.ts); a file has none.
import { z } from 'zod';
import { extractImages } from '../../images.ts';
import { defineFormat } from '../format-module.ts';

export const imagesFormat = defineFormat({
  type: 'images',
  schema: z.strictObject({ type: z.literal('images') }),
  // Before cleaning, which removes elements and rewrites image sources.
  fromParsed: (parsed, _format, pageUrl) => ({ images: extractImages(parsed, pageUrl) }),
  fromFile: () => ({ images: [] }),
});
