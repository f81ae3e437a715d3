// One call to the configured OpenAI-compatible chat-completions endpoint
// (LLM_BASE_URL). Crawl prompts and page summaries both go through here, so
// both get the same timeout and the same care with what the provider says.

export interface LlmSettings {
  /** Up to and including the API version, e.g. `http://host:port/v1`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** The endpoint failed; `message` says how, in words fit for an API error or a warning. */
export class LlmError extends Error {}

/** The reply's message content; throws LlmError when the endpoint fails, times out or answers without content. */
export async function chatCompletion(llm: LlmSettings, messages: ChatMessage[], options: { json?: boolean; fetchImpl?: typeof fetch } = {}): Promise<string> {
  const fetchImpl = options.fetchImpl ?? fetch;
  let body: unknown;
  try {
    // One signal covers both the answer and its body, so a stalled stream times out too.
    const res = await fetchImpl(`${llm.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(llm.apiKey && { authorization: `Bearer ${llm.apiKey}` }) },
      body: JSON.stringify({ model: llm.model, temperature: 0, messages, ...(options.json && { response_format: { type: 'json_object' } }) }),
      signal: AbortSignal.timeout(llm.timeoutMs),
    });
    if (!res.ok) {
      // The provider's error text is not echoed: it can carry account details.
      await res.body?.cancel();
      throw new LlmError(`the LLM endpoint answered HTTP ${res.status}`);
    }
    body = JSON.parse(await res.text());
  } catch (err) {
    if (err instanceof LlmError) throw err;
    if (err instanceof SyntaxError) throw new LlmError('the LLM endpoint did not answer with JSON');
    if ((err as Error)?.name === 'TimeoutError') throw new LlmError(`the LLM endpoint did not answer within ${llm.timeoutMs} ms`);
    throw new LlmError('the LLM endpoint could not be reached');
  }
  const content = (body as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new LlmError('the LLM answer carried no message content');
  return content;
}

/** The endpoint settings when LLM_BASE_URL is set. */
export function configuredLlm(llm: Omit<LlmSettings, 'baseUrl'> & { baseUrl?: string }): LlmSettings | undefined {
  return llm.baseUrl ? { ...llm, baseUrl: llm.baseUrl } : undefined;
}
