// The highlights format: passages of the page that bear on the caller's query (model-formats/highlights-format.ts).
import { z } from 'zod';
import { MODEL_FORMAT_CREDITS } from '../../../platform/usage/credits.ts';
import { pickHighlights } from '../../model-formats/highlights-format.ts';
import { defineFormat } from '../format-module.ts';
import { modelTextSchema } from '../format-schemas.ts';

const schema = z.strictObject({ type: z.literal('highlights'), query: modelTextSchema('highlights.query') });
export type HighlightsFormat = z.output<typeof schema>;

export const highlightsFormat = defineFormat({
  type: 'highlights',
  schema,
  once: 'Only one highlights format is allowed',
  needs: 'text',
  model: {
    produce: (text, format, llm, fetchImpl) =>
      pickHighlights(text, format, llm, fetchImpl).then(({ highlights, usage }) => ({ fields: { highlights }, usage })),
  },
  answerCredits: MODEL_FORMAT_CREDITS,
});
