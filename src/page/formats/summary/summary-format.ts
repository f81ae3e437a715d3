// The summary format: the page's text summarized by the model, else extractively (summary/page-summary.ts).
import { z } from 'zod';
import { summarizePage } from '../../summary/page-summary.ts';
import { defineFormat } from '../format-module.ts';

export const summaryFormat = defineFormat({
  type: 'summary',
  schema: z.strictObject({ type: z.literal('summary') }),
  needs: 'text',
  async fromText(page) {
    const { summary, warning, usage } = await summarizePage({ markdown: page.text, language: page.metadata.language }, page.llm);
    return { fields: { summary }, usage, ...(warning && { warning }) };
  },
});
