// A check's jobs: one job of the engine per scrape and crawl target, committed as any
// job is (fair share, credits and limits apply), with an id derived from the check and
// the target so a retry commits none twice.
import { insertJob } from '../../jobs/commit-job.ts';
import { jobWorkflowId } from '../../jobs/definitions.ts';
import { seedRow } from '../../jobs/job-options.ts';
import type { NewFrontierUrl } from '../../jobs/frontier/frontier.ts';
import { DomainError } from '../../platform/domain-error.ts';
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import type { CommittedJobs, TargetRun } from './definitions.ts';
import { targetJob, type StoredTarget } from './target-jobs.ts';
import { checkJobId } from './check-job-ids.ts';
import { committedTargetResults } from './check-results.ts';
import type { MonitorsFeatureSettings } from './config.ts';

/**
 * Commits the check's jobs; the workflow starts them. A job the team cannot have (no credits, too
 * many crawls) stops the commits there and is the check's error.
 */
export async function commitCheckJobs({ db, config }: Pick<ActivityDeps<MonitorsFeatureSettings>, 'db' | 'config'>, checkId: string): Promise<CommittedJobs> {
  const check = await db.monitorCheck.findUnique({ where: { id: checkId }, include: { monitor: { include: { team: true } } } });
  // The monitor was deleted with its checks: nothing to run.
  if (!check) return { runs: [] };
  const { monitor } = check;
  const runs: TargetRun[] = [];
  let refused: string | undefined;
  for (const target of monitor.targets as StoredTarget[]) {
    const job = targetJob(target, monitor.id);
    if (!job) {
      runs.push({ targetId: target.id, type: target.type });
      continue;
    }
    const jobId = checkJobId(check.id, target.id);
    const seed = job.urls?.flatMap((url): NewFrontierUrl[] => {
      const seeded = seedRow(url, config);
      return 'row' in seeded ? [seeded.row] : [];
    });
    let workflowId: string | null;
    try {
      ({ workflowId } = await insertJob(
        { db, config },
        monitor.team,
        monitor.apiKeyId,
        { id: jobId, kind: job.kind, url: job.url, options: job.options, seed },
        true,
      ));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      refused = err.message;
      break;
    }
    runs.push({ targetId: target.id, type: target.type, jobId, workflowId: jobWorkflowId({ id: jobId, workflowId }), teamId: monitor.teamId, url: job.url });
  }
  await db.monitorCheck.update({ where: { id: check.id }, data: { targetResults: committedTargetResults(runs) as object[], updatedAt: new Date() } });
  return { runs, ...(refused !== undefined && { refused }) };
}
