// POST /v2/crawl after validation: team checks, the crawl row, the workflow.
// The row and the workflow appear together or not at all.
import type { Client } from '@temporalio/client';
import type { crawlWorkflow } from '../../workflows/crawl.ts';
import { v7 as uuidv7 } from 'uuid';
import type { CrawlRequest } from '../api/schemas/crawl-request.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/prisma.ts';
import type { Team } from '../generated/prisma/client.ts';
import { HttpError } from '../api/http-error.ts';
import { assertValidSelectors, InvalidSelectorError } from '../scrape/clean-html.ts';
import { CrawlIdAttribute, CrawlStatusAttribute, crawlWorkflowId, TeamIdAttribute, type CrawlWorkflowInput } from '../temporal/definitions.ts';
import { crawlConcurrency } from './concurrency.ts';

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

export async function startCrawl(deps: { db: Db; temporal: Client; config: Config }, team: Team, apiKeyId: string, req: CrawlRequest) {
  checkTeamPermissions(team, req);
  checkSelectors(req);
  if (req.prompt !== undefined) {
    throw new HttpError(400, 'Crawl prompts need an LLM endpoint and none is configured on this server; send explicit crawler options instead.', 'BAD_REQUEST');
  }
  const id = uuidv7();
  const { parallelBatches, pagesPerBatch } = crawlConcurrency({
    teamLimit: team.concurrencyLimit,
    maxConcurrency: req.maxConcurrency,
    delay: req.delay,
    pagesPerBrowser: deps.config.crawl.pagesPerBrowser,
  });
  await deps.db.crawl.create({ data: { id, teamId: team.id, apiKeyId, url: req.url, options: req as object, status: 'scraping' } });
  const input: CrawlWorkflowInput = {
    crawlId: id,
    parallelBatches,
    pagesPerBatch,
    batchSize: deps.config.crawl.batchSize,
    heartbeatTimeoutMs: deps.config.crawl.heartbeatTimeoutMs,
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
