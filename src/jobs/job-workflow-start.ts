// Starting a crawl's workflow, exactly once. The gateway commits the crawl row
// first and starts the workflow second; the workflow id is derived from the crawl
// id, so starting it again is harmless (an existing run is kept, a finished one is
// never run twice). A row whose start never happened or was never confirmed (the
// gateway died in between, Temporal was unreachable, the answer was lost) is
// started by the worker's reconciler, which calls the same function.
import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError, type Client, type WorkflowStartOptions } from '@temporalio/client';
import type { JobSettings } from './config.ts';
import type { Db } from '../platform/db/prisma.ts';
import type { Logger } from '../platform/log.ts';
import { scrapeSettledUpdate, type JobWorkflowInput } from './definitions.ts';
import { JOB_WORKFLOW_TYPE, jobWorkflowOptions, type JobToStart } from './job-workflow-options.ts';
import type { jobWorkflow } from './workflow.ts';
import { crawlOptions } from './crawl-options.ts';
import { jobKind, type JobKind } from './job-kind.ts';

export interface StartableJob extends JobToStart {
  url: string;
  limit: number;
  /** A crawl when absent. */
  kind?: JobKind;
}

/** What the Temporal UI shows for the job's workflow. */
function summary(crawl: StartableJob): string {
  if (crawl.kind === 'scrape') return `Scrape of ${crawl.url}`;
  if (crawl.kind === 'batch_scrape') return `Batch scrape starting with ${crawl.url}`;
  return `Crawl of ${crawl.url} (limit ${crawl.limit})`;
}

export interface StartDeps {
  db: Db;
  temporal: Client;
  config: Pick<JobSettings, 'crawl' | 'temporal'>;
}

/**
 * Starts the workflow and marks the row. The wait is bounded (CRAWL_START_TIMEOUT_MS): without
 * a deadline the client retries an unreachable Temporal for ~20 s and waits on a silent network
 * for minutes, and the caller of POST /v2/crawl, whose crawl is already committed, would wait as long.
 */
export async function startJobWorkflow(deps: StartDeps, crawl: StartableJob): Promise<void> {
  const timeoutMs = deps.config.crawl.startTimeoutMs;
  const deadline = Date.now() + timeoutMs;
  try {
    await deps.temporal.connection.withDeadline(deadline, () => deps.temporal.workflow.start<typeof jobWorkflow>(JOB_WORKFLOW_TYPE, startOptions(deps, crawl)));
  } catch (err) {
    // The crawl already ran to its end: it was started before, which is all this asks.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw startFailure(err as Error, Date.now() >= deadline, timeoutMs);
  }
  await markStarted(deps, crawl.id);
}

/**
 * Starts a single scrape's workflow together with its `scrapeSettled` update (update-with-start:
 * one call, answered once the scrape's page is stored or its batch failed), marks the row started
 * once the start is confirmed, and waits for the update within `deadline`, or for `stored` (the page's
 * notification) if that comes first: true when the page is stored (as a document or as its failure),
 * false when the run's end must tell. Throws what the client throws: the caller tells a timeout from
 * a refused or failed start (which the reconciler repairs).
 */
export async function startScrapeAndAwaitPage(
  deps: StartDeps,
  crawl: StartableJob,
  deadline: number,
  stored?: Promise<true>,
  step?: (name: string) => void,
): Promise<boolean> {
  const startWorkflowOperation = new WithStartWorkflowOperation<typeof jobWorkflow>(JOB_WORKFLOW_TYPE, startOptions(deps, crawl));
  const update = await deps.temporal.connection.withDeadline(deadline, () =>
    deps.temporal.workflow.startUpdateWithStart(scrapeSettledUpdate, { startWorkflowOperation, waitForStage: 'ACCEPTED' }),
  );
  // Accepted in the run's first workflow task: the start and that task are behind.
  step?.('accepted');
  const settled = deps.temporal.connection.withDeadline(deadline, () => update.result());
  // Once the page's notification answered, the update's own end no longer matters.
  if (stored) settled.catch(() => undefined);
  const [, answer] = await Promise.all([markStarted(deps, crawl.id), stored ? Promise.race([stored, settled]) : settled]);
  return answer;
}

function startOptions(deps: StartDeps, crawl: StartableJob) {
  const input: JobWorkflowInput = { crawlId: crawl.id, ...(crawl.kind === 'scrape' && { singleScrape: true }) };
  return {
    ...jobWorkflowOptions(crawl, { input }),
    // A single scrape's run goes where its page's batch goes, so the batch is dispatched eagerly
    // (src/platform/temporal/worker-registry.ts). The row keeps the deployment's own queue.
    taskQueue: crawl.kind === 'scrape' ? deps.config.temporal.scrapeTaskQueue : deps.config.temporal.taskQueue,
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    staticSummary: summary(crawl),
  } satisfies WorkflowStartOptions<typeof jobWorkflow>;
}

async function markStarted(deps: StartDeps, id: string): Promise<void> {
  await deps.db.job.updateMany({ where: { id, workflowStartedAt: null }, data: { workflowStartedAt: new Date() } });
}

/** The client's "Failed to start Workflow" says nothing; the log should say why. */
function startFailure(err: Error, timedOut: boolean, timeoutMs: number): Error {
  if (timedOut) return new Error(`Temporal did not confirm the start within ${timeoutMs} ms (CRAWL_START_TIMEOUT_MS)`, { cause: err });
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return new Error(`${err.message}${cause}`, { cause: err });
}

/** A row younger than this may still be being started by its gateway. */
export const START_GRACE_MS = 5_000;

/**
 * Starts the workflows of crawl rows that have none confirmed. Idempotent and safe to run in
 * every worker at once. Returns how many were (re)started. A crawl cancelled before its workflow
 * started is started too: its run plans nothing and only ends it (expiry, crawl.completed event).
 */
export async function reconcileJobStarts(deps: StartDeps & { log: Logger }): Promise<number> {
  const pending = await deps.db.job.findMany({
    where: {
      status: { in: ['scraping', 'cancelled'] },
      workflowStartedAt: null,
      // Deployments (and test harnesses) sharing a database each reconcile their own crawls.
      taskQueue: deps.config.temporal.taskQueue,
      createdAt: { lt: new Date(Date.now() - START_GRACE_MS) },
    },
    select: { id: true, teamId: true, url: true, options: true, kind: true, workflowId: true },
    orderBy: { createdAt: 'asc' },
    take: 100,
  });
  // A workflow that ran to its end before any reconciler saw its row (its gateway died before it
  // heard back) was started: the end proves it, and Temporal would only refuse a new start. A scrape
  // the gateway answered from the page cache had no workflow, and its row keeps saying so.
  await deps.db.job.updateMany({
    where: { status: { in: ['completed', 'failed'] }, workflowStartedAt: null, answeredFromCacheAt: null, taskQueue: deps.config.temporal.taskQueue },
    data: { workflowStartedAt: new Date() },
  });
  let started = 0;
  for (const crawl of pending) {
    try {
      await startJobWorkflow(deps, { ...crawl, limit: crawlOptions(crawl).limit, kind: jobKind(crawl) });
      started++;
      deps.log.info('crawl workflow started by the reconciler', { crawlId: crawl.id });
    } catch (err) {
      deps.log.warn('crawl workflow could not be started; will retry', { crawlId: crawl.id, error: (err as Error).message });
    }
  }
  return started;
}
