// The model endpoint's section of the settings (src/config.ts composes them all).
import { bool, int, positiveInt, str } from '../config/env.ts';

export function llmConfig() {
  return {
    /**
     * OpenAI-compatible endpoint (…/v1): crawl prompts, summaries, the json, question and highlights formats
     * and change tracking's json mode; unset: prompts and those formats are refused (400), summaries are extractive.
     */
    baseUrl: str('LLM_BASE_URL'),
    apiKey: str('LLM_API_KEY'),
    model: str('LLM_MODEL') ?? 'gpt-4o-mini',
    /** A cheaper model of the same endpoint for small tasks (summary, question, highlights, an agent's spark-1-mini); LLM_MODEL when unset. */
    smallModel: str('LLM_SMALL_MODEL'),
    timeoutMs: int('LLM_TIMEOUT_MS', 30_000),
    /** The endpoint runs where the operator keeps data (a local Ollama, vLLM…): only then may zero-data-retention jobs send it pages. */
    local: bool('LLM_IS_LOCAL', false),
    /** Most characters of page text sent to the model for one format (the start of the page's markdown). */
    maxInputChars: positiveInt('LLM_MAX_INPUT_CHARS', 32_000),
    /** redactPII: most chunks of LLM_MAX_INPUT_CHARS the model reads of one page for PERSON and LOCATION; a longer page fails. */
    redactMaxChunks: positiveInt('REDACT_PII_MAX_MODEL_CHUNKS', 8),
  };
}

/** The configured endpoint and its limits (chat-completion.ts's LlmSettings is what one call uses). */
export type LlmServiceSettings = ReturnType<typeof llmConfig>;
