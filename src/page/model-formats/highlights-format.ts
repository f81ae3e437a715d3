// The highlights format: passages of the page that bear on the caller's query,
// copied from the page (the small model), one per line in the document's
// `highlights` string, the SDKs' type for it.
import type { LlmSettings } from '../../platform/llm/chat-completion.ts';
import { askSmallModel } from './page-as-data.ts';

/** Most passages kept: a highlight is a pointer into the page, not a copy of it. */
export const MAX_HIGHLIGHTS = 10;

const HIGHLIGHTS_SCHEMA = {
  type: 'object',
  properties: { highlights: { type: 'array', items: { type: 'string' } } },
  required: ['highlights'],
  additionalProperties: false,
};

function task(query: string): string {
  return [
    `You pick the passages of a web page most relevant to a query: at most ${MAX_HIGHLIGHTS}, most relevant first, each copied word for word from the page (a sentence or a short paragraph).`,
    'When nothing in the page bears on the query, reply with an empty list.',
    'Reply with a JSON object {"highlights": ["...", "..."]}.',
    `The query: ${query}`,
  ].join('\n');
}

export async function pickHighlights(pageText: string, format: { query: string }, llm: LlmSettings, fetchImpl?: typeof fetch) {
  const { value, usage } = await askSmallModel('highlights', HIGHLIGHTS_SCHEMA, task(format.query), pageText, llm, fetchImpl);
  const passages = (value as { highlights: string[] }).highlights
    .map((h) => h.replace(/\s+/g, ' ').trim())
    .filter((h) => h !== '')
    .slice(0, MAX_HIGHLIGHTS);
  return { highlights: passages.join('\n'), usage };
}
