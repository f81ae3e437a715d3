// The markdown format: the cleaned page (onlyMainContent, include/excludeTags) as markdown.
import { z } from 'zod';
import { defineFormat } from '../format-module.ts';

export const markdownFormat = defineFormat({
  type: 'markdown',
  schema: z.strictObject({ type: z.literal('markdown') }),
  needs: 'markdown',
  fromPage: (page) => ({ markdown: page.markdown }),
  fromFile: (file) => ({ markdown: file.markdown }),
});
