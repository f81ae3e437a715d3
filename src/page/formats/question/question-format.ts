// The question format: the caller's question answered from the page by the small model.
import { z } from 'zod';
import { MODEL_FORMAT_CREDITS } from '../../../platform/usage/credits.ts';
import { answerQuestion } from '../../model-formats/question-format.ts';
import { defineFormat } from '../format-module.ts';
import { modelTextSchema } from '../format-schemas.ts';

const schema = z.strictObject({ type: z.literal('question'), question: modelTextSchema('question.question') });
export type QuestionFormat = z.output<typeof schema>;

export const questionFormat = defineFormat({
  type: 'question',
  schema,
  once: 'Only one question format is allowed',
  needs: 'text',
  model: {
    produce: (text, format, llm, fetchImpl) =>
      answerQuestion(text, format.question, llm, fetchImpl).then(({ answer, usage }) => ({ fields: { answer }, usage })),
  },
  answerCredits: MODEL_FORMAT_CREDITS,
});
