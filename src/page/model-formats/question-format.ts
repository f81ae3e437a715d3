// The question format (and the query format's freeform mode): the model answers
// the caller's question from the page alone (the small model: a short answer
// needs no more).
import type { LlmSettings } from '../../platform/llm/chat-completion.ts';
import { askSmallModel } from './page-as-data.ts';

const ANSWER_SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
  additionalProperties: false,
};

function task(question: string): string {
  return [
    'You answer a question about a web page from what the page says, briefly, in the language of the question.',
    'When the page does not answer it, say so in the answer.',
    'Reply with a JSON object {"answer": "..."}.',
    `The question: ${question}`,
  ].join('\n');
}

export async function answerQuestion(pageText: string, question: string, llm: LlmSettings, fetchImpl?: typeof fetch) {
  const { value, usage } = await askSmallModel('answer', ANSWER_SCHEMA, task(question), pageText, llm, fetchImpl);
  return { answer: (value as { answer: string }).answer, usage };
}
