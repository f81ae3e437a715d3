import { describe, expect, it } from 'vitest';
import { EXTRACTION_INPUT_CHARS, extractFields } from '../../../src/page/change-tracking/extract-fields.ts';
import type { LlmSettings } from '../../../src/platform/llm/chat-completion.ts';

const llm: LlmSettings = { baseUrl: 'http://model.test/v1', model: 'fake', timeoutMs: 1000 };

/** A chat-completions endpoint answering `content`, recording the bodies it was sent. */
function fakeModel(content: string, sent: { messages: { content: string }[]; response_format?: unknown }[]): typeof fetch {
  return (async (_url: string, init: RequestInit) => {
    sent.push(JSON.parse(String(init.body)));
    return new Response(JSON.stringify({ choices: [{ message: { content } }] }), { status: 200 });
  }) as typeof fetch;
}

describe('extractFields', () => {
  it('asks in JSON mode with the prompt, the schema and the start of the page, and answers the object', async () => {
    const sent: Parameters<typeof fakeModel>[1] = [];
    const page = `Price: $9\n${'filler '.repeat(10_000)}`;
    const fields = await extractFields(
      page,
      { prompt: 'The price', schema: { type: 'object', properties: { price: { type: 'string' } } } },
      llm,
      fakeModel('```json\n{"price":"$9"}\n```', sent),
    );
    expect(fields).toEqual({ price: '$9' });
    expect(sent[0]!.response_format).toEqual({ type: 'json_object' });
    expect(sent[0]!.messages[0]!.content).toContain('The price');
    expect(sent[0]!.messages[0]!.content).toContain('{"type":"object","properties":{"price":{"type":"string"}}}');
    expect(sent[0]!.messages[1]!.content).toBe(page.slice(0, EXTRACTION_INPUT_CHARS));
  });

  it.each([
    ['not JSON', 'the LLM did not answer with JSON'],
    ['[1, 2]', 'the LLM did not answer with a JSON object'],
    ['null', 'the LLM did not answer with a JSON object'],
  ])('refuses the answer %s', async (answer, message) => {
    await expect(extractFields('page', {}, llm, fakeModel(answer, []))).rejects.toThrow(message);
  });
});
