import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/platform/domain-error.ts';
import { crawlRequestSchema } from '../../../src/jobs/crawl-request.ts';
import { generateCrawlOptions, mergePromptOptions, NO_LLM_MESSAGE, PROMPT_FAILURE_MESSAGE } from '../../../src/features/crawl/prompt-options.ts';
import type { LlmSettings } from '../../../src/platform/llm/chat-completion.ts';

interface Recorded {
  method?: string;
  path?: string;
  headers: IncomingHttpHeaders;
  body: any;
}

// A stand-in for an OpenAI-compatible endpoint: each test sets how it answers.
let requests: Recorded[] = [];
let answer: (res: ServerResponse) => void;
let server: Server;
let baseUrl: string;

const reply = (content: string) => (res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      requests.push({ method: req.method, path: req.url, headers: req.headers, body: JSON.parse(raw) });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  requests = [];
  answer = reply('{"includePaths":["^/blog"],"limit":5}');
});

const llm = (extra: Partial<LlmSettings> = {}): LlmSettings => ({ baseUrl, apiKey: 'sk-test', model: 'test-model', timeoutMs: 5000, ...extra });
const generate = (settings: LlmSettings = llm()) => generateCrawlOptions('only the blog, 5 pages', 'https://example.com/', settings);

async function httpError(promise: Promise<unknown>): Promise<DomainError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  const domainErr = err as DomainError;
  expect(domainErr.kind).toBe('invalid');
  return domainErr;
}

describe('generateCrawlOptions', () => {
  it('asks the chat-completions endpoint for a JSON object and returns the options', async () => {
    await expect(generate()).resolves.toEqual({ includePaths: ['^/blog'], limit: 5 });
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    expect(req.body).toMatchObject({ model: 'test-model', temperature: 0, response_format: { type: 'json_object' } });
    expect(req.body.messages[0].role).toBe('system');
    expect(req.body.messages[0].content).toContain('includePaths');
    const user = req.body.messages.find((m: { role: string }) => m.role === 'user').content;
    expect(user).toContain('only the blog, 5 pages');
    expect(user).toContain('https://example.com/');
  });

  it('sends no Authorization header without an API key and tolerates a trailing slash', async () => {
    await generate(llm({ apiKey: undefined, baseUrl: `${baseUrl}/` }));
    expect(requests[0].path).toBe('/v1/chat/completions');
    expect(requests[0].headers.authorization).toBeUndefined();
  });

  it('accepts a reply wrapped in a ```json fence', async () => {
    answer = reply('```json\n{"sitemap":"skip","excludePaths":["^/tag/"]}\n```');
    await expect(generate()).resolves.toEqual({ sitemap: 'skip', excludePaths: ['^/tag/'] });
  });

  it('drops keys it does not know and options left null', async () => {
    answer = reply('{"maxDepth":3,"crawlerOptions":{},"limit":7,"delay":null,"crawlEntireDomain":true}');
    await expect(generate()).resolves.toEqual({ limit: 7, crawlEntireDomain: true });
  });

  it('rejects a regex that does not compile, naming includePaths', async () => {
    answer = reply('{"includePaths":["^/blog("]}');
    const err = await httpError(generate());
    expect(err.message).toContain(PROMPT_FAILURE_MESSAGE);
    expect(err.message).toContain('includePaths');
  });

  it('rejects a generated pattern RE2 cannot run, naming the pattern and the construct', async () => {
    answer = reply('{"includePaths":["^/blog/(?!drafts)"]}');
    const err = await httpError(generate());
    expect(err.message).toBe(
      `${PROMPT_FAILURE_MESSAGE} Reason: the generated options were invalid: includePaths.0: Invalid includePaths pattern "^/blog/(?!drafts)": negative lookahead (?!...) is not supported; patterns run on a linear-time engine (RE2 syntax)`,
    );
  });

  it('rejects an out-of-range value, naming the field', async () => {
    answer = reply('{"limit":-1}');
    expect((await httpError(generate())).message).toMatch(/limit/);
  });

  it('fails with the prompt message when the endpoint answers 500', async () => {
    answer = (res) => res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
    const err = await httpError(generate());
    expect(err.message).toContain(PROMPT_FAILURE_MESSAGE);
    expect(err.message).toContain('HTTP 500');
    expect(err.message).not.toContain('boom');
  });

  it('fails when the endpoint body or the reply content is not JSON', async () => {
    answer = (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>gateway</html>');
    expect((await httpError(generate())).message).toContain(PROMPT_FAILURE_MESSAGE);
    answer = reply('Sure! I would crawl the blog.');
    expect((await httpError(generate())).message).toContain('not valid JSON');
    answer = reply('["^/blog"]');
    expect((await httpError(generate())).message).toContain('not a JSON object');
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices":[]}');
    expect((await httpError(generate())).message).toContain(PROMPT_FAILURE_MESSAGE);
  });

  it('fails when the endpoint does not answer in time', async () => {
    answer = () => undefined;
    const err = await httpError(generate(llm({ timeoutMs: 100 })));
    expect(err.message).toContain(PROMPT_FAILURE_MESSAGE);
    expect(err.message).toContain('100 ms');
  });

  it('fails when the endpoint cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const err = await httpError(generate(llm({ baseUrl: `http://127.0.0.1:${port}/v1` })));
    expect(err.message).toContain('could not be reached');
  });

  it('refuses prompts when no LLM is configured, without calling anything', async () => {
    const err = await httpError(generateCrawlOptions('only the blog', 'https://example.com/', undefined));
    expect(err.message).toBe(NO_LLM_MESSAGE);
    expect(err.message).toContain('LLM_BASE_URL');
    expect(requests).toHaveLength(0);
  });
});

describe('mergePromptOptions', () => {
  it('lets explicit keys win and fills absent, null or undefined ones', () => {
    const body = { url: 'https://example.com', prompt: 'blog', limit: 2, includePaths: null, excludePaths: undefined };
    const generated = { limit: 50, includePaths: ['^/blog'], excludePaths: ['^/tag'], sitemap: 'skip' };
    expect(mergePromptOptions(body, generated)).toEqual({
      url: 'https://example.com',
      prompt: 'blog',
      limit: 2,
      includePaths: ['^/blog'],
      excludePaths: ['^/tag'],
      sitemap: 'skip',
    });
    expect(body.includePaths).toBeNull();
  });

  it('feeds the strict request schema end to end', async () => {
    answer = reply('{"includePaths":["^/blog"],"limit":5,"allowSubdomains":true}');
    const body = { url: 'https://example.com', prompt: 'only the blog', limit: 3 };
    const merged = crawlRequestSchema.parse(mergePromptOptions(body, await generateCrawlOptions(body.prompt, body.url, llm())));
    expect(merged).toMatchObject({ includePaths: ['^/blog'], limit: 3, allowSubdomains: true, excludePaths: [] });
  });
});
