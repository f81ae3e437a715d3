// The `prompt` of POST /v2/crawl (docs/api/crawl.md#prompt): an
// OpenAI-compatible chat-completions endpoint turns the text into crawler options,
// and whatever the user sent explicitly wins over what the model produced.
import { z } from 'zod';
import { DomainError } from '../../platform/domain-error.ts';
import { crawlRequestSchema } from '../../jobs/crawl-request.ts';
import { formatZodError } from '../../platform/http/validation-error.ts';
import { complete, LlmError, type ChatMessage, type LlmSettings, type TokenUsage } from '../../platform/llm/chat-completion.ts';

export const PROMPT_FAILURE_MESSAGE = 'Failed to process natural language prompt. Please try rephrasing or use explicit crawler options.';

export const NO_LLM_MESSAGE = 'Crawl prompts need an LLM endpoint and none is configured on this server (LLM_BASE_URL); send explicit crawler options instead.';

// The request schema's own field validators, so a generated option is judged exactly
// like a sent one; defaults are unwrapped because an option the model left out must
// stay absent, or it would mask nothing yet still show up in promptGeneratedOptions.
// A non-strict object: keys the model invents (maxDepth, …) are dropped, not fatal.
const shape = crawlRequestSchema.shape;
export const generatedCrawlOptionsSchema = z.object({
  includePaths: shape.includePaths.unwrap().optional(),
  excludePaths: shape.excludePaths.unwrap().optional(),
  maxDiscoveryDepth: shape.maxDiscoveryDepth,
  crawlEntireDomain: shape.crawlEntireDomain.unwrap().optional(),
  allowExternalLinks: shape.allowExternalLinks.unwrap().optional(),
  allowSubdomains: shape.allowSubdomains.unwrap().optional(),
  sitemap: shape.sitemap.unwrap().optional(),
  ignoreQueryParameters: shape.ignoreQueryParameters.unwrap().optional(),
  deduplicateSimilarURLs: shape.deduplicateSimilarURLs.unwrap().optional(),
  regexOnFullURL: shape.regexOnFullURL.unwrap().optional(),
  delay: shape.delay,
  limit: shape.limit.unwrap().optional(),
});

export type GeneratedCrawlOptions = z.output<typeof generatedCrawlOptionsSchema>;

const SYSTEM_PROMPT = `You configure a web crawler. The user describes what to crawl, starting from a given URL.
Answer with one JSON object and nothing else. Include only the options the description calls for; leave the others out.

Options:
- includePaths: array of regular expressions in RE2 syntax (no lookahead, lookbehind or backreferences) matched against the URL pathname (e.g. "/blog/post-1"; no host, no query string). Only URLs matching at least one pattern are crawled. Patterns are unanchored, so anchor them yourself, e.g. "^/blog/".
- excludePaths: array of regular expressions like includePaths; URLs matching any of them are skipped.
- regexOnFullURL: boolean; when true, includePaths and excludePaths are matched against the full URL instead of the pathname.
- maxDiscoveryDepth: non-negative integer; how many links away from the start page to follow (the start page and sitemap pages are depth 0).
- crawlEntireDomain: boolean; when true, also follow links outside the start URL's path (parent and sibling sections of the same site).
- allowSubdomains: boolean; when true, also follow links to subdomains of the site.
- allowExternalLinks: boolean; when true, also follow links to other websites.
- sitemap: "include" (use the sitemap and follow links), "skip" (ignore the sitemap, only follow links) or "only" (crawl only sitemap URLs).
- ignoreQueryParameters: boolean; when true, URLs that differ only in their query string count as the same page.
- deduplicateSimilarURLs: boolean; when true, www/non-www, http/https and trailing-slash variants count as the same page.
- delay: number of seconds to wait between pages, greater than 0 and at most 60; only when the user asks for a slow or polite crawl.
- limit: positive integer; the maximum number of pages to crawl.`;

function failure(reason: string, details?: unknown): DomainError {
  return new DomainError('invalid', `${PROMPT_FAILURE_MESSAGE} Reason: ${reason}`, undefined, details);
}

// Models often wrap JSON in a markdown fence even when told not to.
function stripFence(content: string): string {
  const fenced = /^```[a-zA-Z]*\s*([\s\S]*?)\s*```$/.exec(content.trim());
  return fenced ? fenced[1] : content.trim();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function askLlm(prompt: string, url: string, llm: LlmSettings, fetchImpl: typeof fetch, onUsage?: (usage: TokenUsage) => void): Promise<string> {
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: `Start URL: ${url}\n\nWhat to crawl:\n${prompt}` },
  ];
  try {
    const { content, usage } = await complete(llm, messages, { responseFormat: { type: 'json_object' }, fetchImpl });
    onUsage?.(usage);
    return content;
  } catch (err) {
    if (err instanceof LlmError) throw failure(err.message);
    throw err;
  }
}

/** Crawler options for `prompt`, validated; throws DomainError 'invalid' when no LLM is configured or it fails. */
export async function generateCrawlOptions(
  prompt: string,
  url: string,
  llm: LlmSettings | undefined,
  fetchImpl: typeof fetch = fetch,
  /** Told the tokens the call used, once it answered (for the usage ledger). */
  onUsage?: (usage: TokenUsage) => void,
): Promise<GeneratedCrawlOptions> {
  if (!llm) throw new DomainError('invalid', NO_LLM_MESSAGE);
  const content = await askLlm(prompt, url, llm, fetchImpl, onUsage);
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripFence(content));
  } catch {
    throw failure('the LLM reply was not valid JSON');
  }
  if (!isPlainObject(parsed)) throw failure('the LLM reply was not a JSON object');
  // Models write null for "no opinion"; that is an omitted option, not an invalid one.
  const present = Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== null));
  const result = generatedCrawlOptionsSchema.safeParse(present);
  if (!result.success) {
    const { error, details } = formatZodError(result.error);
    throw failure(`the generated options were invalid: ${error}`, details);
  }
  return result.data;
}

/** The body to parse with the crawl request schema: sent keys win, generated ones fill the gaps. */
export function mergePromptOptions(rawBody: Record<string, unknown>, generated: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...rawBody };
  for (const [key, value] of Object.entries(generated)) {
    if (merged[key] === undefined || merged[key] === null) merged[key] = value;
  }
  return merged;
}
