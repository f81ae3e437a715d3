// A local OpenAI-compatible chat-completions server that answers
// deterministically by reading the request: the task from the system prompt,
// the schema from the response format (or, in json_object mode, from the
// prompt), the page from the user message. Markers in the caller's own words
// (a json prompt, a question) script a misbehaving model:
//   [fake:invalid-once]    not JSON first, valid once the reply is retried
//   [fake:invalid-always]  never JSON
//   [fake:mismatch-once]   JSON that breaks the schema first, then valid
//   [fake:hang]            never answers (the client's timeout ends the call)
//   [fake:misquote]        quotes (the query format's directQuote) also give a sentence the page does not have
// Every call reports the same token usage (`usage`), so tests can count. A test
// can also `script` replies of its own. For redactPII the fake "finds" a PERSON in
// every two capitalised words in a row (Jane Doe) and a LOCATION in a capitalised
// word after "in", "at" or "from" (in Springfield).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown>; strict?: boolean } };
}

export interface FakeLlm {
  /** The base URL to configure (LLM_BASE_URL), up to /v1. */
  url: string;
  /** Every request, in order. */
  requests: ChatRequest[];
  /** Answer 400 to a json_schema response format, as servers without structured output do. */
  rejectJsonSchema: boolean;
  /** What each call reports. */
  usage: { prompt_tokens: number; completion_tokens: number };
  /** Calls that produced an answer (a hung call is counted in requests only). */
  answered: number;
  /** A test's own reply content, when it returns one; the deterministic reply otherwise. */
  script?: (req: ChatRequest) => string | undefined;
  close(): Promise<void>;
}

type Schema = Record<string, unknown>;

/** The page's first heading, or its first line: what the fake "reads" from a page. */
function pageTitle(page: string): string {
  const heading = /^#+\s+(.+)$/m.exec(page);
  return (heading?.[1] ?? page.trim().split('\n')[0] ?? '').trim();
}

/** A value valid under the (simple) schema, made from the page. */
function sample(schema: Schema | undefined, page: string): unknown {
  const type = schema?.type;
  if (Array.isArray(schema?.enum)) return schema.enum[0];
  if (type === 'object' || schema?.properties) {
    const props = (schema?.properties ?? {}) as Record<string, Schema>;
    const entries = Object.entries(props).map(([k, v]) => [k, sample(v, page)]);
    return entries.length > 0 ? Object.fromEntries(entries) : { title: pageTitle(page) };
  }
  if (type === 'array') return [sample(schema?.items as Schema, page)];
  if (type === 'integer') return page.split(/\s+/).filter(Boolean).length;
  if (type === 'number') return 4.5;
  if (type === 'boolean') return true;
  return pageTitle(page);
}

/** What the fake finds for redactPII: only the kinds the task lists. */
function personalData(page: string, system: string): { type: string; text: string }[] {
  const found: { type: string; text: string }[] = [];
  if (system.includes('- PERSON:')) for (const m of page.matchAll(/\b[A-Z][a-z]+ [A-Z][a-z]+\b/g)) found.push({ type: 'PERSON', text: m[0] });
  if (system.includes('- LOCATION:')) for (const m of page.matchAll(/\b(?:in|at|from) ([A-Z][a-z]+)\b/g)) found.push({ type: 'LOCATION', text: m[1]! });
  return found;
}

/** Breaks the schema: the wrong type where an object is expected, or an object where anything else is. */
function mismatch(schema: Schema | undefined): unknown {
  return schema?.type === 'object' || schema?.properties ? ['not', 'an', 'object'] : { not: 'this' };
}

function schemaOf(req: ChatRequest, system: string): Schema | undefined {
  if (req.response_format?.json_schema) return req.response_format.json_schema.schema;
  const inPrompt = /JSON schema: (\{.*\})$/m.exec(system);
  return inPrompt ? (JSON.parse(inPrompt[1]!) as Schema) : undefined;
}

/** The reply's content, or 'hang'. */
function reply(req: ChatRequest): string | 'hang' {
  const system = req.messages.find((m) => m.role === 'system')?.content ?? '';
  const page = req.messages.find((m) => m.role === 'user')?.content ?? '';
  const retried = req.messages.some((m) => m.role === 'assistant');
  if (system.includes('[fake:hang]')) return 'hang';
  if (system.includes('[fake:invalid-always]') || (system.includes('[fake:invalid-once]') && !retried)) return 'Sure! Here is the data you asked for: {oops';
  if (system.startsWith('You summarize')) return `Fake summary of ${pageTitle(page)}.`;
  // A crawl prompt: no options, so the caller's own decide.
  if (system.startsWith('You configure a web crawler')) return '{}';
  if (system.startsWith('You find personal data')) return JSON.stringify({ entities: personalData(page, system) });
  if (system.startsWith('You answer')) {
    const question = /The question: (.+)$/m.exec(system)?.[1] ?? '';
    return JSON.stringify({ answer: `${pageTitle(page)} answers "${question}".` });
  }
  if (system.startsWith('You pick') || system.startsWith('You quote')) {
    const query = (/The query: (.+)$/m.exec(system)?.[1] ?? '').replace('[fake:misquote]', '').toLowerCase();
    const sentences = page.split(/(?<=[.!?])\s+|\n+/).filter((s) => query.split(/\s+/).some((w) => w !== '' && s.toLowerCase().includes(w)));
    if (system.startsWith('You pick')) return JSON.stringify({ highlights: sentences.slice(0, 2) });
    const misquote = system.includes('[fake:misquote]') ? ['A sentence this page never had.'] : [];
    return JSON.stringify({ quotes: [...sentences.slice(0, 2), ...misquote] });
  }
  const schema = schemaOf(req, system);
  if (system.includes('[fake:mismatch-once]') && !retried) return JSON.stringify(mismatch(schema));
  return JSON.stringify(sample(schema, page));
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const fake: Omit<FakeLlm, 'url' | 'close'> = {
    requests: [],
    rejectJsonSchema: false,
    usage: { prompt_tokens: 100, completion_tokens: 20 },
    answered: 0,
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
      const chat = JSON.parse(body) as ChatRequest;
      fake.requests.push(chat);
      if (fake.rejectJsonSchema && chat.response_format?.type === 'json_schema') {
        return void res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'response_format json_schema is not supported' } }));
      }
      const content = fake.script?.(chat) ?? reply(chat);
      if (content === 'hang') return;
      fake.answered++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-${fake.requests.length}`,
          object: 'chat.completion',
          model: chat.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { ...fake.usage, total_tokens: fake.usage.prompt_tokens + fake.usage.completion_tokens },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        // Hung calls hold their connections open: end them, or close would wait for them.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
