// The screenshot format (and its string form screenshot@fullPage): a PNG, or a
// JPEG with quality, of the rendered page, taken by the browser after the HTML
// is read and kept with the load in the page cache, whose key it is part of.
import { z } from 'zod';
import { screenshotDataUrl } from '../../capture.ts';
import { defineFormat } from '../format-module.ts';
import { qualitySchema, viewportSchema } from '../format-schemas.ts';

export const SCREENSHOT_FORMAT_LIMIT_MESSAGE = 'Only one screenshot format is allowed';

const schema = z.strictObject({
  type: z.literal('screenshot'),
  fullPage: z.boolean().default(false),
  quality: qualitySchema.optional(),
  viewport: viewportSchema.optional(),
});
export type ScreenshotFormat = z.output<typeof schema>;

export const screenshotFormat = defineFormat({
  type: 'screenshot',
  schema,
  aliases: { 'screenshot@fullPage': { fullPage: true } },
  once: SCREENSHOT_FORMAT_LIMIT_MESSAGE,
  unredactable: 'redactPII cannot be combined with the screenshot format: a screenshot is an image of the page, which cannot be redacted',
  pageOnly: true,
  needsBrowser: 'a screenshot',
  // A viewport of its own may re-layout the page.
  capture: { last: true, run: async (page, format, budget) => ({ screenshot: await screenshotDataUrl(page, format, budget) }) },
  cacheKey: { value: (format) => format, alwaysInKey: true },
  // Kept out of the conversion: a screenshot is large and needs no work.
  fromLoad: (load) => (load.screenshot !== undefined ? { fields: { screenshot: load.screenshot } } : {}),
});
