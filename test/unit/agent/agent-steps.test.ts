// The pure rules of an agent step: which tool calls may run (a known tool, a valid
// input, URLs within the run's and allowed by its threat protection), which model
// errors end the run, and what an answer writes on the row.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkedToolCall } from '../../../src/features/agent/agent-tool-call.ts';
import { finishFields, unusableAnswer } from '../../../src/features/agent/agent-decision.ts';
import { defineTool, type Tool } from '../../../src/platform/tools/tool.ts';
import { DomainError } from '../../../src/platform/domain-error.ts';
import { LlmError } from '../../../src/platform/llm/chat-completion.ts';

const scrape = defineTool({
  name: 'scrape',
  description: 'Reads a page',
  input: z.object({ url: z.string(), onlyMainContent: z.boolean().default(true) }),
  urlsOf: (input) => [input.url],
  run: async () => ({ output: 'page', credits: 1 }),
});
const search = defineTool({
  name: 'search',
  description: 'Searches the web',
  input: z.object({ query: z.string().min(1) }),
  run: async () => ({ output: [], credits: 1 }),
});
const tools: Tool[] = [scrape, search];
const open = { strictConstrainToURLs: false, urls: undefined, threatProtection: undefined };

function refusal(call: () => unknown): string {
  try {
    call();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('invalid');
    return (err as Error).message;
  }
  throw new Error('the call was not refused');
}

describe('checkedToolCall', () => {
  it('answers the named tool with its input as the schema parsed it', () => {
    const call = checkedToolCall(tools, 'scrape', { url: 'https://site.test/a' }, open);
    expect(call.tool).toBe(scrape);
    expect(call.input).toEqual({ url: 'https://site.test/a', onlyMainContent: true });
    expect(checkedToolCall(tools, 'search', { query: 'prices' }, open).tool).toBe(search);
  });

  it('refuses a tool that does not exist, naming the ones that do', () => {
    expect(refusal(() => checkedToolCall(tools, 'crawl', {}, open))).toBe('there is no tool named crawl; the tools are scrape, search');
    expect(refusal(() => checkedToolCall(tools, null, {}, open))).toBe('there is no tool named null; the tools are scrape, search');
  });

  it('refuses an input its schema does not take, naming each field', () => {
    expect(refusal(() => checkedToolCall(tools, 'search', { query: '' }, open))).toMatch(/^the input is not valid for search: query /);
    expect(refusal(() => checkedToolCall(tools, 'search', 'prices', open))).toMatch(/^the input is not valid for search: \(root\) /);
  });

  it("under strictConstrainToURLs, refuses a URL outside the run's URLs", () => {
    const strict = { ...open, strictConstrainToURLs: true, urls: ['https://site.test/docs'] };
    expect(checkedToolCall(tools, 'scrape', { url: 'https://site.test/docs/intro' }, strict).tool).toBe(scrape);
    expect(refusal(() => checkedToolCall(tools, 'scrape', { url: 'https://site.test/blog' }, strict))).toBe(
      'https://site.test/blog is outside the URLs this run may read (strictConstrainToURLs)',
    );
    // Without URLs to hold to, the flag holds to nothing.
    expect(checkedToolCall(tools, 'scrape', { url: 'https://other.test/' }, { ...strict, urls: [] }).tool).toBe(scrape);
    // A tool that reads no URL (search) is not held.
    expect(checkedToolCall(tools, 'search', { query: 'x' }, strict).tool).toBe(search);
  });

  it("refuses a URL the run's threat protection blocks", () => {
    const guarded = { ...open, threatProtection: { blacklist: ['evil.test'] } };
    expect(refusal(() => checkedToolCall(tools, 'scrape', { url: 'https://www.evil.test/x' }, guarded))).toMatch(
      /threatProtection\.blacklist lists "evil\.test"/,
    );
    expect(checkedToolCall(tools, 'scrape', { url: 'https://site.test/' }, guarded).tool).toBe(scrape);
  });
});

describe('unusableAnswer', () => {
  it('ends the run for an answer the model could not make usable, and retries an endpoint that failed', () => {
    expect(unusableAnswer(new LlmError('the answer is not valid JSON (after one retry)'))).toBe(true);
    expect(unusableAnswer(new LlmError('the answer is nested more than 64 levels deep'))).toBe(true);
    expect(unusableAnswer(new LlmError('the LLM endpoint answered HTTP 503', 503))).toBe(false);
    expect(unusableAnswer(new LlmError('the LLM endpoint could not be reached'))).toBe(false);
    expect(unusableAnswer(new LlmError('the LLM endpoint did not answer with JSON'))).toBe(false);
  });
});

describe('finishFields', () => {
  it('answers text in message for a chat run, JSON in data for an extract run', () => {
    expect(finishFields('chat', 'The price is 3')).toEqual({ message: 'The price is 3', data: null });
    expect(finishFields('chat', null)).toEqual({ message: '', data: null });
    expect(finishFields('extract', { price: 3 })).toEqual({ data: { price: 3 } });
    expect(finishFields('extract', undefined)).toEqual({ data: null });
    // A row stored before runs had a mode is an extract run.
    expect(finishFields(undefined, [1])).toEqual({ data: [1] });
  });
});
