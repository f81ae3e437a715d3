// Names and payloads of the job workflow (every job kind: crawl, batch scrape, scrape), shared by
// the gateway, the worker and workflow code. Workflow code imports this file, so it may import
// nothing with side effects.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';

/**
 * The workflow id a new job gets, naming its kind: `crawl-<id>`, `batch-scrape-<id>`,
 * `scrape-<id>`. Operators find a job in the Temporal UI by it. Stored on the job's row
 * (`workflow_id`) when the row is created; read it back with jobWorkflowId.
 */
export function newJobWorkflowId(kind: string, jobId: string): string {
  return `${kind.replaceAll('_', '-')}-${jobId}`;
}

/**
 * The workflow id of a job's row: the one stored with it, or `crawl-<id>` for a row created
 * before the column existed (every kind's workflow was `crawl-<id>` then).
 */
export function jobWorkflowId(job: { id: string; workflowId: string | null }): string {
  return job.workflowId ?? `crawl-${job.id}`;
}

export type JobRunStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';

/**
 * How a crawl runs on this deployment, decided by the worker (local activity `crawlSettings`)
 * from its own configuration and the crawl's options, once per workflow run.
 */
export interface JobRunSettings {
  /** Batches scraped at the same time by this crawl. */
  parallelBatches: number;
  /** Most URLs one batch claims. */
  batchSize: number;
  /** Pages open at once in one batch's browser. */
  pagesPerBatch: number;
  /** How soon a batch on a dead worker is retried. */
  heartbeatTimeoutMs: number;
  /** Continue as new once a run's history passes this many events. */
  historyEventBudget: number;
  /** The crawl's `delay`: a durable timer between pages (batches of one page). */
  delayMs?: number;
  /** Task queue of browser work (scrape batches). */
  browserTaskQueue: string;
  /** The crawl has a webhook: the first run starts its delivery workflow. */
  hasWebhook: boolean;
  /** The crawl's team: its batches share the browser queue fairly with other teams. */
  teamId: string;
  /** Host of the crawl's or scrape's URL (none for a batch scrape), for the summaries of its activities in the Temporal UI. */
  site?: string;
  /** The job reads robots.txt and sitemaps when planned (a crawl; not a batch or a single scrape). */
  discoversLinks?: boolean;
  /** Least time between two upserts of the PagesCrawled and PagesQueued search attributes. */
  progressIntervalMs?: number;
  /** A single scrape (POST /v2/scrape), answered while its caller waits: its plan runs as a local activity. */
  singleScrape?: boolean;
  /** A job paused longer than this is cancelled (CRAWL_PAUSE_MAX_HOURS). */
  pauseMaxMs?: number;
}

export interface JobWorkflowInput {
  crawlId: string;
  /**
   * Set by the starter of a single scrape (kind scrape): its run opens with one local activity
   * (settings, plan, browser demand) instead of reading its settings first to learn its kind.
   */
  singleScrape?: true;
  /** Set by continue-as-new: planning already happened in an earlier run. */
  planned?: boolean;
  /** Pages handled by earlier runs, for progress reporting. */
  pagesHandled?: number;
  /** When the previous run's last batch ended, so `delay` holds across continue-as-new. */
  lastBatchEndedAt?: number;
  /** The job's counts as the previous run last learnt them, so progress never reads 0 after continue-as-new. */
  counts?: JobCounts;
  /** The previous run was paused (a pause outlives continue-as-new). */
  paused?: PauseState;
  // Runs started before the worker decided these itself carried them in their input; their
  // histories replay with them (see docs/patches.md).
  parallelBatches?: number;
  batchSize?: number;
  pagesPerBatch?: number;
  heartbeatTimeoutMs?: number;
  historyEventBudget?: number;
  delayMs?: number;
  webhookTaskQueue?: string;
}

export interface JobWorkflowResult {
  crawlId: string;
  status: JobRunStatus;
  pagesHandled: number;
}

/**
 * URLs were appended to a running batch scrape (appendToId): they are in its frontier already, the
 * signal only wakes the workflow to launch batches for them. A lost signal costs speed, not URLs:
 * the workflow's finish finds them queued and goes on.
 */
export const urlsAddedSignal = defineSignal<[number]>('urlsAdded');

/** A host of the job's pages throttled it (429, 503): no request starts there before `until` (epoch ms). */
export interface HostThrottle {
  host: string;
  until: number;
}

/**
 * Sent by a batch whose pages wait for a throttled host (jobs/politeness/), at most once a second
 * per host: the job's current details say so until the pause has passed.
 */
export const hostThrottledSignal = defineSignal<[HostThrottle]>('hostThrottled');

/**
 * A job's counts as GET /v2/crawl/{id} gives them (`completed`, `total`, `creditsUsed`), plus its
 * failed pages and the URLs still queued. Read by activities (job-status.ts) and handed to the workflow.
 */
