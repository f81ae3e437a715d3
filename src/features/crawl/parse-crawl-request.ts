// The body of POST /v2/crawl: validated as sent and, with a prompt, merged with the
// options the model generates from it. Starting the crawl is the job engine's
// (jobs/start-crawl.ts).
import { configuredLlm, type TokenUsage } from '../../platform/llm/chat-completion.ts';
import { crawlRequestSchema, type CrawlRequest } from '../../jobs/crawl-request.ts';
import { generateCrawlOptions, mergePromptOptions } from './prompt-options.ts';
import type { JobSettings } from '../../jobs/config.ts';

export interface PromptResult {
  promptGeneratedOptions: Record<string, unknown>;
  finalCrawlerOptions: CrawlRequest;
}

/**
 * Validates the body as sent, then, with a prompt, asks the LLM for options and
 * validates the merge again: the caller's explicit options win.
 */
export async function parseCrawlRequest(
  body: unknown,
  config: JobSettings,
): Promise<{ request: CrawlRequest; prompt?: PromptResult; promptUsage?: TokenUsage }> {
  const request = crawlRequestSchema.parse(body ?? {});
  if (request.prompt === undefined) return { request };
  let promptUsage: TokenUsage | undefined;
  const generated = await generateCrawlOptions(request.prompt, request.url, configuredLlm(config.llm), fetch, (usage) => (promptUsage = usage));
  const merged = crawlRequestSchema.parse(mergePromptOptions(body as Record<string, unknown>, generated));
  return { request: merged, prompt: { promptGeneratedOptions: generated, finalCrawlerOptions: merged }, promptUsage };
}
