// POST /v2/scrape: a job of the crawl pipeline with one URL (kind scrape), so a
// single page is scraped, charged, cached and stored exactly as a crawl page is.
// The caller starts the job's workflow with an update that answers once the page
// is stored (update-with-start) and waits for it within the request's timeout;
// past it the answer is a 408 and the job goes on, its result readable by id (and
// by the same request sent again: scrape-resume.ts).
import { WorkflowFailedError, type Client } from '@temporalio/client';
import type { JobSettings } from './config.ts';
import { createOnce, type Db } from '../platform/db/prisma.ts';
import { DomainError } from '../platform/domain-error.ts';
import type { Logger } from '../platform/log.ts';
import type { Job, Team } from '../generated/prisma/client.ts';
import { v7 as uuidv7 } from 'uuid';
import { checkAddress, checkSelectors, checkServiceCanRun, checkTeamPermissions, checkThreatProtection, insertJob, type JobToCommit } from './commit-job.ts';
import type { CrawlRequest } from './crawl-request.ts';
import type { NewFrontierUrl } from './frontier/frontier.ts';
import { scrapePageBudgetMs } from './scrape-resume-match.ts';
import { startJobWorkflow, startScrapeAndAwaitPage, type StartableJob } from './job-workflow-start.ts';
import type { JobFeed } from './job-feed.ts';
import { jobOptions, seedRow } from './job-options.ts';
import { jobWorkflowId, newJobWorkflowId } from './definitions.ts';
import { isZeroDataRetention } from './job-status.ts';
import { scrapeRequestOptions, type ScrapeRequest } from '../page/scrape-request.ts';

type Deps = { db: Db; temporal: Client; config: JobSettings; log: Logger };

/** A committed scrape job: what starting its workflow needs. */
export type ScrapeJob = StartableJob & { kind: 'scrape' };

/** A scrape request that passed its checks: what committing its job needs. */
export interface PreparedScrape {
  url: string;
  options: CrawlRequest;
  seed: NewFrontierUrl;
}

/**
 * Checks a scrape request as its commit would (team flags, selectors, URL length, address, what the
 * service can run; only the credits are left to the commit) and builds its job's options. With
 * `pageBudgetMs`, the page may load past the request's `timeout`, up to that budget (POST
 * /v2/scrape, whose 408 lets the page's work go on).
 */
export async function prepareScrape(deps: Deps, team: Team, req: ScrapeRequest, pageBudgetMs?: number): Promise<PreparedScrape> {
  const scrapeOptions = scrapeRequestOptions(req);
  const options = jobOptions({
    url: req.url,
    scrapeOptions: pageBudgetMs === undefined ? scrapeOptions : { ...scrapeOptions, timeout: scrapePageBudgetMs(scrapeOptions.timeout, pageBudgetMs) },
    zeroDataRetention: req.zeroDataRetention,
    origin: req.origin,
    integration: req.integration,
  });
  checkTeamPermissions(team, options);
  checkSelectors(options.scrapeOptions, '');
  checkThreatProtection(req.url, options.scrapeOptions);
  const seeded = seedRow(req.url, deps.config);
  if ('problem' in seeded) throw new DomainError('invalid', seeded.problem);
  await checkAddress(req.url, deps.config, `Refused to scrape ${req.url}`);
  checkServiceCanRun(deps.config, options);
  return { url: req.url, options, seed: seeded.row };
}

/**
 * Commits a prepared scrape's job (its row, its frontier row, its started event). Its workflow is
 * started by awaitScrape, or by the reconciler if this process dies first. Under `opts.id` (a tool
 * call's id), a job committed earlier with that id is the job: nothing is committed or charged
 * twice. With `opts.resume`, the job takes the request's key; a unique violation means another
 * scrape holds it (scrape-resume.ts).
 */
export async function commitScrape(
  deps: Deps,
  team: Team,
  apiKeyId: string,
  scrape: PreparedScrape,
  opts: { id?: string; resume?: JobToCommit['resume'] } = {},
): Promise<ScrapeJob> {
  const id = opts.id ?? uuidv7();
  const job: ScrapeJob = { id, teamId: team.id, workflowId: newJobWorkflowId('scrape', id), url: scrape.url, limit: scrape.options.limit, kind: 'scrape' };
  const commit: JobToCommit & { id: string } = {
    kind: 'scrape',
    id: job.id,
    url: scrape.url,
    options: scrape.options,
    seed: [scrape.seed],
    resume: opts.resume,
  };
  let earlier = null as { workflowId: string | null } | null;
  await createOnce(
    () => insertJob(deps, team, apiKeyId, commit, false),
    opts.id ? async () => (earlier = await deps.db.job.findUnique({ where: { id: job.id }, select: { workflowId: true } })) : undefined,
  );
  // A job committed earlier under this id keeps its own workflow id (null on a row from before the column).
  return earlier ? { ...job, workflowId: earlier.workflowId } : job;
}

/** Validates, then commits the scrape's job (prepareScrape, commitScrape). */
export async function createScrape(deps: Deps, team: Team, apiKeyId: string, req: ScrapeRequest, opts: { id?: string } = {}): Promise<ScrapeJob> {
  return commitScrape(deps, team, apiKeyId, await prepareScrape(deps, team, req), opts);
}

