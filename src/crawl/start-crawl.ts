// POST /v2/crawl after validation: team checks, the crawl row, the workflow.
// The row and the workflow appear together or not at all.
import type { Client } from '@temporalio/client';
import type { crawlWorkflow } from '../../workflows/crawl.ts';
import { v7 as uuidv7 } from 'uuid';
import { writeCrawlEvent } from '../webhooks/crawl-events.ts';
import type { CrawlRequest } from '../api/schemas/crawl-request.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/prisma.ts';
import type { Team } from '../generated/prisma/client.ts';
import { HttpError } from '../api/http-error.ts';
import { assertValidSelectors, InvalidSelectorError } from '../scrape/clean-html.ts';
import { CrawlIdAttribute, CrawlStatusAttribute, crawlWorkflowId, TeamIdAttribute, type CrawlWorkflowInput } from '../temporal/definitions.ts';
import { insufficientCredits } from '../billing/credits.ts';
import { BlockedAddressError } from '../net/address-policy.ts';
import { checkHostAllowed } from '../net/guarded-lookup.ts';
import { crawlRequestSchema } from '../api/schemas/crawl-request.ts';
import { crawlConcurrency } from './concurrency.ts';
import { generateCrawlOptions, mergePromptOptions } from './prompt-options.ts';

const ENTERPRISE = (option: string) =>
  `The ${option} parameter is an enterprise feature that is not enabled for your team. Ask your administrator to enable it (npm run cli -- team flags --help).`;

export function checkTeamPermissions(team: Team, req: CrawlRequest): void {
  if (req.ignoreRobotsTxt && !team.flagIgnoreRobotsTxt) throw new HttpError(403, ENTERPRISE('ignoreRobotsTxt'), 'FORBIDDEN');
  if (req.robotsUserAgent !== undefined && !team.flagRobotsUserAgent) throw new HttpError(403, ENTERPRISE('robotsUserAgent'), 'FORBIDDEN');
  if (req.zeroDataRetention && !team.flagZeroDataRetention) {
    throw new HttpError(403, 'Zero Data Retention (ZDR) is not enabled for your team. Ask your administrator to enable it.', 'FORBIDDEN');
  }
}

function checkSelectors(req: CrawlRequest): void {
  for (const field of ['includeTags', 'excludeTags'] as const) {
    try {
      assertValidSelectors(req.scrapeOptions[field] ?? []);
    } catch (err) {
      if (err instanceof InvalidSelectorError) throw new HttpError(400, `scrapeOptions.${field}: ${err.message}`, 'BAD_REQUEST');
      throw err;
    }
  }
}

export interface PromptResult {
  promptGeneratedOptions: Record<string, unknown>;
  finalCrawlerOptions: CrawlRequest;
}

/**
 * Validates the body as sent, then, with a prompt, asks the LLM for options and
 * validates the merge again: the caller's explicit options win.
 */
export async function parseCrawlRequest(body: unknown, config: Config): Promise<{ request: CrawlRequest; prompt?: PromptResult }> {
  const request = crawlRequestSchema.parse(body ?? {});
  if (request.prompt === undefined) return { request };
  const llm = config.llm.baseUrl ? { ...config.llm, baseUrl: config.llm.baseUrl } : undefined;
  const generated = await generateCrawlOptions(request.prompt, request.url, llm);
  const merged = crawlRequestSchema.parse(mergePromptOptions(body as Record<string, unknown>, generated));
  return { request: merged, prompt: { promptGeneratedOptions: generated, finalCrawlerOptions: merged } };
}

/**
 * Refuses a start URL on a private address before any job exists. The worker
 * checks every connection again, so this is for a clear answer, not the guard.
 * An unresolvable host is left to the crawl, which reports it as the page's error.
 */
async function checkAddress(url: string, config: Config, refusal: string): Promise<void> {
  const policy = { allowPrivate: config.crawl.allowPrivateAddresses, allowlist: config.crawl.privateAddressAllowlist };
  if (policy.allowPrivate) return;
  try {
    await checkHostAllowed(new URL(url).hostname.replace(/^\[|\]$/g, ''), policy);
  } catch (err) {
    if (err instanceof BlockedAddressError) throw new HttpError(400, err.message.replace(/^Refused to connect to [^:]+/, refusal), 'BLOCKED_ADDRESS');
  }
}

export async function startCrawl(deps: { db: Db; temporal: Client; config: Config }, team: Team, apiKeyId: string, req: CrawlRequest) {
  checkTeamPermissions(team, req);
  checkSelectors(req);
  await checkAddress(req.url, deps.config, `Refused to crawl ${req.url}`);
  // Webhook deliveries go through the same guard; refusing now beats failing every delivery later.
  if (req.webhook) await checkAddress(req.webhook.url, deps.config, `Refused to deliver webhooks to ${req.webhook.url}`);
  if (team.creditBalance < 1) throw insufficientCredits(team.creditBalance);
  const id = uuidv7();
  const { parallelBatches, pagesPerBatch } = crawlConcurrency({
    teamLimit: team.concurrencyLimit,
    maxConcurrency: req.maxConcurrency,
    delay: req.delay,
    pagesPerBrowser: deps.config.crawl.pagesPerBrowser,
  });
  await deps.db.$transaction(async (tx) => {
    await tx.crawl.create({ data: { id, teamId: team.id, apiKeyId, url: req.url, options: req as object, status: 'scraping' } });
    await writeCrawlEvent(tx, id, req.webhook, { type: 'crawl.started', success: true, data: [] });
  });
  const input: CrawlWorkflowInput = {
    crawlId: id,
    parallelBatches,
    pagesPerBatch,
    // With a delay every page is its own batch, so the pause is a workflow timer.
    batchSize: req.delay !== undefined ? 1 : deps.config.crawl.batchSize,
    heartbeatTimeoutMs: deps.config.crawl.heartbeatTimeoutMs,
    historyEventBudget: deps.config.crawl.historyEventBudget,
    ...(req.webhook && { webhookTaskQueue: deps.config.temporal.webhookTaskQueue }),
    ...(req.delay !== undefined && { delayMs: Math.round(req.delay * 1000) }),
  };
  try {
    await deps.temporal.workflow.start<typeof crawlWorkflow>('crawlWorkflow', {
      workflowId: crawlWorkflowId(id),
      taskQueue: deps.config.temporal.taskQueue,
      args: [input],
      typedSearchAttributes: [
        { key: TeamIdAttribute, value: team.id },
        { key: CrawlIdAttribute, value: id },
        { key: CrawlStatusAttribute, value: 'scraping' },
      ],
      staticSummary: `Crawl of ${req.url} (limit ${req.limit})`,
    });
  } catch (err) {
    await deps.db.crawl.delete({ where: { id } }).catch(() => undefined);
    throw new HttpError(503, `The crawl could not be started: ${(err as Error).message}`, 'TEMPORAL_UNAVAILABLE');
  }
  return id;
}
