// POST /v2/crawl after validation: the crawl's own checks (URL length, prompt
// options, webhook address), then the job is committed like any other kind.
import type { Team } from '../../generated/prisma/client.ts';
import type { Config } from '../../platform/config.ts';
import { DomainError } from '../../platform/domain-error.ts';
import { configuredLlm, type TokenUsage } from '../../platform/llm/chat-completion.ts';
import { checkAddress, checkSelectors, checkTeamPermissions, checkThreatProtection, commitJob, type JobDeps } from '../../jobs/commit-job.ts';
import { crawlRequestSchema, type CrawlRequest } from '../../jobs/crawl-request.ts';
import { canonicalUrl, urlKey } from '../../jobs/frontier/normalize-url.ts';
import { isTooLong, tooLongReason } from '../../jobs/frontier/url-length.ts';
import { generateCrawlOptions, mergePromptOptions } from './prompt-options.ts';

/** The start URL becomes the crawl's first frontier row, so it is held to the same length limit as every URL found later. */
function checkUrlLength(req: CrawlRequest, config: Config): void {
  const norm = { ignoreQueryParameters: req.ignoreQueryParameters };
  const start = { url: canonicalUrl(req.url, norm), urlKey: urlKey(req.url, norm) };
  if (isTooLong(start, config.crawl.maxUrlLength)) throw new DomainError('invalid', `The URL ${tooLongReason(start, config.crawl.maxUrlLength)}`);
}

export interface PromptResult {
  promptGeneratedOptions: Record<string, unknown>;
  finalCrawlerOptions: CrawlRequest;
}

/**
 * Validates the body as sent, then, with a prompt, asks the LLM for options and
 * validates the merge again: the caller's explicit options win.
 */
export async function parseCrawlRequest(body: unknown, config: Config): Promise<{ request: CrawlRequest; prompt?: PromptResult; promptUsage?: TokenUsage }> {
  const request = crawlRequestSchema.parse(body ?? {});
  if (request.prompt === undefined) return { request };
  let promptUsage: TokenUsage | undefined;
  const generated = await generateCrawlOptions(request.prompt, request.url, configuredLlm(config.llm), fetch, (usage) => (promptUsage = usage));
  const merged = crawlRequestSchema.parse(mergePromptOptions(body as Record<string, unknown>, generated));
  return { request: merged, prompt: { promptGeneratedOptions: generated, finalCrawlerOptions: merged }, promptUsage };
}

export async function startCrawl(deps: JobDeps, team: Team, apiKeyId: string, req: CrawlRequest) {
  checkTeamPermissions(team, req);
  checkSelectors(req.scrapeOptions);
  checkUrlLength(req, deps.config);
  checkThreatProtection(req.url, req.scrapeOptions);
  await checkAddress(req.url, deps.config, `Refused to crawl ${req.url}`);
  // Webhook deliveries go through the same guard; refusing now beats failing every delivery later.
  if (req.webhook) await checkAddress(req.webhook.url, deps.config, `Refused to deliver webhooks to ${req.webhook.url}`);
  return (await commitJob(deps, team, apiKeyId, { kind: 'crawl', url: req.url, options: req })).id;
}
