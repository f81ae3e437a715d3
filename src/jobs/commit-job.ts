// Committing a job of any kind (crawl, batch scrape, single scrape): the checks
// every kind shares, then the job row, its first frontier rows and its started
// event in one transaction, then its workflow. The row is the commitment: once it
// exists the workflow is started exactly once (here, or by the reconciler if this
// process dies first).
import type { Client } from '@temporalio/client';
import { v7 as uuidv7 } from 'uuid';
import { crawlWebhook, writeCrawlEvent } from './webhooks/crawl-events.ts';
import type { JobKind } from './job-kind.ts';
import { newJobWorkflowId } from './definitions.ts';
import { addToFrontier, type NewFrontierUrl } from './frontier/frontier.ts';
import type { CrawlRequest, JobOptions } from './crawl-request.ts';
import type { JobSettings } from './config.ts';
import type { Db } from '../platform/db/prisma.ts';
import type { Team } from '../generated/prisma/client.ts';
import { DomainError } from '../platform/domain-error.ts';
import { renderingRefusal, requestNeedsBrowser } from '../page/rendering/needs-browser.ts';
import { assertValidSelectors, InvalidSelectorError } from '../page/clean-html.ts';
import { insufficientCredits } from '../platform/usage/credits.ts';
import { BlockedAddressError } from '../platform/net/address-policy.ts';
import { checkHostAllowed } from '../platform/net/guarded-lookup.ts';
import { addressPolicyOf, servesPort, urlPort, type EndpointSettings } from '../platform/net/service-endpoints.ts';
import { startJobWorkflow } from './job-workflow-start.ts';
import { checkActiveCrawlCap } from './active-crawl-cap.ts';
import { countJobStarted } from './job-metrics.ts';
import { checkModelFormats } from './job-model.ts';
import { proxyCountryRefusal } from '../platform/net/proxy-pools/proxy-router.ts';
import type { Logger } from '../platform/log.ts';
import { threatPolicy, threatRefusal } from '../page/threat-policy.ts';

/** The API code of a URL threat protection blocks (upstream's). */
export const UNSAFE_DOMAIN_BLOCKED = 'unsafe_domain_blocked';

/**
 * The 403 of a start URL threat protection blocks, before any job exists (as upstream): a crawl's
 * or a scrape's one URL. A batch's URLs fail one by one instead, each a failed page saying why.
 */
export function checkThreatProtection(url: string, so: Pick<CrawlRequest['scrapeOptions'], 'threatProtection'>): void {
  const refusal = threatRefusal(url, threatPolicy(so.threatProtection));
  if (refusal) throw new DomainError('forbidden', refusal, UNSAFE_DOMAIN_BLOCKED);
}

const ENTERPRISE = (option: string) =>
  `The ${option} parameter is an enterprise feature that is not enabled for your team. Ask your administrator to enable it (npm run cli -- team flags --help).`;

export function checkTeamPermissions(team: Team, req: Partial<Pick<CrawlRequest, 'ignoreRobotsTxt' | 'robotsUserAgent' | 'zeroDataRetention'>>): void {
  if (req.ignoreRobotsTxt && !team.flagIgnoreRobotsTxt) throw new DomainError('forbidden', ENTERPRISE('ignoreRobotsTxt'));
  if (req.robotsUserAgent !== undefined && !team.flagRobotsUserAgent) throw new DomainError('forbidden', ENTERPRISE('robotsUserAgent'));
  if (req.zeroDataRetention && !team.flagZeroDataRetention) {
    throw new DomainError('forbidden', 'Zero Data Retention (ZDR) is not enabled for your team. Ask your administrator to enable it.');
  }
}

/** includeTags / excludeTags must be CSS selectors the cleaner can run; `prefix` names where they sit in the body. */
export function checkSelectors(so: CrawlRequest['scrapeOptions'], prefix = 'scrapeOptions.'): void {
  for (const field of ['includeTags', 'excludeTags'] as const) {
    try {
      assertValidSelectors(so[field] ?? []);
    } catch (err) {
      if (err instanceof InvalidSelectorError) throw new DomainError('invalid', `${prefix}${field}: ${err.message}`);
      throw err;
    }
  }
}

/**
 * Refuses a start URL on a private address, or on one of the service's own
 * listeners, before any job exists. The worker checks every connection again,
 * so this is for a clear answer, not the guard. An unresolvable host is left to
 * the crawl, which reports it as the page's error.
 */
export async function checkAddress(url: string, config: EndpointSettings, refusal: string): Promise<void> {
  const policy = addressPolicyOf(config);
  const parsed = new URL(url);
  const port = urlPort(parsed);
  // With the guard off only the service's own ports can be refused: other URLs need no lookup.
  if (policy.allowPrivate && !servesPort(policy, port)) return;
  try {
    await checkHostAllowed(parsed.hostname.replace(/^\[|\]$/g, ''), policy, undefined, port);
  } catch (err) {
    if (err instanceof BlockedAddressError) throw new DomainError('invalid', err.message.replace(/^Refused to connect to [^:]+/, refusal), 'BLOCKED_ADDRESS');
  }
}

