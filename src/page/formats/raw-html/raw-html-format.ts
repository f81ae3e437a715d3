// The rawHtml format: the page's HTML as loaded, uncleaned (a file's: its text as HTML).
import { z } from 'zod';
import { defineFormat } from '../format-module.ts';

export const rawHtmlFormat = defineFormat({
  type: 'rawHtml',
  schema: z.strictObject({ type: z.literal('rawHtml') }),
  fromPage: (page) => ({ rawHtml: page.rawHtml }),
  fromFile: (file) => ({ rawHtml: file.html }),
});
