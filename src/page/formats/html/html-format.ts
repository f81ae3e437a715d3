// The html format: the cleaned page (onlyMainContent, include/excludeTags) as HTML.
import { z } from 'zod';
import { defineFormat } from '../format-module.ts';

export const htmlFormat = defineFormat({
  type: 'html',
  schema: z.strictObject({ type: z.literal('html') }),
  needs: 'cleaned',
  fromPage: (page) => ({ html: page.cleaned!.outerHTML }),
  fromFile: (file) => ({ html: file.html }),
});
