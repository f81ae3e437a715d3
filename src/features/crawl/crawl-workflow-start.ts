// Starting a crawl's workflow, exactly once. The gateway commits the crawl row
// first and starts the workflow second; the workflow id is derived from the crawl
// id, so starting it again is harmless (an existing run is kept, a finished one is
// never run twice). A row whose start never happened or was never confirmed (the
// gateway died in between, Temporal was unreachable, the answer was lost) is
// started by the worker's reconciler, which calls the same function.
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Db } from '../../platform/db/prisma.ts';
import type { Logger } from '../../platform/log.ts';
import { CrawlIdAttribute, CrawlStatusAttribute, TeamIdAttribute } from '../../platform/temporal/search-attribute-keys.ts';
import { crawlWorkflowId, type CrawlWorkflowInput } from './definitions.ts';
import type { crawlWorkflow } from './workflow.ts';
import { crawlOptions } from './crawl-options.ts';

export interface CrawlToStart {
  id: string;
  teamId: string;
  url: string;
  limit: number;
}

export async function startCrawlWorkflow(db: Db, temporal: Client, taskQueue: string, crawl: CrawlToStart): Promise<void> {
  const input: CrawlWorkflowInput = { crawlId: crawl.id };
  try {
    await temporal.workflow.start<typeof crawlWorkflow>('crawlWorkflow', {
      workflowId: crawlWorkflowId(crawl.id),
      taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: [
        { key: TeamIdAttribute, value: crawl.teamId },
        { key: CrawlIdAttribute, value: crawl.id },
        { key: CrawlStatusAttribute, value: 'scraping' },
      ],
      staticSummary: `Crawl of ${crawl.url} (limit ${crawl.limit})`,
    });
  } catch (err) {
    // The crawl already ran to its end: it was started before, which is all this asks.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  await db.crawl.updateMany({ where: { id: crawl.id, workflowStartedAt: null }, data: { workflowStartedAt: new Date() } });
}

/** A row younger than this may still be being started by its gateway. */
export const START_GRACE_MS = 5_000;

/**
 * Starts the workflows of crawl rows that have none confirmed. Idempotent and safe to run in
 * every worker at once. Returns how many were (re)started.
 */
export async function reconcileCrawlStarts(deps: { db: Db; temporal: Client; taskQueue: string; log: Logger }): Promise<number> {
  const pending = await deps.db.crawl.findMany({
    where: { status: 'scraping', workflowStartedAt: null, createdAt: { lt: new Date(Date.now() - START_GRACE_MS) } },
    select: { id: true, teamId: true, url: true, options: true },
    orderBy: { createdAt: 'asc' },
    take: 100,
  });
  let started = 0;
  for (const crawl of pending) {
    try {
      await startCrawlWorkflow(deps.db, deps.temporal, deps.taskQueue, { ...crawl, limit: crawlOptions(crawl).limit });
      started++;
      deps.log.info('crawl workflow started by the reconciler', { crawlId: crawl.id });
    } catch (err) {
      deps.log.warn('crawl workflow could not be started; will retry', { crawlId: crawl.id, error: (err as Error).message });
    }
  }
  return started;
}
