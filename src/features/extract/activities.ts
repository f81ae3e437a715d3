// The activities of an extract (workflow.ts). Each is idempotent: the engine jobs
// have ids derived from the extract's, the row ends only while it is processing,
// and the model's charge is one ledger row keyed by the extract; so a retry after
// kill -9 of the worker fetches no page twice and bills nothing twice.
import { Context } from '@temporalio/activity';
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import { DomainError } from '../../platform/domain-error.ts';
import { storableJson, storableText } from '../../platform/db/storable.ts';
import { LlmError, type TokenUsage } from '../../platform/llm/chat-completion.ts';
import { chargeOnce, MODEL_FORMAT_CREDITS } from '../../platform/usage/credits.ts';
import type { JsonSchema } from '../../platform/llm/json-schema.ts';
import { insertJob } from '../../jobs/commit-job.ts';
import { seedRow } from '../../jobs/job-options.ts';
import { jobModel } from '../../jobs/job-model.ts';
import { countJobEnded, type JobEnd } from '../../jobs/job-metrics.ts';
import type { NewFrontierUrl } from '../../jobs/frontier/frontier.ts';
import { ENDED_EXTRACT_STATUSES, type CommittedExtractJobs, type ExtractJobRun, type OpenedExtract } from './definitions.ts';
import type { ExtractRequest } from './extract-request.ts';
import { plannedJobs } from './extract-jobs.ts';
import { extractWithModel, type PageText } from './extract-with-model.ts';
import { extractCredits } from './extract-costs.ts';
import { noModelReason } from './extract-model.ts';
import type { ExtractFeatureSettings } from './config.ts';

/** The ledger item of the extract's model calls (its pages are charged on their jobs). */
const MODEL_ITEM = 'model';
/** Failed pages named one by one in the warning; the rest are counted. */
const NAMED_FAILURES = 5;

interface PageRow {
  url: string;
  success: boolean;
  error: string | null;
  markdown: string | null;
}

