// A batch scrape after validation (POST /v2/batch/scrape, POST /v1/batch/scrape): the URLs screened, then either a new
// batch job on the crawl pipeline (row and frontier in one transaction) or, with
// appendToId, more URLs in a running one.
import type { Client } from '@temporalio/client';
import type { JobSettings } from './config.ts';
import type { Db } from '../platform/db/prisma.ts';
import { DomainError } from '../platform/domain-error.ts';
import type { Logger } from '../platform/log.ts';
import type { Team } from '../generated/prisma/client.ts';
import { normaliseHttpUrl } from '../platform/http/common-schemas.ts';
import { insufficientCredits } from '../platform/usage/credits.ts';
import { checkAddress, checkSelectors, checkTeamPermissions, commitJob } from './commit-job.ts';
import { addToFrontier, type NewFrontierUrl } from './frontier/frontier.ts';
import { jobOptions, seedRow } from './job-options.ts';
import { jobWorkflowId, urlsAddedSignal } from './definitions.ts';
import { MAX_CRAWL_LIMIT, type JobExtras } from './crawl-request.ts';
import { batchScrapeOptions, type BatchScrapeRequest } from './batch-request.ts';

type Deps = { db: Db; temporal: Client; config: JobSettings; log: Logger };

export interface BatchStarted {
  id: string;
  /** URLs skipped (malformed, too long, on a refused address), as sent. */
  invalidURLs: string[];
}

/** The address refusal of a URL, looked up once per host and port. */
async function addressProblem(url: string, config: JobSettings, seen: Map<string, Promise<string | undefined>>): Promise<string | undefined> {
  const host = new URL(url).host;
  if (!seen.has(host)) {
    seen.set(
      host,
      checkAddress(url, config, `Refused to scrape ${url}`).then(
        () => undefined,
        (err: unknown) => {
          if (err instanceof DomainError) return err.message;
          throw err;
        },
      ),
    );
  }
  return seen.get(host);
}

type Verdict = { row: NewFrontierUrl } | { problem: string; code?: string };

async function screenUrl(raw: string, config: JobSettings, hosts: Map<string, Promise<string | undefined>>): Promise<Verdict> {
  // Malformed URLs reach here only with ignoreInvalidURLs: true (the schema refuses them otherwise).
  const parsed = normaliseHttpUrl(raw);
  if (!parsed.ok) return { problem: parsed.message };
  const seeded = seedRow(parsed.url, config);
  if ('problem' in seeded) return seeded;
  const refused = await addressProblem(parsed.url, config, hosts);
  return refused === undefined ? seeded : { problem: refused, code: 'BLOCKED_ADDRESS' };
}

/** Splits the URLs into frontier rows and those skipped; refuses the request where ignoreInvalidURLs says so. */
async function screenUrls(req: BatchScrapeRequest, config: JobSettings): Promise<{ rows: NewFrontierUrl[]; invalidURLs: string[] }> {
  if (req.urls.length > config.scrape.batchMaxUrls) {
    throw new DomainError(
      'invalid',
      `urls may contain at most ${config.scrape.batchMaxUrls} URLs per request (BATCH_SCRAPE_MAX_URLS); send more with appendToId`,
    );
  }
  const rows: NewFrontierUrl[] = [];
  const invalidURLs: string[] = [];
  const hosts = new Map<string, Promise<string | undefined>>();
  for (const raw of req.urls) {
    const verdict = await screenUrl(raw, config, hosts);
    if ('row' in verdict) rows.push(verdict.row);
    else if (req.ignoreInvalidURLs === false) throw new DomainError('invalid', verdict.problem, verdict.code);
    else invalidURLs.push(raw);
  }
  if (rows.length === 0) throw new DomainError('invalid', 'No valid URLs provided', undefined, { invalidURLs });
  return { rows, invalidURLs };
}

/** `extras` are a new batch's (an appended URL is scraped under the running batch's options). */
export async function startBatchScrape(deps: Deps, team: Team, apiKeyId: string, req: BatchScrapeRequest, extras: JobExtras = {}): Promise<BatchStarted> {
  // Before the URLs' host names are resolved: a team that cannot pay gets its 402 without making the
  // service look up thousands of names for it.
  if (team.creditBalance < 1) throw insufficientCredits(team.creditBalance, 'a batch scrape');
  const { rows, invalidURLs } = await screenUrls(req, deps.config);
  if (req.appendToId) return { id: await appendToBatch(deps, team, req.appendToId, rows), invalidURLs };
  const options = {
    ...jobOptions({
      url: rows[0].url,
      scrapeOptions: batchScrapeOptions(req),
      webhook: req.webhook,
      maxConcurrency: req.maxConcurrency,
      zeroDataRetention: req.zeroDataRetention,
      origin: req.origin,
      integration: req.integration,
    }),
    ...extras,
  };
  checkTeamPermissions(team, options);
  checkSelectors(options.scrapeOptions, '');
  if (req.webhook) await checkAddress(req.webhook.url, deps.config, `Refused to deliver webhooks to ${req.webhook.url}`);
  const { id } = await commitJob(deps, team, apiKeyId, { kind: 'batch_scrape', url: rows[0].url, options, seed: rows });
  return { id, invalidURLs };
}

/**
 * Adds URLs to a running batch of the team. Under the batch row's lock (which its finish takes
 * too), so the URLs are either scraped by the batch or refused because it has ended; the signal
 * then wakes the workflow.
 */
async function appendToBatch(deps: Deps, team: Team, batchId: string, rows: NewFrontierUrl[]): Promise<string> {
  if (team.creditBalance < 1) throw insufficientCredits(team.creditBalance, 'a batch scrape');
  const added = await deps.db.$transaction(async (tx) => {
    const [batch] = await tx.$queryRaw<{ status: string; workflow_id: string | null }[]>`
      SELECT status, workflow_id FROM job WHERE id = ${batchId}::uuid AND team_id = ${team.id}::uuid AND kind = 'batch_scrape' FOR UPDATE`;
    if (!batch) throw new DomainError('not-found', 'Job not found');
    if (batch.status !== 'scraping')
      throw new DomainError('conflict', `The batch scrape has ended (${batch.status}); URLs can only be added to a running batch`);
    return { count: await addToFrontier(tx, batchId, rows, MAX_CRAWL_LIMIT), workflowId: batch.workflow_id };
  });
  if (added.count > 0) {
    await deps.temporal.workflow
      .getHandle(jobWorkflowId({ id: batchId, workflowId: added.workflowId }))
      .signal(urlsAddedSignal, added.count)
      .catch((err: unknown) =>
        deps.log.warn('urlsAdded signal failed; the batch finds the URLs when it would finish', { crawlId: batchId, error: (err as Error).message }),
      );
  }
  return batchId;
}
