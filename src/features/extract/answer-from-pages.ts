// An extract's answer: the pages its jobs stored go to the model, the answer is stored
// and charged once (one ledger row keyed by the extract), and under zero data retention
// the pages are erased once the extract has ended.
import { Context } from '@temporalio/activity';
import type { ExtractJob } from '../../generated/prisma/client.ts';
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import type { Db } from '../../platform/db/prisma.ts';
import { storableJson, storableText } from '../../platform/db/storable.ts';
import { LlmError, type TokenUsage } from '../../platform/llm/chat-completion.ts';
import type { JsonSchema } from '../../platform/llm/json-schema.ts';
import { jobModel } from '../../jobs/job-model.ts';
import type { JobEnd } from '../../jobs/job-metrics.ts';
import { ENDED_EXTRACT_STATUSES, type ExtractJobRun } from './definitions.ts';
import type { ExtractRequest } from './extract-request.ts';
import { extractWithModel } from './extract-with-model.ts';
import { chargeExtractModel, extractCredits } from './extract-costs.ts';
import { noModelReason } from './extract-model.ts';
import { endExtract } from './extract-row.ts';
import { inRequestOrder, noPagesError, pageTexts, pageWarnings, type PageRow } from './extract-pages.ts';
import type { ExtractFeatureSettings } from './config.ts';

/** An extract on its way to its end, with the warnings it ends with. */
interface Ending {
  extract: ExtractJob;
  runs: ExtractJobRun[];
  warnings: string[];
}

/** The pages the jobs stored, each markdown clipped to `chars`. */
async function readPages(db: Db, runs: ExtractJobRun[], chars: number): Promise<PageRow[]> {
  const rows: PageRow[] = [];
  for (const run of runs) {
    rows.push(
      ...(await db.$queryRaw<PageRow[]>`
        SELECT url, success, error, left(document->>'markdown', ${chars}::int) AS markdown
        FROM job_page WHERE job_id = ${run.jobId}::uuid AND purged_at IS NULL ORDER BY id`),
    );
  }
  return rows;
}

/** Ends the extract with its warnings and credits; zero data retention: the pages were handed out once, to the model, and are erased. */
async function endWith(
  deps: Pick<ActivityDeps<ExtractFeatureSettings>, 'db' | 'config'>,
  { extract, runs, warnings }: Ending,
  fields: Record<string, unknown> & { status: JobEnd },
) {
  await endExtract(deps, extract.id, {
    ...fields,
    warning: warnings.length > 0 ? storableText(warnings.join(' ')) : null,
    creditsUsed: await extractCredits(deps.db, extract.id, runs),
  });
  if (!(extract.options as unknown as ExtractRequest).zeroDataRetention) return;
  await deps.db.jobPage.updateMany({
    where: { jobId: { in: runs.map((r) => r.jobId) }, purgedAt: null },
    data: { document: {}, sizeBytes: 0, purgedAt: new Date() },
  });
}

/** Ends the extract failed with `error`; a model call that failed is charged for its tokens. */
async function failExtract(
  deps: Pick<ActivityDeps<ExtractFeatureSettings>, 'db' | 'config'>,
  ending: Ending,
  error: string,
  usage?: TokenUsage,
): Promise<string> {
  if (usage) await chargeExtractModel(deps.db, ending.extract, usage, 0);
  await endWith(deps, ending, {
    status: 'failed',
    error: storableText(error),
    ...(usage && { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens }),
  });
  return 'failed';
}

/** Reads the pages the jobs stored, asks the model, stores the answer and charges for it; returns the status it ended with. */
export async function answerFromPages(deps: ActivityDeps<ExtractFeatureSettings>, input: { extractId: string; runs: ExtractJobRun[] }): Promise<string> {
  const { db, config, log } = deps;
  const extract = await db.extractJob.findUnique({ where: { id: input.extractId } });
  if (!extract) return 'deleted';
  if (ENDED_EXTRACT_STATUSES.includes(extract.status)) return extract.status;
  const req = extract.options as unknown as ExtractRequest;
  // One character more than a chunk takes, so a clipped page is known to go on.
  const rows = inRequestOrder(await readPages(db, input.runs, config.llm.maxInputChars + 1), req.urls);
  const pages = pageTexts(rows);
  const ending: Ending = {
    extract,
    runs: input.runs,
    warnings: pageWarnings(
      extract.warning,
      req.enableWebSearch,
      rows.filter((r) => !r.success),
    ),
  };
  if (pages.length === 0) return failExtract(deps, ending, noPagesError(rows));
  const llm = jobModel(config.llm, req.zeroDataRetention);
  if (!llm) return failExtract(deps, ending, noModelReason(config.llm));
  const context = Context.current();
  const heartbeat = setInterval(() => context.heartbeat(), 5_000);
  try {
    const task = { prompt: req.prompt, schema: req.schema as JsonSchema | undefined, systemPrompt: req.systemPrompt };
    const answer = await extractWithModel(pages, task, llm, config.extract.maxChunks);
    await chargeExtractModel(db, extract, answer.usage, answer.pagesSent);
    ending.warnings.push(...answer.warnings);
    await endWith(deps, ending, {
      status: 'completed',
      data: storableJson(answer.data).value as object,
      ...(req.showSources && { sources: answer.sources }),
      promptTokens: answer.usage.promptTokens,
      completionTokens: answer.usage.completionTokens,
    });
    log.info('extract completed', { extractId: extract.id, pages: answer.pagesSent });
    return 'completed';
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    return failExtract(deps, ending, `The model failed: ${err.message}.`, err.usage);
  } finally {
    clearInterval(heartbeat);
  }
}
