// An extract's row as its activities open and end it: it ends once, while it is
// processing, and only the attempt that ends it counts it in the job metrics.
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import { storableText } from '../../platform/db/storable.ts';
import { countJobEnded, type JobEnd } from '../../jobs/job-metrics.ts';
import { ENDED_EXTRACT_STATUSES, type ExtractJobRun, type OpenedExtract } from './definitions.ts';
import type { ExtractRequest } from './extract-request.ts';
import { extractCredits } from './extract-costs.ts';
import type { ExtractFeatureSettings } from './config.ts';

/** Whether the extract has a webhook to tell, and whether it is done already (gone, or ended by an earlier run). */
export async function openExtractRun(
  { db }: Pick<ActivityDeps<ExtractFeatureSettings>, 'db'>,
  notifyTaskQueue: string,
  extractId: string,
): Promise<OpenedExtract> {
  const extract = await db.extractJob.findUnique({ where: { id: extractId }, select: { status: true, options: true } });
  const webhook = (extract?.options as ExtractRequest | undefined)?.webhook !== undefined;
  return { notifyTaskQueue, webhook, ...((!extract || ENDED_EXTRACT_STATUSES.includes(extract.status)) && { done: true }) };
}

/** Ends the row with `data` if it is still processing. */
export async function endExtract(
  { db, config }: Pick<ActivityDeps<ExtractFeatureSettings>, 'db' | 'config'>,
  extractId: string,
  data: Record<string, unknown> & { status: JobEnd },
): Promise<void> {
  const now = new Date();
  const { count } = await db.extractJob.updateMany({
    where: { id: extractId, status: 'processing' },
    data: { ...data, completedAt: now, expiresAt: new Date(now.getTime() + config.extract.retentionHours * 3_600_000) },
  });
  if (count > 0) countJobEnded('extract', data.status);
}

/** Ends an extract that did not get to its answer (its jobs were refused, or the workflow was cancelled), with what its jobs cost. */
export async function endExtractUnanswered(
  deps: Pick<ActivityDeps<ExtractFeatureSettings>, 'db' | 'config'>,
  input: { extractId: string; status: 'failed' | 'cancelled'; error: string; runs: ExtractJobRun[] },
): Promise<void> {
  await endExtract(deps, input.extractId, {
    status: input.status,
    error: storableText(input.error),
    creditsUsed: await extractCredits(deps.db, input.extractId, input.runs),
  });
}