/**
 * Refuses a job this deployment cannot run: a model format without a (fitting) model, a page that
 * needs Chromium under CRAWL_RENDERING=http, a location.country no proxy pool is tagged with.
 */
export function checkServiceCanRun(config: Pick<JobSettings, 'llm' | 'crawl'>, options: CrawlRequest): void {
  checkModelFormats(options.scrapeOptions, options.zeroDataRetention, config.llm);
  const noCountry = proxyCountryRefusal(config.crawl.proxyPools, options.scrapeOptions.location?.country);
  if (noCountry) throw new DomainError('invalid', noCountry, 'PROXY_COUNTRY_NOT_CONFIGURED');
  const browserRequired = config.crawl.rendering === 'http' ? requestNeedsBrowser(options.scrapeOptions) : undefined;
  if (browserRequired) throw new DomainError('invalid', renderingRefusal(browserRequired), 'BROWSER_REQUIRED');
}

export type JobDeps = { db: Db; temporal: Client; config: JobSettings; log: Logger };

export interface JobToCommit {
  kind: JobKind;
  /** What the job is shown as (its start URL, a batch's first URL). */
  url: string;
  /** Stored as the job's options: what its workflow's activities read. */
  options: JobOptions;
  /** Frontier rows the job starts with (batches and scrapes; a crawl's planning seeds its own). */
  seed?: NewFrontierUrl[];
  /**
   * A single scrape's request key (scrape-resume.ts), taken over from the scrape `replaces` that held
   * it: unique per team, so of two commits with one key the second fails with a unique violation.
   */
  resume?: { key: string; replaces?: string };
}

/**
 * Commits a job of the crawl pipeline (its row, its first frontier rows, its started event) in one
 * transaction, then starts its workflow, and returns its id. A repeated x-idempotency-key never
 * gets here (src/platform/http/idempotency.ts answers it).
 */
const JOB_NAMES: Record<JobKind, string> = { crawl: 'a crawl', batch_scrape: 'a batch scrape', scrape: 'a scrape' };

export async function commitJob(deps: JobDeps, team: Team, apiKeyId: string, job: JobToCommit): Promise<{ id: string }> {
  const id = uuidv7();
  const { workflowId } = await insertJob(deps, team, apiKeyId, { ...job, id }, false);
  // From here the job exists: if the start fails or its answer is lost, the reconciler
  // starts it (same workflow id, so at most once), and the caller still gets its id.
  try {
    await startJobWorkflow(deps, { id, teamId: team.id, workflowId, url: job.url, limit: job.options.limit, kind: job.kind });
  } catch (err) {
    deps.log.warn('crawl workflow start failed; the reconciler will start it', { crawlId: id, error: (err as Error).message });
  }
  return { id };
}

/**
 * The checks and the transaction of commitJob, without the start, for a caller that starts the
 * job's workflow itself: a monitor check starts its jobs as child workflows, so `startedByCaller`
 * marks the row started and the reconciler leaves it alone. Returns the row's workflow id (null: the
 * legacy `crawl-<id>`) and whether it was inserted: not (and nothing changed) when a job with that id
 * exists already, the caller's retry after a commit it did not hear back from.
 */
export async function insertJob(
  deps: Pick<JobDeps, 'db' | 'config'>,
  team: Team,
  apiKeyId: string | null,
  job: JobToCommit & { id: string },
  startedByCaller: boolean,
): Promise<{ inserted: boolean; workflowId: string | null }> {
  // Only such a caller reuses an id (commitJob's are new).
  const existing = startedByCaller ? await deps.db.job.findUnique({ where: { id: job.id }, select: { workflowId: true } }) : null;
  if (existing) return { inserted: false, workflowId: existing.workflowId };
  const workflowId = newJobWorkflowId(job.kind, job.id);
  checkServiceCanRun(deps.config, job.options);
  if (team.creditBalance < 1) throw insufficientCredits(team.creditBalance, JOB_NAMES[job.kind]);
  await deps.db.$transaction(async (tx) => {
    // A single scrape is answered while the caller waits; it is no crawl to cap.
    if (job.kind !== 'scrape') await checkActiveCrawlCap(tx, team.id, deps.config.crawl.maxActivePerTeam);
    // The old holder's row lock orders two takeovers: the second finds the key gone and its insert fails.
    if (job.resume?.replaces) await tx.job.updateMany({ where: { id: job.resume.replaces, resumeKey: job.resume.key }, data: { resumeKey: null } });
    await tx.job.create({
      data: {
        id: job.id,
        teamId: team.id,
        apiKeyId,
        url: job.url,
        options: job.options as object,
        status: 'scraping',
        taskQueue: deps.config.temporal.taskQueue,
        kind: job.kind,
        workflowId,
        ...(job.resume && { resumeKey: job.resume.key }),
        ...(startedByCaller && { workflowStartedAt: new Date() }),
      },
    });
    if (job.seed) await addToFrontier(tx, job.id, job.seed, job.options.limit);
    await writeCrawlEvent(tx, job.id, crawlWebhook(job.options, job.kind), { type: 'crawl.started', success: true, data: [] });
  });
  countJobStarted(job.kind);
  return { inserted: true, workflowId };
}
