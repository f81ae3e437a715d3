// The branding format: colours, fonts and logo derived (branding/derive-branding.ts)
// from the styles the browser reads off the rendered page (branding/branding-sample.ts),
// which the load keeps, so the page cache key says whether it was read.
import { z } from 'zod';
import { sampleBranding } from '../../branding/branding-sample.ts';
import { deriveBranding } from '../../branding/derive-branding.ts';
import { defineFormat } from '../format-module.ts';

export const brandingFormat = defineFormat({
  type: 'branding',
  schema: z.strictObject({ type: z.literal('branding') }),
  pageOnly: true,
  needsBrowser: 'the branding format',
  capture: { run: async (page, _format, budget) => ({ branding: await sampleBranding(page, budget) }) },
  cacheKey: { value: () => true },
  fromLoad(load) {
    if (load.pdf ?? load.text)
      return { warning: `No branding: the URL is ${/^image\//i.test(load.contentType ?? '') ? 'an image' : 'a PDF'}, not a web page.` };
    const { branding } = load;
    if (branding && !('error' in branding)) return { fields: { branding: deriveBranding(branding) } };
    return { warning: `No branding: ${branding?.error ?? 'the page was not rendered in a browser'}.` };
  },
});
