// What an operator's pause and adjust change in the database: local activities of
// the job's workflow (workflow.ts), run when it takes a `pause`/`resume` signal or
// an `adjust` update. The workflow decides; these record, and check what only the
// database knows (pages stored, the team's limit).
import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../platform/db/prisma.ts';
import type { JobSettings } from './config.ts';
import { crawlOptions } from './crawl-options.ts';
import { MAX_CRAWL_LIMIT } from './crawl-request.ts';
import type { AdjustedSettings, JobRunSettings, JobAdjustment, PauseState } from './definitions.ts';
import { FrontierState } from './frontier/frontier-state.ts';
import { lockFrontier, shrinkFrontierSize } from './frontier/frontier.ts';
import { runSettings } from './run-settings.ts';

interface ControlDeps {
  db: Db;
  config: Pick<JobSettings, 'crawl' | 'temporal'>;
}

/** Puts the pause (or its end: null) on the job's row, where GET /v2/crawl/{id} reads it. */
export async function recordPause({ db }: ControlDeps, input: { crawlId: string; paused: PauseState | null }): Promise<void> {
  const { crawlId, paused } = input;
  await db.job.updateMany({
    where: { id: crawlId },
    data: paused ? { pausedAt: new Date(paused.sinceMs), pausedBy: paused.by } : { pausedAt: null, pausedBy: null },
  });
}

export interface AppliedAdjustment {
  /** The run's settings under the new options. */
  settings: JobRunSettings;
  /** Batches read the limit, maxDiscoveryDepth and delay when they start: those running are told to stop. */
  optionsChanged: boolean;
  inForce: AdjustedSettings;
}

/** A refusal the update answers: not retried, its message is the operator's answer. */
function refuse(message: string): never {
  throw ApplicationFailure.nonRetryable(message, 'AdjustmentRefused');
}

/**
 * Writes the adjustment into the job's options (what its batches and GET /v2/crawl/{id} read) and
 * answers the run's settings under them. A lower limit drops the newest queued URLs beyond it; it
 * may not go below the pages already scraped or being scraped.
 */
export async function adjustJob(deps: ControlDeps, input: { crawlId: string; adjustment: JobAdjustment }): Promise<AppliedAdjustment> {
  const { crawlId, adjustment: a } = input;
  return deps.db.$transaction(async (tx) => {
    // The frontier's admissions take this lock too: no URL is admitted under the old limit meanwhile.
    await lockFrontier(tx, crawlId);
    const crawl = await tx.job.findUnique({ where: { id: crawlId }, include: { team: true } });
    if (!crawl) refuse(`job ${crawlId} does not exist`);
    if (crawl.status !== 'scraping') refuse(`the job is ${crawl.status}: nothing left to adjust`);
    const limit = crawl.team.concurrencyLimit;
    if (a.maxConcurrency !== undefined && a.maxConcurrency > limit)
      refuse(`maxConcurrency ${a.maxConcurrency} is above the team's concurrency limit of ${limit} pages at once`);
    if (a.limit !== undefined && a.limit > MAX_CRAWL_LIMIT) refuse(`limit must not exceed ${MAX_CRAWL_LIMIT}`);
    if (a.limit !== undefined) {
      const rows = await tx.jobUrl.groupBy({ by: ['state'], where: { jobId: crawlId, state: { not: FrontierState.redirect } }, _count: { _all: true } });
      const count = (state: string) => rows.find((r) => r.state === state)?._count._all ?? 0;
      const scraped = count(FrontierState.done) + count(FrontierState.claimed);
      if (a.limit < scraped) refuse(`limit ${a.limit} is below the ${scraped} pages already scraped or being scraped`);
      // Admitted rows count against the limit (frontier.ts): the newest queued ones beyond it go.
      const excess = rows.reduce((n, r) => n + r._count._all, 0) - a.limit;
      if (excess > 0) {
        const dropped = await tx.$executeRaw`
          DELETE FROM job_url WHERE id IN (
            SELECT id FROM job_url WHERE job_id = ${crawlId}::uuid AND state = ${FrontierState.queued} ORDER BY id DESC LIMIT ${excess}
          )`;
        await shrinkFrontierSize(tx, crawlId, dropped);
        // job_queue_tally's trigger does not follow deletes (its migration says why).
        await tx.$executeRaw`UPDATE job_queue_tally SET queued = queued - ${dropped} WHERE job_id = ${crawlId}::uuid`;
      }
    }
    const before = crawlOptions(crawl);
    const options = { ...before, ...a };
    // delay 0: no delay at all (the API's delay must be above 0).
    if (a.delay === 0) delete options.delay;
    await tx.job.update({ where: { id: crawlId }, data: { options } });
    const settings = runSettings(deps.config, { crawl, options });
    return {
      settings,
      optionsChanged: options.limit !== before.limit || options.maxDiscoveryDepth !== before.maxDiscoveryDepth || options.delay !== before.delay,
      inForce: {
        limit: options.limit,
        maxConcurrency: options.maxConcurrency,
        delay: options.delay,
        maxDiscoveryDepth: options.maxDiscoveryDepth,
        pagesAtOnce: settings.parallelBatches * settings.pagesPerBatch,
      },
    };
  });
}
