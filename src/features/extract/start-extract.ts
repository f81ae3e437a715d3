// POST /v2/extract after validation: the checks a job of the engine would get at
// the gateway (model, zero data retention, addresses, credits), then the row, then
// the workflow. The row is the commitment: the workflow id derives from it, so a
// start repeated after a lost answer finds the same run.
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../platform/db/prisma.ts';
import { DomainError } from '../../platform/domain-error.ts';
import type { Team } from '../../generated/prisma/client.ts';
import { insufficientCredits } from '../../platform/usage/credits.ts';
import { checkAddress, checkSelectors } from '../../jobs/commit-job.ts';
import { countJobStarted } from '../../jobs/job-metrics.ts';
import { renderingRefusal, requestNeedsBrowser } from '../../page/rendering/needs-browser.ts';
import { extractWorkflowId } from './definitions.ts';
import { checkExtractModel } from './extract-model.ts';
import { isWildcard } from './extract-jobs.ts';
import { WILDCARD_SUFFIX, type ExtractRequest } from './extract-request.ts';
import type { extractWorkflow } from './workflow.ts';
import type { ExtractFeatureSettings } from './config.ts';

type Deps = { db: Db; temporal: Client; config: ExtractFeatureSettings };

/** How the Temporal UI names the extract: its team and its URLs (the first few). */
function summary(teamId: string, urls: string[]): string {
  const shown = urls.slice(0, 3).join(', ');
  return `Extract for team ${teamId} from ${shown}${urls.length > 3 ? ` and ${urls.length - 3} more` : ''}`;
}

export async function startExtract(deps: Deps, team: Team, apiKeyId: string, req: ExtractRequest): Promise<string> {
  const { config } = deps;
  if (req.urls.length > config.extract.maxUrls) {
    throw new DomainError(
      'invalid',
      `urls may name at most ${config.extract.maxUrls} URLs on this server (EXTRACT_MAX_URLS); this request names ${req.urls.length}.`,
    );
  }
  if (req.zeroDataRetention && !team.flagZeroDataRetention) {
    throw new DomainError('forbidden', 'Zero Data Retention (ZDR) is not enabled for your team. Ask your administrator to enable it.');
  }
  checkExtractModel(config.llm, req.zeroDataRetention);
  if (req.scrapeOptions) {
    checkSelectors(req.scrapeOptions);
    const browserRequired = config.crawl.rendering === 'http' ? requestNeedsBrowser(req.scrapeOptions) : undefined;
    if (browserRequired) throw new DomainError('invalid', renderingRefusal(browserRequired), 'BROWSER_REQUIRED');
  }
  for (const url of req.urls) {
    await checkAddress(isWildcard(url) ? url.slice(0, -WILDCARD_SUFFIX.length) : url, config, `Refused to extract from ${url}`);
  }
  if (team.creditBalance < 1) throw insufficientCredits(team.creditBalance, 'an extract');
  const id = uuidv7();
  const now = new Date();
  await deps.db.extractJob.create({
    data: {
      id,
      teamId: team.id,
      apiKeyId,
      options: req as object,
      jobIds: [],
      expiresAt: new Date(now.getTime() + config.extract.retentionHours * 3_600_000),
    },
  });
  countJobStarted('extract');
  try {
    await deps.temporal.workflow.start<typeof extractWorkflow>('extractWorkflow', {
      workflowId: extractWorkflowId(id),
      taskQueue: config.temporal.taskQueue,
      args: [{ extractId: id }],
      staticSummary: summary(team.id, req.urls),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) {
      await deps.db.extractJob.update({ where: { id }, data: { status: 'failed', error: 'The extract could not be started.', completedAt: new Date() } });
      throw err;
    }
  }
  return id;
}
