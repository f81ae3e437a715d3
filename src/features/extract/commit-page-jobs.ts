// The engine jobs that fetch an extract's pages, committed as any job is (fair share,
// credits, limits); their ids derive from the extract's, so a retry commits none twice.
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import { DomainError } from '../../platform/domain-error.ts';
import { storableText } from '../../platform/db/storable.ts';
import { insertJob } from '../../jobs/commit-job.ts';
import { jobWorkflowId } from '../../jobs/definitions.ts';
import { seedRow } from '../../jobs/job-options.ts';
import type { NewFrontierUrl } from '../../jobs/frontier/frontier.ts';
import type { CommittedExtractJobs, ExtractJobRun } from './definitions.ts';
import type { ExtractRequest } from './extract-request.ts';
import { plannedJobs } from './extract-jobs.ts';
import type { ExtractFeatureSettings } from './config.ts';

/**
 * Commits the jobs; the workflow starts them as its children. URLs that cannot be seeded go in the
 * extract's warning; a job the team cannot have stops the commits there and is the extract's error.
 */
export async function commitPageJobs(
  { db, config }: Pick<ActivityDeps<ExtractFeatureSettings>, 'db' | 'config'>,
  extractId: string,
): Promise<CommittedExtractJobs> {
  const extract = await db.extractJob.findUnique({ where: { id: extractId }, include: { team: true } });
  if (!extract) return { runs: [] };
  const req = extract.options as unknown as ExtractRequest;
  const runs: ExtractJobRun[] = [];
  const problems: string[] = [];
  let refused: string | undefined;
  for (const job of plannedJobs(extract.id, req, config.extract.maxPages)) {
    const seed = job.urls?.flatMap((url): NewFrontierUrl[] => {
      const seeded = seedRow(url, config);
      if ('problem' in seeded) problems.push(seeded.problem);
      return 'row' in seeded ? [seeded.row] : [];
    });
    if (seed?.length === 0) continue;
    let workflowId: string | null;
    try {
      ({ workflowId } = await insertJob(
        { db, config },
        extract.team,
        extract.apiKeyId,
        { id: job.id, kind: job.kind, url: job.url, options: job.options, seed },
        true,
      ));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      refused = err.message;
      break;
    }
    runs.push({ jobId: job.id, workflowId: jobWorkflowId({ id: job.id, workflowId }), kind: job.kind, teamId: extract.teamId, url: job.url });
  }
  await db.extractJob.update({
    where: { id: extract.id },
    data: { jobIds: runs.map((r) => r.jobId), ...(problems.length > 0 && { warning: storableText(problems.join(' ')) }) },
  });
  return { runs, ...(refused !== undefined && { refused }) };
}
