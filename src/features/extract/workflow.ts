// One extract: commit the engine jobs that fetch its pages, run them as child
// workflows (the crawl pipeline's own workflow, so fair share, slots, credits and
// limits apply as to any job), then one activity reads the pages and asks the
// model. After kill -9 of a worker it resumes where its history stops: jobs
// already committed or started are found again, never run twice. Cancelled from
// the Temporal UI, it cancels its jobs and its row ends `cancelled`.
import {
  CancellationScope,
  ChildWorkflowCancellationType,
  condition,
  isCancellation,
  ParentClosePolicy,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { PagesCrawledAttribute, PagesQueuedAttribute } from '../../platform/temporal/search-attribute-keys.ts';
import { startJobChild } from '../../jobs/job-workflow-options.ts';
import { JOB_PARENT_RETRY, WEBHOOK_SEND_RETRY } from '../../platform/temporal/retry-policies.ts';
import type { ExtractActivities } from './activities.ts';
import type { createExtractNotificationActivities } from './notifications.ts';
import type { ExtractEvent, ExtractJobRun, ExtractProgress, ExtractWorkflowInput } from './definitions.ts';

function control(summary: string) {
  return proxyActivities<ExtractActivities>({ startToCloseTimeout: '2 minutes', retry: JOB_PARENT_RETRY, summary });
}

/** The model calls: as long as their chunks take, with heartbeats so a killed worker's attempt is retried within a minute. */
const { extractFromPages } = proxyActivities<ExtractActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: { ...JOB_PARENT_RETRY, maximumAttempts: 5 },
  summary: 'read the pages and ask the model',
});

/** A read of the jobs' counts: small and quick, so local (a marker in history, no activity task). */
const { extractProgress } = proxyLocalActivities<ExtractActivities>({ startToCloseTimeout: '30 seconds', retry: JOB_PARENT_RETRY });

/**
 * While the extract's jobs run, their summed counts as its current details and its PagesCrawled and
 * PagesQueued, every `intervalMs` (a local activity, an upsert and a timer: about 6 history events
 * each); each job's own workflow shows its progress as well.
 */
async function showProgress(runs: ExtractJobRun[], intervalMs: number, jobsDone: () => boolean): Promise<void> {
  while (!jobsDone()) {
    // A read that failed (the database away) leaves the last figures shown: the extract goes on.
    const p = await extractProgress({ runs }).catch((err: unknown) => {
      if (isCancellation(err)) throw err;
      return undefined;
    });
    if (p) showCounts(runs.length, p);
    await condition(jobsDone, intervalMs);
  }
}

function showCounts(jobs: number, p: ExtractProgress): void {
  setCurrentDetails(`fetching pages through ${jobs} ${jobs === 1 ? 'job' : 'jobs'}: ${p.completed} stored, ${p.queued} queued, ${p.failed} failed`);
  upsertSearchAttributes([
    { key: PagesCrawledAttribute, value: p.completed },
    { key: PagesQueuedAttribute, value: p.queued },
  ]);
}

export async function extractWorkflow(input: ExtractWorkflowInput): Promise<string> {
  const { extractId } = input;
  const opened = await control('open the extract').openExtract({ extractId });
  if (opened.done) return 'ended';
  const notify = async (event: ExtractEvent) => {
    if (!opened.webhook) return;
    const { notifyExtract } = proxyActivities<ReturnType<typeof createExtractNotificationActivities>>({
      taskQueue: opened.notifyTaskQueue,
      startToCloseTimeout: '1 minute',
      retry: WEBHOOK_SEND_RETRY,
      summary: `send extract.${event}`,
    });
    // A receiver that never answers loses its event; the extract has ended either way.
    await CancellationScope.nonCancellable(() => notifyExtract({ extractId, event })).catch(() => undefined);
  };
  await notify('started');
  let runs: ExtractJobRun[] = [];
  let status: string;
  try {
    const committed = await control('commit the jobs that fetch the pages').commitExtractJobs({ extractId });
    runs = committed.runs;
    // Jobs committed before one was refused run too: their rows are marked started, so nothing else would.
    const children = await Promise.all(runs.map(startJob));
    let jobsDone = false;
    // A failed job still stored what it could; its pages that failed are the extract's warning.
    const results = Promise.all(children.map((child) => child.result().catch((err: unknown) => rethrowCancellation(err)))).finally(() => {
      jobsDone = true;
    });
    // Histories recorded before extracts showed their progress have no marker and no reads.
    if (runs.length > 0 && patched('extract-progress')) await Promise.all([results, showProgress(runs, opened.progressIntervalMs ?? 10_000, () => jobsDone)]);
    else await results;
    if (committed.refused !== undefined) {
      await control('end the refused extract').endExtractEarly({ extractId, status: 'failed', error: committed.refused, runs });
      status = 'failed';
    } else {
      status = await extractFromPages({ extractId, runs });
    }
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() =>
        control('end the cancelled extract').endExtractEarly({ extractId, status: 'cancelled', error: 'The extract was cancelled.', runs }),
      );
      throw err;
    }
    // An activity out of retries (the database down for minutes): the row must not stay processing.
    await control('end the failed extract').endExtractEarly({ extractId, status: 'failed', error: `The extract failed: ${(err as Error).message}`, runs });
    status = 'failed';
  }
  await notify(status === 'completed' ? 'completed' : 'failed');
  return status;
}

/** A job cancelled because this extract was goes on as the extract's cancellation; one that failed or was cancelled alone does not. */
function rethrowCancellation(err: unknown): void {
  if (CancellationScope.current().consideredCancelled) throw err;
}

function startJob(run: ExtractJobRun) {
  // A run from a history recorded before workflow ids named the job's kind carries no workflowId: `crawl-<id>`.
  return startJobChild(
    { id: run.jobId, teamId: run.teamId, workflowId: run.workflowId ?? null },
    {
      // The jobs serve only this extract: cancelling it cancels them, and they end by their own rules otherwise.
      parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
      cancellationType: ChildWorkflowCancellationType.TRY_CANCEL,
      staticSummary: `${run.kind === 'crawl' ? 'Crawl' : 'Batch scrape'} of ${run.url} for an extract`,
    },
  );
}