/**
 * Starts the scrape's workflow and waits, at most `timeoutMs`, until its page is stored or the
 * workflow ended. With a job feed, a successful page is known stored from its notification (sent
 * in the transaction that stores it), which comes before the workflow's answer: its batch still
 * has to end and a workflow task to run. The update stays the answer for everything else (a failed
 * page, a notification lost with the feed's connection).
 */
export async function awaitScrape(deps: Deps, job: ScrapeJob, timeoutMs: number, feed?: JobFeed, step?: (name: string) => void): Promise<void> {
  let pageStored: () => void = () => undefined;
  const stored = new Promise<true>((resolve) => (pageStored = () => resolve(true)));
  // Subscribed before the start, so no notification can come first; a feed that cannot connect is only slower.
  const unsubscribe = feed?.subscribe(job.id, { stored: pageStored, ended: () => undefined, gap: () => undefined }).catch((err: unknown) => {
    deps.log.warn('job feed unavailable; the scrape waits for its workflow', { crawlId: job.id, error: (err as Error).message });
    return undefined;
  });
  try {
    await awaitWorkflow(deps, job, timeoutMs, feed && stored, step);
  } finally {
    (await unsubscribe)?.();
  }
}

async function awaitWorkflow(deps: Deps, job: ScrapeJob, timeoutMs: number, stored: Promise<true> | undefined, step?: (name: string) => void): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  try {
    if (await startScrapeAndAwaitPage(deps, job, deadline, stored, step)) return;
  } catch (err) {
    if (Date.now() >= deadline) throw scrapeTimeout(job.id, timeoutMs);
    // The run ended before the update reached it, the update failed (the run was cancelled), or the
    // server refused the call (a cluster without update-with-start): a plain start, which leaves an
    // existing run alone, then the run's end tells. A start that fails here is the reconciler's.
    deps.log.warn('scrape update-with-start failed; starting the workflow and waiting for its end', { crawlId: job.id, error: (err as Error).message });
    await startJobWorkflow(deps, job).catch((startErr: unknown) =>
      deps.log.warn('crawl workflow start failed; the reconciler will start it', { crawlId: job.id, error: (startErr as Error).message }),
    );
  }
  try {
    await deps.temporal.connection.withDeadline(deadline, () => deps.temporal.workflow.getHandle(jobWorkflowId(job)).result());
  } catch (err) {
    // A failed workflow stored no page; scrapeAnswer reports the job's error.
    if (err instanceof WorkflowFailedError) return;
    if (Date.now() >= deadline) throw scrapeTimeout(job.id, timeoutMs);
    throw err;
  }
}

function scrapeTimeout(id: string, timeoutMs: number): DomainError {
  return new DomainError(
    'timeout',
    `The scrape did not finish within its timeout of ${timeoutMs} ms. It goes on: GET /v2/scrape/${id} returns its result once it is done.`,
    SCRAPE_TIMEOUT,
    { id },
  );
}

const SCRAPE_TIMEOUT = 'SCRAPE_TIMEOUT';

/** The 408 of awaitScrape: the request's wait ended, the scrape goes on. */
export function isScrapeTimeout(err: unknown): err is DomainError {
  return err instanceof DomainError && err.code === SCRAPE_TIMEOUT;
}

type ScrapePage = { id: bigint; success: boolean; error: string | null; document: unknown; purgedAt: Date | null } | null;

/** Its one page, raw (an ORM call would cost its query's compilation: src/jobs/job-row.ts). */
async function readScrapePage(db: Db, jobId: string): Promise<ScrapePage> {
  const [page] = await db.$queryRaw<NonNullable<ScrapePage>[]>`
    SELECT id, success, error, document, purged_at AS "purgedAt" FROM job_page WHERE job_id = ${jobId}::uuid LIMIT 1`;
  return page ?? null;
}

/** The answer of POST /v2/scrape once its wait is over: the job's row and its page are read at once. */
export async function scrapeAnswerOf(db: Db, jobId: string): Promise<Record<string, unknown>> {
  const [job, page] = await Promise.all([db.job.findUniqueOrThrow({ where: { id: jobId } }), readScrapePage(db, jobId)]);
  return answerWith(db, job, page);
}

/**
 * The document of a finished scrape, with its id in metadata.scrapeId (where the SDKs look), or
 * the error its page or job ended with. A zero-data-retention scrape hands its document out once.
 */
export async function scrapeAnswer(db: Db, job: Job): Promise<Record<string, unknown>> {
  return answerWith(db, job, await readScrapePage(db, job.id));
}

async function answerWith(db: Db, job: Job, page: ScrapePage): Promise<Record<string, unknown>> {
  if (!page) {
    if (job.status === 'scraping') throw new DomainError('conflict', `The scrape ${job.id} is still running`, 'SCRAPE_IN_PROGRESS');
    throw new DomainError('job-failed', job.error ?? `The scrape ended (${job.status}) without a page`, 'SCRAPE_FAILED');
  }
  if (!page.success) throw new DomainError('job-failed', page.error ?? 'The page could not be scraped', 'SCRAPE_FAILED');
  if (page.purgedAt) throw new DomainError('not-found', 'The scrape had zero data retention: its document was handed out once and erased', 'ZDR_PURGED');
  const document = page.document as { metadata?: Record<string, unknown> };
  if (isZeroDataRetention(job)) {
    await db.jobPage.updateMany({ where: { id: page.id, purgedAt: null }, data: { document: {}, sizeBytes: 0, purgedAt: new Date() } });
  }
  return { ...document, metadata: { ...document.metadata, scrapeId: job.id } };
}
