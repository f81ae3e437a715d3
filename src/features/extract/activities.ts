// The activities of an extract (workflow.ts), wired to the functions that do them.
// Each is idempotent: the engine jobs have ids derived from the extract's, the row
// ends only while it is processing, and the model's charge is one ledger row keyed
// by the extract; so a retry after kill -9 of the worker fetches no page twice and
// bills nothing twice.
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import type { CommittedExtractJobs, ExtractJobRun, OpenedExtract } from './definitions.ts';
import { endExtractUnanswered, openExtractRun } from './extract-row.ts';
import { commitPageJobs } from './commit-page-jobs.ts';
import { answerFromPages } from './answer-from-pages.ts';
import type { ExtractFeatureSettings } from './config.ts';

export function createExtractActivities({ db, config, log }: ActivityDeps<ExtractFeatureSettings>) {
  const notifyTaskQueue = config.temporal.webhookTaskQueue;
  return {
    async openExtract(input: { extractId: string }): Promise<OpenedExtract> {
      return openExtractRun({ db }, notifyTaskQueue, input.extractId);
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
