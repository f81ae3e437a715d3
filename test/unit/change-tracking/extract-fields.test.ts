import { beforeEach, describe, expect, it } from 'vitest';
import { extractFields } from '../../../src/page/change-tracking/extract-fields.ts';
import { LlmError, type LlmSettings } from '../../../src/platform/llm/chat-completion.ts';
import { forgetResponseFormats } from '../../../src/platform/llm/structured-output.ts';

const llm: LlmSettings = { baseUrl: 'http://model.test/v1', model: 'fake', timeoutMs: 1000 };
type Sent = { messages: { role: string; content: string }[]; response_format?: { type: string; json_schema?: { schema: object } } };

/** A chat-completions endpoint answering `answers` in order, recording the bodies it was sent. */
function fakeModel(answers: string[], sent: Sent[]): typeof fetch {
  return (async (_url: string, init: RequestInit) => {
    sent.push(JSON.parse(String(init.body)) as Sent);
    return new Response(JSON.stringify({ choices: [{ message: { content: answers.shift() } }], usage: { prompt_tokens: 7, completion_tokens: 2 } }));
  }) as unknown as typeof fetch;
}

beforeEach(() => forgetResponseFormats());

describe('extractFields', () => {
  it('asks with the prompt and the schema as structured output, and answers the object with its tokens', async () => {
    const sent: Sent[] = [];
    const schema = { type: 'object', properties: { price: { type: 'string' } } };
    const result = await extractFields('Price: $9', { prompt: 'The price', schema }, llm, fakeModel(['{"price":"$9"}'], sent));
    expect(result).toEqual({ fields: { price: '$9' }, usage: { promptTokens: 7, completionTokens: 2 } });
    expect(sent[0]!.response_format).toMatchObject({ type: 'json_schema', json_schema: { schema } });
    expect(JSON.stringify(sent[0]!.messages)).toContain('The price');
    expect(JSON.stringify(sent[0]!.messages)).toContain('Price: $9');
  });

  it('asks for the main facts when the format names neither a prompt nor a schema', async () => {
    const sent: Sent[] = [];
    await extractFields('page', {}, llm, fakeModel(['{"a":1}'], sent));
    expect(JSON.stringify(sent[0]!.messages)).toContain('Extract the main facts the page states');
  });

  it('refuses an answer that is no object twice, counting the tokens of both calls', async () => {
    const failure = await extractFields('page', { prompt: 'x' }, llm, fakeModel(['[1, 2]', 'null'], [])).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(LlmError);
    expect((failure as LlmError).usage).toEqual({ promptTokens: 14, completionTokens: 4 });
  });
});
