import { beforeEach, expect, it } from 'vitest';
import { extractWithModel } from '../../../src/features/extract/extract-with-model.ts';
import type { LlmSettings } from '../../../src/platform/llm/chat-completion.ts';
import { forgetResponseFormats } from '../../../src/platform/llm/structured-output.ts';

type Sent = { messages: { role: string; content: string }[]; response_format?: { json_schema?: { schema: Record<string, unknown> } } };

const SCHEMA = {
  type: 'object',
  required: ['name', 'price'],
  additionalProperties: false,
  properties: { name: { type: 'string' }, price: { type: 'number' } },
};

/** A model that finds the name on the first page, the price on the second, and merges both. */
function model(sent: Sent[]): typeof fetch {
  return (async (_url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as Sent;
    sent.push(body);
    const system = body.messages[0]!.content;
    const user = body.messages[1]!.content;
    const content = system.startsWith('You merge answers') ? '{"name":"Widget","price":5}' : user.includes('/name') ? '{"name":"Widget"}' : '{"price":5}';
    return new Response(JSON.stringify({ choices: [{ message: { content } }], usage: { prompt_tokens: 10, completion_tokens: 3 } }));
  }) as unknown as typeof fetch;
}

const pages = [
  { url: 'http://shop.test/name', markdown: `The product is called Widget. ${'x'.repeat(80)}` },
  { url: 'http://shop.test/price', markdown: `It costs five euros. ${'x'.repeat(80)}` },
];

beforeEach(() => forgetResponseFormats());

it('holds each chunk’s answer to the schema without its required fields, and the merge to all of it', async () => {
  const sent: Sent[] = [];
  const llm: LlmSettings = { baseUrl: 'http://llm.test/v1', model: 'big', timeoutMs: 1000, maxInputChars: 120 };
  const out = await extractWithModel(pages, { schema: SCHEMA }, llm, 10, model(sent));
  expect(out.data).toEqual({ name: 'Widget', price: 5 });
  // Two chunk calls, each answered once (no second ask for a missing field), then the merge.
  expect(sent).toHaveLength(3);
  for (const chunk of sent.slice(0, 2)) {
    expect(chunk.response_format?.json_schema?.schema.required).toBeUndefined();
    expect(chunk.messages[0]!.content).toContain('These pages are only some of the set');
  }
  expect(sent[2]!.response_format?.json_schema?.schema.required).toEqual(['name', 'price']);
  expect(out.sources).toEqual({ name: ['http://shop.test/name'], price: ['http://shop.test/price'] });
});

it('holds a single chunk to the whole schema', async () => {
  const sent: Sent[] = [];
  const llm: LlmSettings = { baseUrl: 'http://llm.test/v1', model: 'big', timeoutMs: 1000, maxInputChars: 10_000 };
  const err = await extractWithModel(pages.slice(0, 1), { schema: SCHEMA }, llm, 10, model(sent)).catch((e: unknown) => e);
  // The one page has no price: asked again once, then the extract's model step fails.
  expect(sent).toHaveLength(2);
  expect(sent[0]!.response_format?.json_schema?.schema.required).toEqual(['name', 'price']);
  expect(String(err)).toMatch(/price/);
});
