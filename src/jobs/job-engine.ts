// The job engine as the worker runs it: the activities every job kind shares
// (crawl, batch scrape, single scrape), by resource class, the reconciler that
// starts the workflows of job rows whose gateway died before it could, and the one
// that fails at once the attempts of worker processes that died. Endpoint
// features only commit jobs (commit-job.ts) and read them back.
import { everyInterval, type Feature } from '../platform/feature.ts';
import type { JobSettings } from './config.ts';
import { forgetAbandonedBrowserDemand } from './batch/browser-demand.ts';
import { reconcileJobStarts } from './job-workflow-start.ts';
import { forgetLongDeadProcesses, WORKER_HEARTBEAT_MS, WORKER_PROCESS_ID, workerLiveness } from '../platform/process/worker-liveness.ts';
import { failAbandonedAttempts, forgetOldAttemptRecords } from '../platform/temporal/abandoned-attempts.ts';
import { releaseHostTurnsByPrefix } from './politeness/host-leases.ts';

/** How often each worker looks for job rows without a started workflow. */
const RECONCILE_INTERVAL_MS = 5_000;
/** How often each worker looks for attempts of dead worker processes (recovery takes WORKER_DEAD_AFTER_MS plus at most this). */
const ABANDONED_ATTEMPTS_INTERVAL_MS = 2_000;

export const jobEngine: Feature<JobSettings> = {
  name: 'jobs',
  async activities(deps) {
    const { createJobActivities } = await import('./activities.ts');
    const { crawlSettings, openSingleScrape, queueForBrowser, planCrawl, finishCrawl, scrapeBatch, recordPause, adjustJob } = createJobActivities(deps);
    return {
      control: { crawlSettings, openSingleScrape, queueForBrowser, planCrawl, finishCrawl, recordPause, adjustJob },
      browser: { scrapeBatch },
    };
  },
  workerServices: (deps) => {
    const liveness = workerLiveness(deps);
    const { deadAfterMs } = deps.config.worker;
    return [
      everyInterval('job start reconciler', RECONCILE_INTERVAL_MS, deps, async () => {
        await reconcileJobStarts(deps);
        await forgetAbandonedBrowserDemand(deps.db);
      }),
      liveness,
      everyInterval('abandoned attempt reconciler', ABANDONED_ATTEMPTS_INTERVAL_MS, deps, async () => {
        // A process that could not reach the database lately cannot tell a dead worker from one that could not beat either.
        if (!liveness.steadyFor(deadAfterMs + WORKER_HEARTBEAT_MS)) return;
        await failAbandonedAttempts({ ...deps, releaseHeld: (prefix) => releaseHostTurnsByPrefix(deps.db, prefix) }, { self: WORKER_PROCESS_ID, deadAfterMs });
        await forgetOldAttemptRecords(deps.db);
        await forgetLongDeadProcesses(deps.db);
      }),
    ];
  },
};
