import { Router, type Request, type Response } from 'express';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { deadlineOf } from '../../platform/http/request-deadline.ts';
import { noteActivityJob, noteActivityRecorded, writeActivityRow } from '../../platform/http/activity-log.ts';
import { ownJob } from '../../jobs/job-routes.ts';
import { scrapeRequestSchema, type ScrapeRequest } from '../../page/scrape-request.ts';
import { awaitScrape, commitScrape, isScrapeTimeout, prepareScrape, scrapeAnswer, scrapeAnswerOf } from '../../jobs/scrape-job.ts';
import { attachedScrape, findKeyHolder, keepResumable, resumableTimeout, startOrAttachScrape, type ResumableScrape } from '../../jobs/scrape-resume.ts';
import { answerFromCache, cachedLoadOf } from '../../jobs/cached-scrape.ts';
import type { PageStoreDb } from '../../jobs/pages/page-store.ts';
import { SqlTransactions } from '../../platform/db/sql-transactions.ts';
import { dependencyFailure } from '../../platform/dependency-failure.ts';
import { holdKeyUntil } from '../../platform/http/idempotency.ts';
import { markStep } from '../../platform/http/server-timing.ts';
import { scrapeResumeKey } from '../../jobs/scrape-resume-match.ts';
import { createJobFeed } from '../../jobs/job-feed.ts';
import { cloudServiceNotOffered } from '../../platform/cloud-services.ts';
import { alexandriaScrapeRequestSchema, isAlexandriaRequest } from './alexandria-request.ts';
import type { SingleScrapeFeatureSettings } from './config.ts';

/** How long the gateway's scrape feed stays connected after its last waiting scrape. */
const FEED_LINGER_MS = 30_000;
/** Connections of the gateway's pool for scrapes answered from the page cache (a transaction of a few ms each). */
const CACHE_ANSWER_CONNECTIONS = 4;

/** A scrape answered from the page cache by the gateway (its answer), or the scrape to wait for. */
type Begun = { cached: Record<string, unknown> } | ResumableScrape;

/**
 * Checks the request, then answers it from the page cache when a copy serves it and no scrape of the
 * same request is at work; else attaches it to that scrape or commits a new one (its workflow is
 * started by awaitScrape). The cache's answer writes the request's activity log row with its job.
 */
async function beginScrape(
  deps: GatewayDeps<SingleScrapeFeatureSettings>,
  store: PageStoreDb,
  req: Request,
  res: Response,
  request: ScrapeRequest,
  resumeKey: string | undefined,
): Promise<Begun> {
  const { team, apiKeyId } = authOf(res);
  const step = (name: string) => markStep(res, name);
  const prepared = await prepareScrape(deps, team, request, deps.config.scrape.pageBudgetMs);
  step('checks');
  const [load, holder] = await Promise.all([cachedLoadOf(deps.db, team.id, prepared), resumeKey ? findKeyHolder(deps.db, team.id, resumeKey) : undefined]);
  step('lookup');
  if (load && !attachedScrape(holder, team, prepared)) {
    let jobId = '';
    const cached = await answerFromCache(deps, store, team, apiKeyId, prepared, load, {
      resume: resumeKey ? { key: resumeKey, replaces: holder?.id } : undefined,
      step,
      alsoWrite: (tx, id) => writeActivityRow(tx, req, res, 200, (jobId = id)),
    });
    if (cached) {
      noteActivityRecorded(res, jobId);
      return { cached };
    }
  }
  if (resumeKey) return startOrAttachScrape(deps, team, apiKeyId, prepared, resumeKey, { holder, step });
  const job = await commitScrape(deps, team, apiKeyId, prepared);
  step('job');
  return { job, settled: false };
}

export function scrapeRoutes(deps: GatewayDeps<SingleScrapeFeatureSettings>): Router {
  const router = Router();
  // A successful page answers its caller from its notification, before its workflow does. The
  // connection outlives each scrape a while: scrapes one after another would each open one.
  const databaseUrl = deps.config.database.url;
  const feed = databaseUrl ? createJobFeed({ db: deps.db, databaseUrl, log: deps.log, lingerMs: FEED_LINGER_MS, limits: deps.config.database }) : undefined;
  // A scrape answered from the page cache writes its job and page as a worker's batch writes pages: raw SQL on a pool of its own.
  const store = databaseUrl ? new SqlTransactions({ databaseUrl, max: CACHE_ANSWER_CONNECTIONS, limits: deps.config.database }) : deps.db;

  router.post('/scrape', async (req, res) => {
    if (isAlexandriaRequest(req.body)) {
      alexandriaScrapeRequestSchema.parse(req.body);
      throw cloudServiceNotOffered('alexandria');
    }
    // The body read, the activity log's hook and the idempotency key's claim (bench/scrape.ts splits the round trip by these marks).
    markStep(res, 'claim');
    const request = scrapeRequestSchema.parse(req.body ?? {});
    // The timeout counts from the request's arrival: authentication and the checks before the route took their part of it.
    const { arrivedAt } = deadlineOf(res);
    deadlineOf(res).setTimeout(request.timeout);
    // Zero data retention hands the document out once: two requests cannot share one scrape.
    const resumeKey = request.zeroDataRetention ? undefined : scrapeResumeKey(req.body);
    const step = (name: string) => markStep(res, name);
    const scrape = await beginScrape(deps, store, req, res, request, resumeKey);
    if ('cached' in scrape) return void res.json({ success: true, data: scrape.cached });
    noteActivityJob(res, scrape.job.id);
    try {
      if (!scrape.settled) await awaitScrape(deps, scrape.job, Math.max(0, request.timeout - (Date.now() - arrivedAt)), feed, step);
      step('page');
      const data = await scrapeAnswerOf(deps.db, scrape.job.id);
      step('answer');
      res.json({ success: true, data });
    } catch (err) {
      if (!resumeKey) throw err;
      if (dependencyFailure(err)) {
        // Answered 503: the request sent again (after this one's idempotency key is free) is answered by this scrape.
        holdKeyUntil(res, keepResumable(deps, scrape.job.id, resumeKey));
        throw err;
      }
      if (!isScrapeTimeout(err)) throw err;
      const answer = await resumableTimeout(deps, scrape.job.id, resumeKey, err);
      if (answer.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(answer.retryAfterSeconds));
      throw answer.error;
    }
  });

  router.get('/scrape/:id', async (req, res) => {
    const job = await ownJob(deps.db, req.params.id, authOf(res).team.id, 'scrape');
    res.json({ success: true, data: await scrapeAnswer(deps.db, job) });
  });

  return router;
}
