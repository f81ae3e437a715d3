import { Router } from 'express';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { deadlineOf } from '../../platform/http/request-deadline.ts';
import { noteActivityJob } from '../../platform/http/activity-log.ts';
import { ownJob } from '../../jobs/job-routes.ts';
import { scrapeRequestSchema, type ScrapeRequest } from '../../page/scrape-request.ts';
import type { Team } from '../../generated/prisma/client.ts';
import { awaitScrape, commitScrape, isScrapeTimeout, prepareScrape, scrapeAnswer, scrapeAnswerOf } from '../../jobs/scrape-job.ts';
import { keepResumable, resumableTimeout, startOrAttachScrape, type ResumableScrape } from '../../jobs/scrape-resume.ts';
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

/** A scrape that shares no key: checked, then committed. */
async function newScrape(
  deps: GatewayDeps<SingleScrapeFeatureSettings>,
  team: Team,
  apiKeyId: string,
  request: ScrapeRequest,
  step: (name: string) => void,
): Promise<ResumableScrape> {
  const prepared = await prepareScrape(deps, team, request, deps.config.scrape.pageBudgetMs);
  step('checks');
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
    const { team, apiKeyId } = authOf(res);
    // Zero data retention hands the document out once: two requests cannot share one scrape.
    const resumeKey = request.zeroDataRetention ? undefined : scrapeResumeKey(req.body);
    const step = (name: string) => markStep(res, name);
    const scrape: ResumableScrape = resumeKey
      ? await startOrAttachScrape(deps, team, apiKeyId, request, resumeKey, step)
      : await newScrape(deps, team, apiKeyId, request, step);
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
