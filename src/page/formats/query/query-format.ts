// The query format (deprecated upstream for question and highlights; see
// docs/api/json-format.md): the caller's prompt answered into `answer`,
// freeform or in the page's own words (model-formats/query-format.ts).
import { z } from 'zod';
import { MODEL_FORMAT_CREDITS } from '../../../platform/usage/credits.ts';
import { answerQuery } from '../../model-formats/query-format.ts';
import { defineFormat } from '../format-module.ts';
import { modelTextSchema } from '../format-schemas.ts';

export const QUERY_MODES = ['freeform', 'directQuote'] as const;
export const QUESTION_AND_QUERY_MESSAGE = 'The question and query formats both fill the answer field: ask for one of them';

const schema = z.strictObject({
  type: z.literal('query'),
  prompt: modelTextSchema('query.prompt'),
  // null is what a Python dict with mode=None sends.
  mode: z
    .enum(QUERY_MODES, { error: 'query.mode is "freeform" or "directQuote"' })
    .nullish()
    .transform((m) => m ?? 'freeform'),
});
export type QueryFormat = z.output<typeof schema>;

export const queryFormat = defineFormat({
  type: 'query',
  schema,
  once: 'Only one query format is allowed',
  checkList(formats, ctx) {
    if (formats.some((f) => f.type === 'question') && formats.some((f) => f.type === 'query')) {
      ctx.addIssue({ code: 'custom', message: QUESTION_AND_QUERY_MESSAGE, input: formats });
    }
  },
  needs: 'text',
  model: {
    produce: (text, format, llm, fetchImpl) =>
      answerQuery(text, format, llm, fetchImpl).then(({ answer, usage, warning }) => ({ fields: { answer }, usage, warning })),
  },
  answerCredits: MODEL_FORMAT_CREDITS,
});
