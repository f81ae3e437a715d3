// The activities of an extract (workflow.ts), wired to the functions that do them.
// Each is idempotent: the engine jobs have ids derived from the extract's, the row
// ends only while it is processing, and the model's charge is one ledger row keyed
// by the extract; so a retry after kill -9 of the worker fetches no page twice and
// bills nothing twice.
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import type { CommittedExtractJobs, ExtractJobRun, ExtractProgress, OpenedExtract } from './definitions.ts';
import { jobCounts } from '../../jobs/job-status.ts';
import { endExtractUnanswered, openExtractRun } from './extract-row.ts';
import { commitPageJobs } from './commit-page-jobs.ts';
import { answerFromPages } from './answer-from-pages.ts';
import type { ExtractFeatureSettings } from './config.ts';

export function createExtractActivities({ db, config, log }: ActivityDeps<ExtractFeatureSettings>) {
  const notifyTaskQueue = config.temporal.webhookTaskQueue;
  return {
    async openExtract(input: { extractId: string }): Promise<OpenedExtract> {
      return { ...(await openExtractRun({ db }, notifyTaskQueue, input.extractId)), progressIntervalMs: config.crawl.progressIntervalMs };
    },

    /** The stored counts of the extract's jobs, summed: what its workflow shows while they run. */
    async extractProgress(input: { runs: ExtractJobRun[] }): Promise<ExtractProgress> {
      const counts = await Promise.all(input.runs.map((run) => jobCounts(db, run.jobId)));
      const sum = (key: keyof ExtractProgress) => counts.reduce((n, c) => n + c[key], 0);
      return { completed: sum('completed'), queued: sum('queued'), failed: sum('failed') };
    },

    /** Commits the engine jobs that fetch the pages; the workflow starts them as its children. */
    async commitExtractJobs(input: { extractId: string }): Promise<CommittedExtractJobs> {
      return commitPageJobs({ db, config }, input.extractId);
    },

    /** Reads the pages the jobs stored, asks the model, stores the answer and charges for it; returns the status it ended with. */
    async extractFromPages(input: { extractId: string; runs: ExtractJobRun[] }): Promise<string> {
      return answerFromPages({ db, config, log }, input);
    },

    /** Ends an extract that did not get to its answer: its jobs were refused, or the workflow was cancelled. */
    async endExtractEarly(input: { extractId: string; status: 'failed' | 'cancelled'; error: string; runs: ExtractJobRun[] }): Promise<void> {
      await endExtractUnanswered({ db, config }, input);
    },
  };
}

export type ExtractActivities = ReturnType<typeof createExtractActivities>;
