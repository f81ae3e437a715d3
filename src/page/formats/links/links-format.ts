// The links format: every link of the page, absolute (a file has none).
import { z } from 'zod';
import { defineFormat } from '../format-module.ts';

export const linksFormat = defineFormat({
  type: 'links',
  schema: z.strictObject({ type: z.literal('links') }),
  // A copy, so the crawler's handling of the page's links cannot alter the stored document.
  fromPage: (page) => ({ links: [...page.links] }),
  fromFile: () => ({ links: [] }),
});
