// POST /v2/crawl/params-preview: the crawler options a prompt would produce
// (prompt-options.ts), answered without starting anything. The body is not
// strict, as upstream's: keys other than url and prompt are dropped.
import { z } from 'zod';
import { httpUrl, origin } from '../../platform/http/common-schemas.ts';
import { MAX_PROMPT_LENGTH } from '../../jobs/crawl-request.ts';
import type { LlmSettings, TokenUsage } from '../../platform/llm/chat-completion.ts';
import { generateCrawlOptions, generatedCrawlOptionsSchema } from './prompt-options.ts';

export const paramsPreviewRequestSchema = z.object({
  url: httpUrl.describe('Base URL the crawl would start from.'),
  prompt: z
    .string({ error: (iss) => (iss.input === undefined ? 'prompt is required' : undefined) })
    .trim()
    .min(1, 'prompt must not be empty')
    .max(MAX_PROMPT_LENGTH, `prompt must be at most ${MAX_PROMPT_LENGTH} characters`)
    .describe('What to crawl, in words.'),
  origin,
});

export const paramsPreviewSchema = z.object({
  success: z.literal(true),
  data: generatedCrawlOptionsSchema
    .extend({ url: z.string() })
    .describe('The start URL and the crawler options the prompt produced (those the model left out are absent).'),
});

/** Throws a ZodError for a bad body, DomainError 'invalid' without an LLM (naming LLM_BASE_URL) or when its answer is unusable. */
export async function previewCrawlParams(
  body: unknown,
  llm: LlmSettings | undefined,
  onUsage?: (usage: TokenUsage) => void,
): Promise<z.output<typeof paramsPreviewSchema>> {
  const { url, prompt } = paramsPreviewRequestSchema.parse(body ?? {});
  return { success: true, data: { url, ...(await generateCrawlOptions(prompt, url, llm, fetch, onUsage)) } };
}
