// Records a job's end (the finishCrawl activity). A completion is refused (finished: false) while
// the frontier still holds work, so the workflow goes on. The workflow calls this with no batch in
// flight, so claimed rows are orphans (of a reset or terminated run) and go back to the queue. A
// crawl out of credits ends with its queue skipped. A finished crawl reports its successful pages
// (`completed`, counted in the transaction that ends it), the number its final webhook event and
// GET /v2/crawl/{id} give, and its final counts.
import type { ActivityDeps } from '../platform/temporal/activity-deps.ts';
import type { Tx } from '../platform/db/prisma.ts';
import { storableText } from '../platform/db/storable.ts';
import { forgetBrowserGroup } from '../platform/browser/browser-share.ts';
import type { JobRunStatus, JobCounts } from './definitions.ts';
import type { JobSettings } from './config.ts';
import { frontierCounts, releaseClaims, skipQueued } from './frontier/frontier.ts';
import { FrontierState } from './frontier/frontier-state.ts';
import { jobCounts } from './job-status.ts';
import { jobKind, type JobKind } from './job-kind.ts';
import { notifyJobEnded } from './job-events.ts';
import { countJobEnded } from './job-metrics.ts';
import { crawlWebhook, writeCrawlEvent } from './webhooks/crawl-events.ts';

export interface FinishCrawlInput {
  crawlId: string;
  status: Exclude<JobRunStatus, 'scraping'>;
  error?: string;
  outOfCredits?: boolean;
}

export interface FinishCrawlResult {
  finished: boolean;
  queued: number;
  completed?: number;
  counts?: JobCounts;
}

export const ROBOTS_WARNING =
  'One or more pages were unable to be crawled because the robots.txt file prevented this. They are listed by GET /v2/crawl/{id}/errors.';
export const CREDITS_WARNING = 'The crawl stopped early because the team ran out of credits; the pages still queued were not scraped.';

/** The warning an ended job carries: running out of credits says more than pages robots.txt kept out. */
export function finishWarning(outOfCredits: boolean, robotsBlocked: number): string | null {
  return outOfCredits ? CREDITS_WARNING : robotsBlocked > 0 ? ROBOTS_WARNING : null;
}

/** Whether the finish is a completion that must first find the frontier empty. */
const completes = (input: FinishCrawlInput) => input.status === 'completed' && !input.outOfCredits;

type FinishDeps = ActivityDeps<Pick<JobSettings, 'crawl'>>;

/** What the ended job's row is given. */
interface EndingRow {
  warning: string | null;
  completedAt: Date;
  expiresAt: Date;
}

interface Ending {
  /** URLs appended (appendToId) since the frontier was found empty: the job goes on. */
  appended: number;
  completed?: number;
  /** Set only for the attempt that ended the job. */
  ended?: { kind: JobKind; status: FinishCrawlInput['status'] };
}

export async function finishCrawl({ db, config, log }: FinishDeps, input: FinishCrawlInput): Promise<FinishCrawlResult> {
  const { crawlId } = input;
  if (completes(input)) {
    const counts = await frontierCounts(db, crawlId);
    if (counts.queued + counts.claimed > 0) {
      const released = await releaseClaims(db, crawlId);
      return { finished: false, queued: counts.queued + released };
    }
  }
  if (input.outOfCredits) await skipQueued(db, crawlId);
  const blocked = await db.crawlRobotsBlocked.count({ where: { crawlId } });
  const warning = finishWarning(input.outOfCredits === true, blocked);
  const now = new Date();
  const endRow = { warning, completedAt: now, expiresAt: new Date(now.getTime() + config.crawl.retentionHours * 3_600_000) };
  const end = await db.$transaction((tx) => endJob(tx, input, endRow));
  if (end.appended > 0) return { finished: false, queued: end.appended };
  if (end.ended) countJobEnded(end.ended.kind, end.ended.status);
  await forgetBrowserGroup(db, crawlId);
  log.info('crawl finished', { crawlId, status: input.status });
  return { finished: true, queued: 0, completed: end.completed, counts: await jobCounts(db, crawlId) };
}

/** Ends the job's row, writes its final webhook event and tells its watchers, in the caller's transaction. */
async function endJob(tx: Tx, input: FinishCrawlInput, { warning, completedAt, expiresAt }: EndingRow): Promise<Ending> {
  const { crawlId } = input;
  // URLs appended to a batch (appendToId) are added under this row lock while the batch
  // is scraping: either they are in the frontier now, or the batch is over when they come.
  await tx.$queryRaw`SELECT id FROM job WHERE id = ${crawlId}::uuid FOR UPDATE`;
  if (completes(input)) {
    const queued = await tx.jobUrl.count({ where: { jobId: crawlId, state: FrontierState.queued } });
    if (queued > 0) return { appended: queued };
  }
  const ending = await tx.job.updateMany({
    where: { id: crawlId, status: 'scraping' },
    // A batch's last error may quote what a page or the database said about it.
    data: { status: input.status, error: input.error === undefined ? null : storableText(input.error), warning, completedAt, expiresAt },
  });
  // A crawl cancelled through the API already says so; it still gets its expiry.
  const cancelled = await tx.job.updateMany({ where: { id: crawlId, expiresAt: null }, data: { expiresAt } });
  const final = await tx.job.findUniqueOrThrow({ where: { id: crawlId }, select: { status: true, error: true, options: true, kind: true } });
  const completed = await tx.jobPage.count({ where: { jobId: crawlId, success: true } });
  // A cancelled crawl ends with crawl.completed too; its status says how it ended.
  await writeCrawlEvent(tx, crawlId, crawlWebhook(final.options, jobKind(final)), {
    type: final.status === 'failed' ? 'crawl.failed' : 'crawl.completed',
    success: final.status !== 'failed',
    data: [{ status: final.status, completed }],
    ...(final.status === 'failed' && { error: final.error ?? 'The crawl failed' }),
  });
  await notifyJobEnded(tx, crawlId);
  // Only the attempt that gave the crawl its expiry ended it: a retried finish finds it set.
  const ended = ending.count + cancelled.count > 0 ? { kind: jobKind(final), status: final.status as FinishCrawlInput['status'] } : undefined;
  return { appended: 0, completed, ended };
}
