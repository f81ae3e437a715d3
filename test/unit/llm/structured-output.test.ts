import { beforeEach, describe, expect, it } from 'vitest';
import { complete, LlmError, type LlmSettings } from '../../../src/platform/llm/chat-completion.ts';
import { compileJsonSchema, InvalidJsonSchemaError } from '../../../src/platform/llm/json-schema.ts';
import { forgetResponseFormats, structuredCompletion } from '../../../src/platform/llm/structured-output.ts';

type Sent = { model: string; messages: { role: string; content: string }[]; response_format?: { type: string; json_schema?: { schema: object } } };
type Answer = { status?: number; content?: unknown; usage?: unknown };

/** A fetch that answers the scripted replies in order and records every request body. */
function scripted(answers: Answer[], sent: Sent[] = []): typeof fetch {
  return (async (_url: string, init: RequestInit) => {
    sent.push(JSON.parse(String(init.body)) as Sent);
    const a = answers.shift() ?? { status: 500 };
    if (a.status && a.status !== 200) return new Response('{"error":"secret account 42"}', { status: a.status });
    return new Response(
      JSON.stringify({ choices: [{ message: { content: a.content } }], usage: 'usage' in a ? a.usage : { prompt_tokens: 10, completion_tokens: 3 } }),
    );
  }) as unknown as typeof fetch;
}

const llm: LlmSettings = { baseUrl: 'http://llm.test/v1', model: 'big', timeoutMs: 1000 };
const SCHEMA = { type: 'object', properties: { price: { type: 'number' } }, required: ['price'], additionalProperties: false };
const messages = [{ role: 'user' as const, content: 'page' }];

beforeEach(() => forgetResponseFormats());

describe('structuredCompletion', () => {
  it('sends the schema as a json_schema response format and returns the valid value with its tokens', async () => {
    const sent: Sent[] = [];
    const answer = await structuredCompletion(llm, {
      name: 'x',
      schema: { $schema: 'http://json-schema.org/draft-07/schema#', ...SCHEMA },
      messages,
      fetchImpl: scripted([{ content: '{"price": 4.5}' }], sent),
    });
    expect(answer).toEqual({ value: { price: 4.5 }, usage: { promptTokens: 10, completionTokens: 3 } });
    expect(sent[0].response_format).toEqual({ type: 'json_schema', json_schema: { name: 'x', schema: SCHEMA, strict: false } });
    expect(sent[0].model).toBe('big');
  });

  it('retries once with the validation errors, counting both calls', async () => {
    const sent: Sent[] = [];
    const fetchImpl = scripted([{ content: '{"price": "cheap"}' }, { content: '{"price": 3}' }], sent);
    const answer = await structuredCompletion(llm, { name: 'x', schema: SCHEMA, messages, fetchImpl });
    expect(answer).toEqual({ value: { price: 3 }, usage: { promptTokens: 20, completionTokens: 6 } });
    expect(sent).toHaveLength(2);
    expect(sent[1].messages.slice(1)).toEqual([
      { role: 'assistant', content: '{"price": "cheap"}' },
      { role: 'user', content: expect.stringContaining('/price must be number') },
    ]);
  });

  it('retries once after an answer that is not JSON, then gives up with the tokens spent', async () => {
    const fetchImpl = scripted([{ content: 'Sure! {' }, { content: 'still not json' }]);
    const err = await structuredCompletion(llm, { name: 'x', schema: SCHEMA, messages, fetchImpl }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).message).toBe('the answer is not valid JSON (after one retry)');
    expect((err as LlmError).usage).toEqual({ promptTokens: 20, completionTokens: 6 });
  });

  it('falls back to json_object when the endpoint refuses json_schema, and remembers it for that endpoint', async () => {
    const sent: Sent[] = [];
    const fetchImpl = scripted([{ status: 400 }, { content: '{"price": 1}' }, { content: '{"price": 2}' }], sent);
    expect((await structuredCompletion(llm, { name: 'x', schema: SCHEMA, messages, fetchImpl })).value).toEqual({ price: 1 });
    expect((await structuredCompletion(llm, { name: 'x', schema: SCHEMA, messages, fetchImpl })).value).toEqual({ price: 2 });
    expect(sent.map((s) => s.response_format?.type)).toEqual(['json_schema', 'json_object', 'json_object']);
    // Another model of the endpoint is asked with json_schema again.
    const other: Sent[] = [];
    await structuredCompletion(llm, { name: 'x', schema: SCHEMA, messages, model: 'small', fetchImpl: scripted([{ content: '{"price": 1}' }], other) });
    expect(other.map((s) => [s.model, s.response_format?.type])).toEqual([['small', 'json_schema']]);
  });

  it('does not fall back on other errors, and never echoes the provider text', async () => {
    const sent: Sent[] = [];
    const err = await structuredCompletion(llm, { name: 'x', schema: SCHEMA, messages, fetchImpl: scripted([{ status: 503 }], sent) }).catch((e: unknown) => e);
    expect((err as LlmError).message).toBe('the LLM endpoint answered HTTP 503');
    expect(sent).toHaveLength(1);
  });

  it('validates patterns on RE2, so a catastrophic pattern cannot stall the worker', async () => {
    const schema = { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } };
    const fetchImpl = scripted([{ content: JSON.stringify({ a: `${'a'.repeat(5000)}b` }) }, { content: '{"a": "aaa"}' }]);
    expect((await structuredCompletion(llm, { name: 'x', schema, messages, fetchImpl })).value).toEqual({ a: 'aaa' });
  });
});

describe('deep answers', () => {
  it('refuses an answer nested too deeply for the validator, then takes the retry', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const sent: Sent[] = [];
    const answer = await structuredCompletion(llm, {
      name: 'x',
      schema: {},
      messages,
      fetchImpl: scripted([{ content: deep }, { content: '{"ok": true}' }], sent),
    });
    expect(answer.value).toEqual({ ok: true });
    expect(sent[1].messages.at(-1)?.content).toContain('the answer is nested more than 64 levels deep');
  });
});

describe('complete', () => {
  it('reads token counts, treating missing or bogus ones as 0', async () => {
    expect((await complete(llm, messages, { fetchImpl: scripted([{ content: 'hi', usage: { prompt_tokens: 'x', completion_tokens: -4 } }]) })).usage).toEqual({
      promptTokens: 0,
      completionTokens: 0,
    });
    expect((await complete(llm, messages, { fetchImpl: scripted([{ content: 'hi', usage: null }]) })).usage).toEqual({ promptTokens: 0, completionTokens: 0 });
  });
});

describe('compileJsonSchema', () => {
  it('compiles draft-07 and draft 2020-12 schemas and refuses broken ones', () => {
    expect(compileJsonSchema(SCHEMA)({ price: 1 })).toBe(true);
    const v2020 = compileJsonSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      prefixItems: [{ type: 'string' }],
      items: false,
    });
    expect(v2020(['a'])).toBe(true);
    expect(v2020(['a', 'b'])).toBe(false);
    expect(() => compileJsonSchema({ type: 'nope' })).toThrow(InvalidJsonSchemaError);
    expect(() => compileJsonSchema({ properties: { a: { $ref: '#/definitions/missing' } } })).toThrow(/not a usable JSON schema/);
  });
});
