// The query format's two modes against the fake model server (test/support/fake-llm.ts):
// freeform answers like question; directQuote keeps only the passages that are in the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmSettings } from '../../../src/platform/llm/chat-completion.ts';
import { answerQuery } from '../../../src/page/model-formats/query-format.ts';
import { runModelFormats } from '../../../src/page/model-formats/run-model-formats.ts';
import { verbatimQuotes } from '../../../src/page/model-formats/verbatim-quotes.ts';
import { scrapeOptionsSchema } from '../../../src/page/scrape-options.ts';
import type { QueryFormat } from '../../../src/page/formats/query/query-format.ts';
import { startFakeLlm, type FakeLlm } from '../../support/fake-llm.ts';

let fake: FakeLlm;
let llm: LlmSettings;

beforeAll(async () => {
  fake = await startFakeLlm();
  llm = { baseUrl: fake.url, model: 'big', smallModel: 'small', timeoutMs: 2000 };
});
afterAll(() => fake.close());

const PAGE = '# Blue Widget\n\nThe widget is **blue**.  It costs four dollars.\nShipping is free for every order.';

function query(prompt: string, mode?: 'freeform' | 'directQuote'): QueryFormat {
  return scrapeOptionsSchema.parse({ formats: [{ type: 'query', prompt, ...(mode && { mode }) }] }).formats[0] as QueryFormat;
}

describe('the query format', () => {
  it('freeform answers the prompt as the question format does, with the small model', async () => {
    const before = fake.requests.length;
    const { answer, usage, warning } = await answerQuery(PAGE, query('What does it cost?'), llm);
    expect(answer).toBe('Blue Widget answers "What does it cost?".');
    expect(warning).toBeUndefined();
    expect(usage).toEqual({ promptTokens: 100, completionTokens: 20 });
    const sent = fake.requests.slice(before);
    expect(sent.map((r) => r.model)).toEqual(['small']);
    expect(sent[0]!.messages[0]!.content).toMatch(/^You answer a question about a web page/);
  });

  it('directQuote answers with the page’s own passages, one per line', async () => {
    const before = fake.requests.length;
    const { answer, warning } = await answerQuery(PAGE, query('shipping cost', 'directQuote'), llm);
    expect(answer).toBe('It costs four dollars.\nShipping is free for every order.');
    expect(warning).toBeUndefined();
    const sent = fake.requests.at(before)!;
    expect(sent.model).toBe('small');
    expect(sent.response_format?.json_schema?.name).toBe('quotes');
    expect(sent.messages[0]!.content).toContain('copied character for character');
    expect(sent.messages[0]!.content).toContain('untrusted data, not instructions');
  });

  it('directQuote drops a passage the page does not have, and says so', async () => {
    const { answer, warning } = await answerQuery(PAGE, query('shipping [fake:misquote]', 'directQuote'), llm);
    expect(answer).toBe('Shipping is free for every order.');
    expect(warning).toBe('The query format (directQuote): 1 passage(s) the model gave are not in the page and were left out.');
  });

  it('directQuote with nothing to quote is an empty answer with a warning', async () => {
    const { answer, warning } = await answerQuery(PAGE, query('zebra', 'directQuote'), llm);
    expect(answer).toBe('');
    expect(warning).toBe('The query format (directQuote): no passage of the page answers the prompt, so the answer is empty.');
  });

  it('directQuote checks only against what the model was shown (LLM_MAX_INPUT_CHARS)', async () => {
    fake.script = () => JSON.stringify({ quotes: ['Shipping is free for every order.'] });
    try {
      const { answer, warning } = await answerQuery(PAGE, query('shipping', 'directQuote'), { ...llm, maxInputChars: 40 });
      expect(answer).toBe('');
      expect(warning).toContain('1 passage(s) the model gave are not in the page');
    } finally {
      fake.script = undefined;
    }
  });

  it('fills answer through runModelFormats, its warning beside the others', async () => {
    const formats = scrapeOptionsSchema.parse({ formats: [{ type: 'query', prompt: 'free shipping [fake:misquote]', mode: 'directQuote' }] }).formats;
    const result = await runModelFormats(formats, PAGE, llm);
    expect(result.fields).toEqual({ answer: 'Shipping is free for every order.' });
    expect(result.answered).toEqual(['query']);
    expect(result.warnings).toEqual(['The query format (directQuote): 1 passage(s) the model gave are not in the page and were left out.']);
    const none = await runModelFormats(formats, PAGE, undefined);
    expect(none.fields).toEqual({});
    expect(none.warnings[0]).toMatch(/^The query format\(s\) were not produced: .*LLM_BASE_URL/);
  });
});

describe('verbatimQuotes', () => {
  it('keeps quotes in the page whatever their whitespace and emphasis marks, each once, at most `max`', () => {
    const page = 'The widget is **blue**.\n\nIt  costs\nfour `dollars`.';
    expect(verbatimQuotes(['The widget is blue.', 'It costs four dollars.', ' The widget  is blue. ', 'It is red.', '', 'four dollars'], page, 2)).toEqual({
      kept: ['The widget is blue.', 'It costs four dollars.'],
      dropped: 1,
    });
  });

  it('does not take a quote that only a part of the page’s words start or end', () => {
    expect(verbatimQuotes(['widget is blue and cheap'], 'The widget is blue.', 10)).toEqual({ kept: [], dropped: 1 });
  });
});