export interface JobCounts {
  /** Pages stored successfully. */
  completed: number;
  /** Pages attempted or waiting (failed pages are in neither number, as upstream). */
  total: number;
  failed: number;
  /** URLs waiting in the frontier. */
  queued: number;
  creditsUsed: number;
}

/** What the crawl workflow is doing: planning, scraping, waiting out `delay`, finishing, cancelling, or done. */
export type JobPhase = 'planning' | 'scraping' | 'delay' | 'paused' | 'finishing' | 'cancelling' | 'failing' | 'ended';

/** Since when (epoch ms, workflow time) and by whom a job is paused. */
export interface PauseState {
  sinceMs: number;
  by: string;
}

export interface JobProgress extends JobCounts {
  /** The job's status as GET /v2/crawl/{id} gives it. */
  status: JobRunStatus;
  phase: JobPhase;
  /**
   * Batch activities scheduled on the browser queue: running, or waiting for a worker's browser
   * (the workflow cannot tell which; the Temporal UI's pending activities can).
   */
  batchesInFlight: number;
  /** Batches this workflow run started. */
  batchesStarted: number;
  /** While `phase` is `delay`: how long this wait between pages is. */
  delayMs?: number;
  /** The team ran out of credits: the crawl stops after the batches in flight. */
  outOfCredits: boolean;
  /** Set while the job is paused (its batches in flight may still be finishing their pages). */
  paused?: PauseState;
  /** The latest pause of a host the job's pages wait for, with how many pauses its batches reported. */
  throttled?: HostThrottle & { pauses: number };
}

/**
 * The crawl's counts as of its last activity result, and what it is doing now
 * (`temporal workflow query --name progress -w crawl-<id>`).
 */
export const progressQuery = defineQuery<JobProgress>('progress');

/**
 * Answers once the job's first batch has ended or the run ended: true when its pages (a single
 * scrape's one page, stored or failed) are stored, false when the batch failed for good (the run's
 * end then tells). POST /v2/scrape starts its workflow with this update (update-with-start), so the
 * caller gets its page without waiting for the job's finish, and without polling.
 */
export const scrapeSettledUpdate = defineUpdate<boolean>('scrapeSettled');

/**
 * The input of the `pause` and `resume` signals. A signal handler learns nothing of its sender, so
 * who sent it comes with it: our CLI sends `{ "by": "<user>@<host>" }`, an operator may type it in
 * the Temporal UI's signal dialog or `temporal workflow signal --input`; without it, "unknown".
 */
export interface PauseSignalInput {
  by?: string;
}

/**
 * Pauses a running crawl or batch scrape: no batch is launched, the batches in flight finish the
 * pages they have open and end (handing the rest back to the frontier), and the job then holds no
 * team slot, browser or batch until `resume`.
 */
export const pauseSignal = defineSignal<[PauseSignalInput?]>('pause');
export const resumeSignal = defineSignal<[PauseSignalInput?]>('resume');

/** A running batch's report of the job's counts (read when its pages changed them), at most every CRAWL_PROGRESS_INTERVAL_MS. */
export interface BatchProgress {
  batchKey: string;
  counts: JobCounts;
}

export const batchProgressSignal = defineSignal<[BatchProgress]>('batchProgress');

/** What a running batch asks its workflow at each report: whether to stop now (paused, or an adjustment it does not run under). */
export interface BatchControl {
  stop: boolean;
  why?: 'paused' | 'adjusted';
  /** The keys of the batches the run has launched and not seen end (absent from runs of older code). */
  running?: string[];
}

/** Asked by a running batch with its key (no history event: a query). */
export const batchControlQuery = defineQuery<BatchControl, [string]>('batchControl');

/** What the `adjust` update may change on a running crawl or batch scrape (delay 0 removes the delay). */
export interface JobAdjustment {
  limit?: number;
  maxConcurrency?: number;
  delay?: number;
  maxDiscoveryDepth?: number;
}

export const ADJUSTABLE_FIELDS = ['limit', 'maxConcurrency', 'delay', 'maxDiscoveryDepth'] as const;

/** The settings in force after an adjustment (absent: not set on the job). */
export interface AdjustedSettings extends JobAdjustment {
  /** Pages open at once, as the job now runs (maxConcurrency within the team's limit, 1 under a delay). */
  pagesAtOnce: number;
}

/**
 * Changes a running crawl's or batch scrape's limit, maxConcurrency, delay or maxDiscoveryDepth;
 * answers the settings now in force, or fails with why not (its validator refuses what it can tell
 * from the workflow alone, without a history event; the rest is checked against the database).
 */
export const adjustUpdate = defineUpdate<AdjustedSettings, [JobAdjustment]>('adjust');
