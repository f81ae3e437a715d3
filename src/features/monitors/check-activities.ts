// The activities of a monitor check (check-workflow.ts), wired to the functions that
// do them. Each is idempotent: the check row is found by its workflow id, the target
// jobs have ids derived from the check and the target, the page rows are unique per
// check, target and URL; so a retry after kill -9 of the worker redoes nothing that was done.
import type { FeatureActivityDeps } from '../../platform/feature.ts';
import type { CheckOutcome, CommittedJobs, OpenedCheck } from './definitions.ts';
import { endCheck } from './check-end.ts';
import { openCheck, type OpenCheckInput } from './open-check.ts';
import { commitCheckJobs } from './commit-check-jobs.ts';
import { searchCheckTargets } from './search-check-targets.ts';
import { finishCheck, type FinishCheckInput } from './finish-check.ts';
import { judgeCheck } from './judge.ts';
import type { MonitorsFeatureSettings } from './config.ts';

export function createMonitorCheckActivities({ db, config, log, tools }: FeatureActivityDeps<MonitorsFeatureSettings>) {
  const notifyTaskQueue = config.temporal.webhookTaskQueue;
  return {
    /** Finds or makes the check's row and marks it running; `done` when there is nothing to run. */
    async openMonitorCheck(input: OpenCheckInput): Promise<OpenedCheck> {
      return openCheck({ db }, notifyTaskQueue, input);
    },

    /** Commits a job of the engine per scrape and crawl target; the workflow starts them. */
    async commitMonitorCheckJobs(input: { checkId: string }): Promise<CommittedJobs> {
      return commitCheckJobs({ db, config }, input.checkId);
    },

    /** Runs the check's search targets through the search tool and records their results on the check. */
    async searchMonitorTargets(input: { checkId: string }): Promise<void> {
      return searchCheckTargets({ db, tools }, input.checkId);
    },

    /**
     * Compares the check's pages with the previous check's, stores them with the summary and ends
     * the check; with `endLater`, leaves the end (its status) to endMonitorCheck, after the judge.
     */
    async finishMonitorCheck(input: FinishCheckInput): Promise<CheckOutcome> {
      return finishCheck({ db, log }, input);
    },

    /** Gives the check its final status (the one finishMonitorCheck answered), unless it has one. */
    async endMonitorCheck(input: { checkId: string; status: string; refused?: string }): Promise<void> {
      await endCheck({ db, log }, input.checkId, input.status, input.refused);
    },

    /** With a goal, judgeEnabled and a model configured: whether each changed page changed meaningfully. */
    async judgeMonitorCheck(input: { checkId: string }): Promise<number> {
      return judgeCheck({ db, config, log }, input.checkId);
    },
  };
}

export type MonitorCheckActivities = ReturnType<typeof createMonitorCheckActivities>;
