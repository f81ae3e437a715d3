// One call to the configured OpenAI-compatible chat-completions endpoint
// (LLM_BASE_URL). Crawl prompts, summaries and the model-backed formats all go
// through here, so all get the same timeout, the same care with what the
// provider says, and the token counts the usage ledger records.

export interface LlmSettings {
  /** Up to and including the API version, e.g. `http://host:port/v1`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** A cheaper model of the same endpoint for small tasks; `model` when unset. */
  smallModel?: string;
  timeoutMs: number;
  /** The endpoint runs where the operator keeps data: zero-data-retention jobs may use it. */
  local?: boolean;
  /** Most characters of page text sent for one task (LLM_MAX_INPUT_CHARS). */
  maxInputChars?: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Tokens the endpoint reported for a call (0 when it reported none). */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export const NO_TOKENS: TokenUsage = { promptTokens: 0, completionTokens: 0 };

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens };
}

/** The endpoint failed; `message` says how, in words fit for an API error or a warning. */
export class LlmError extends Error {
  constructor(
    message: string,
    /** The HTTP status the endpoint answered with, when it answered with an error. */
    readonly status?: number,
    /** What the failed calls cost before the failure (a retry's first call, an answer that could not be used). */
    readonly usage: TokenUsage = NO_TOKENS,
  ) {
    super(message);
  }
}

export interface CompletionOptions {
  /** The request's `response_format` (`{type:'json_object'}`, `{type:'json_schema', …}`). */
  responseFormat?: Record<string, unknown>;
  /** A model other than `llm.model` (the small one). */
  model?: string;
  fetchImpl?: typeof fetch;
}

export interface Completion {
  content: string;
  usage: TokenUsage;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

/** The reply's message content and token counts; throws LlmError when the endpoint fails, times out or answers without content. */
export async function complete(llm: LlmSettings, messages: ChatMessage[], options: CompletionOptions = {}): Promise<Completion> {
  const fetchImpl = options.fetchImpl ?? fetch;
  let body: unknown;
  try {
    // One signal covers both the answer and its body, so a stalled stream times out too.
    const res = await fetchImpl(`${llm.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(llm.apiKey && { authorization: `Bearer ${llm.apiKey}` }) },
      body: JSON.stringify({
        model: options.model ?? llm.model,
        temperature: 0,
        messages,
        ...(options.responseFormat && { response_format: options.responseFormat }),
      }),
      signal: AbortSignal.timeout(llm.timeoutMs),
    });
    if (!res.ok) {
      // The provider's error text is not echoed: it can carry account details.
      await res.body?.cancel();
      throw new LlmError(`the LLM endpoint answered HTTP ${res.status}`, res.status);
    }
    body = JSON.parse(await res.text());
  } catch (err) {
    if (err instanceof LlmError) throw err;
    if (err instanceof SyntaxError) throw new LlmError('the LLM endpoint did not answer with JSON');
    if ((err as Error)?.name === 'TimeoutError') throw new LlmError(`the LLM endpoint did not answer within ${llm.timeoutMs} ms`);
    throw new LlmError('the LLM endpoint could not be reached');
  }
  const reply = body as { choices?: { message?: { content?: unknown } }[]; usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } };
  const usage = { promptTokens: count(reply?.usage?.prompt_tokens), completionTokens: count(reply?.usage?.completion_tokens) };
  const content = reply?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new LlmError('the LLM answer carried no message content', undefined, usage);
  return { content, usage };
}

/** The reply's message content (see complete). */
export async function chatCompletion(llm: LlmSettings, messages: ChatMessage[], options: { json?: boolean; fetchImpl?: typeof fetch } = {}): Promise<string> {
  const { content } = await complete(llm, messages, { fetchImpl: options.fetchImpl, ...(options.json && { responseFormat: { type: 'json_object' } }) });
  return content;
}

/** The endpoint settings when LLM_BASE_URL is set. */
export function configuredLlm(llm: Omit<LlmSettings, 'baseUrl'> & { baseUrl?: string }): LlmSettings | undefined {
  return llm.baseUrl ? { ...llm, baseUrl: llm.baseUrl } : undefined;
}
