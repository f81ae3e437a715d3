// The query format (deprecated by upstream for question and highlights, still in
// the SDKs' types): the caller's prompt answered into the document's `answer`.
// freeform (the default) is the question format's answer; directQuote is the
// page's own words only, the passages that answer the prompt one per line,
// each checked to be in the page (verbatim-quotes.ts).
import type { LlmSettings, TokenUsage } from '../../platform/llm/chat-completion.ts';
import { askSmallModel, DEFAULT_MAX_INPUT_CHARS } from './page-as-data.ts';
import { answerQuestion } from './question-format.ts';
import { verbatimQuotes } from './verbatim-quotes.ts';

/** Most passages a directQuote answer holds. */
export const MAX_QUOTES = 10;

const QUOTES_SCHEMA = {
  type: 'object',
  properties: { quotes: { type: 'array', items: { type: 'string' } } },
  required: ['quotes'],
  additionalProperties: false,
};

function quoteTask(prompt: string): string {
  return [
    `You quote the passages of a web page that answer a query: at most ${MAX_QUOTES}, in page order, each copied character for character from the page (a sentence or a short paragraph), never reworded, shortened or joined.`,
    'Quote only what answers the query; when nothing in the page does, reply with an empty list.',
    'Reply with a JSON object {"quotes": ["...", "..."]}.',
    `The query: ${prompt}`,
  ].join('\n');
}

export interface QueryAnswer {
  answer: string;
  usage: TokenUsage;
  /** Why the answer holds less than the model gave (directQuote). */
  warning?: string;
}

async function quote(pageText: string, prompt: string, llm: LlmSettings, fetchImpl?: typeof fetch): Promise<QueryAnswer> {
  const { value, usage } = await askSmallModel('quotes', QUOTES_SCHEMA, quoteTask(prompt), pageText, llm, fetchImpl);
  // What the model was shown: only a quote from there can be the page's.
  const shown = pageText.slice(0, llm.maxInputChars ?? DEFAULT_MAX_INPUT_CHARS);
  const { kept, dropped } = verbatimQuotes((value as { quotes: string[] }).quotes, shown, MAX_QUOTES);
  const notes = [
    ...(dropped > 0 ? [`${dropped} passage(s) the model gave are not in the page and were left out`] : []),
    ...(kept.length === 0 ? ['no passage of the page answers the prompt, so the answer is empty'] : []),
  ];
  return { answer: kept.join('\n'), usage, ...(notes.length > 0 && { warning: `The query format (directQuote): ${notes.join('; ')}.` }) };
}

export function answerQuery(
  pageText: string,
  format: { prompt: string; mode: 'freeform' | 'directQuote' },
  llm: LlmSettings,
  fetchImpl?: typeof fetch,
): Promise<QueryAnswer> {
  return format.mode === 'directQuote' ? quote(pageText, format.prompt, llm, fetchImpl) : answerQuestion(pageText, format.prompt, llm, fetchImpl);
}