export function createExtractActivities({ db, config, log }: ActivityDeps<ExtractFeatureSettings>) {
  const notifyTaskQueue = config.temporal.webhookTaskQueue;

  /** Ends the row if it is still processing (only that attempt counts it). */
  async function endExtract(extractId: string, data: Record<string, unknown> & { status: JobEnd }): Promise<void> {
    const now = new Date();
    const { count } = await db.extractJob.updateMany({
      where: { id: extractId, status: 'processing' },
      data: { ...data, completedAt: now, expiresAt: new Date(now.getTime() + config.extract.retentionHours * 3_600_000) },
    });
    if (count > 0) countJobEnded('extract', data.status);
  }

  async function chargeModel(extract: { id: string; teamId: string; apiKeyId: string | null }, usage: TokenUsage, pagesSent: number) {
    await db.$transaction((tx) =>
      chargeOnce(tx, {
        teamId: extract.teamId,
        apiKeyId: extract.apiKeyId,
        endpoint: 'extract',
        jobId: extract.id,
        itemKey: MODEL_ITEM,
        credits: pagesSent * MODEL_FORMAT_CREDITS,
        modelTokens: usage.promptTokens + usage.completionTokens,
      }),
    );
  }

  return {
    async openExtract(input: { extractId: string }): Promise<OpenedExtract> {
      const extract = await db.extractJob.findUnique({ where: { id: input.extractId }, select: { status: true, options: true } });
      const webhook = (extract?.options as ExtractRequest | undefined)?.webhook !== undefined;
      return { notifyTaskQueue, webhook, ...((!extract || ENDED_EXTRACT_STATUSES.includes(extract.status)) && { done: true }) };
    },

    /** Commits the engine jobs that fetch the pages; the workflow starts them as its children. */
    async commitExtractJobs(input: { extractId: string }): Promise<CommittedExtractJobs> {
      const extract = await db.extractJob.findUnique({ where: { id: input.extractId }, include: { team: true } });
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
        try {
          await insertJob({ db, config }, extract.team, extract.apiKeyId, { id: job.id, kind: job.kind, url: job.url, options: job.options, seed }, true);
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          refused = err.message;
          break;
        }
        runs.push({ jobId: job.id, kind: job.kind, teamId: extract.teamId, url: job.url });
      }
      await db.extractJob.update({
        where: { id: extract.id },
        data: { jobIds: runs.map((r) => r.jobId), ...(problems.length > 0 && { warning: storableText(problems.join(' ')) }) },
      });
      return { runs, ...(refused !== undefined && { refused }) };
    },

    /** Reads the pages the jobs stored, asks the model, stores the answer and charges for it; returns the status it ended with. */
    async extractFromPages(input: { extractId: string; runs: ExtractJobRun[] }): Promise<string> {
      const extract = await db.extractJob.findUnique({ where: { id: input.extractId } });
      if (!extract) return 'deleted';
      if (ENDED_EXTRACT_STATUSES.includes(extract.status)) return extract.status;
      const req = extract.options as unknown as ExtractRequest;
      // One character more than a chunk takes, so a clipped page is known to go on.
      const budget = config.llm.maxInputChars + 1;
      const rows: PageRow[] = [];
      for (const run of input.runs) {
        rows.push(
          ...(await db.$queryRaw<PageRow[]>`
            SELECT url, success, error, left(document->>'markdown', ${budget}::int) AS markdown
            FROM crawl_page WHERE crawl_id = ${run.jobId}::uuid AND purged_at IS NULL ORDER BY id`),
        );
      }
      // The pages in the order the request named them (a batch stores them as they finish), a crawl's after them as stored.
      const position = (url: string) => {
        const i = req.urls.indexOf(url);
        return i === -1 ? req.urls.length : i;
      };
      rows.sort((a, b) => position(a.url) - position(b.url));
      const failed = rows.filter((r) => !r.success);
      const pages: PageText[] = rows.filter((r) => r.success && r.markdown).map((r) => ({ url: r.url, markdown: r.markdown! }));
      const warnings = [
        ...(extract.warning ? [extract.warning] : []),
        ...(req.enableWebSearch ? ['Web search is not used by this service: only the given URLs were read (enableWebSearch is ignored).'] : []),
        ...(failed.length > 0 ? [failedPagesWarning(failed)] : []),
      ];
      // Zero data retention: the pages were handed out once, to the model; erased once the extract has ended.
      const erasePages = async () => {
        if (!req.zeroDataRetention) return;
        await db.crawlPage.updateMany({
          where: { crawlId: { in: input.runs.map((r) => r.jobId) }, purgedAt: null },
          data: { document: {}, sizeBytes: 0, purgedAt: new Date() },
        });
      };
      const fail = async (error: string, usage?: TokenUsage) => {
        if (usage) await chargeModel(extract, usage, 0);
        await endExtract(extract.id, {
          status: 'failed',
          error: storableText(error),
          warning: warnings.length > 0 ? storableText(warnings.join(' ')) : null,
          ...(usage && { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens }),
          creditsUsed: await extractCredits(db, extract.id, input.runs),
        });
        await erasePages();
        return 'failed';
      };
      if (pages.length === 0) {
        return fail(rows.length === 0 ? 'No page could be fetched from the given URLs.' : `No page could be fetched: ${failedPagesWarning(failed)}`);
      }
      const llm = jobModel(config.llm, req.zeroDataRetention);
      if (!llm) return fail(noModelReason(config.llm));
      const context = Context.current();
      const heartbeat = setInterval(() => context.heartbeat(), 5_000);
      try {
        const task = { prompt: req.prompt, schema: req.schema as JsonSchema | undefined, systemPrompt: req.systemPrompt };
        const answer = await extractWithModel(pages, task, llm, config.extract.maxChunks);
        await chargeModel(extract, answer.usage, answer.pagesSent);
        warnings.push(...answer.warnings);
        await endExtract(extract.id, {
          status: 'completed',
          data: storableJson(answer.data).value as object,
          ...(req.showSources && { sources: answer.sources }),
          warning: warnings.length > 0 ? storableText(warnings.join(' ')) : null,
          promptTokens: answer.usage.promptTokens,
          completionTokens: answer.usage.completionTokens,
          creditsUsed: await extractCredits(db, extract.id, input.runs),
        });
        await erasePages();
        log.info('extract completed', { extractId: extract.id, pages: answer.pagesSent });
        return 'completed';
      } catch (err) {
        if (!(err instanceof LlmError)) throw err;
        return fail(`The model failed: ${err.message}.`, err.usage);
      } finally {
        clearInterval(heartbeat);
      }
    },

    /** Ends an extract that did not get to its answer: its jobs were refused, or the workflow was cancelled. */
    async endExtractEarly(input: { extractId: string; status: 'failed' | 'cancelled'; error: string; runs: ExtractJobRun[] }): Promise<void> {
      await endExtract(input.extractId, {
        status: input.status,
        error: storableText(input.error),
        creditsUsed: await extractCredits(db, input.extractId, input.runs),
      });
    },
  };
}

function failedPagesWarning(failed: PageRow[]): string {
  const named = failed.slice(0, NAMED_FAILURES).map((r) => `${r.url} (${r.error ?? 'failed'})`);
  const more = failed.length > NAMED_FAILURES ? ` and ${failed.length - NAMED_FAILURES} more` : '';
  return `${failed.length} page(s) could not be fetched and were left out: ${named.join('; ')}${more}.`;
}

export type ExtractActivities = ReturnType<typeof createExtractActivities>;
