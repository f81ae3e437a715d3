// POST and DELETE /v2/scrape/{id}/interact: the page a finished scrape saw, kept
// open in a short-lived browser session of the team (opened again on the first
// call: the scrape's URL, headers, waitFor and page-changing actions), where code
// or a prompt runs as in POST /v2/browser/{id}/execute. One live session per
// scrape; it ends on DELETE or by its ttl and idle timer, and is billed as a
// browser session.
import type { BrowserSession, Job, Team } from '../../../../generated/prisma/client.ts';
import { isUniqueViolation } from '../../../../platform/db/prisma.ts';
import type { GatewayDeps } from '../../../../platform/http/app.ts';
import { randomUUID } from 'node:crypto';
import { DomainError } from '../../../../platform/domain-error.ts';
import { publicBase } from '../../../../platform/http/public-url.ts';
import { recordModelTokens } from '../../../../platform/usage/credits.ts';
import { configuredLlm } from '../../../../platform/llm/chat-completion.ts';
import { crawlOptions } from '../../../../jobs/crawl-options.ts';
import type { ScrapeOptions } from '../../../../page/scrape-options.ts';
import { isZeroDataRetention } from '../../../../jobs/job-status.ts';
import { jobModel } from '../../../../jobs/job-model.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PageOpening } from '../../protocol/definitions.ts';
import type { CreateSessionRequest } from '../session-request.ts';
import { endSession, type EndedSession } from '../end-session.ts';
import { executeInSession, type ExecuteRequester } from '../execute-in-session.ts';
import type { ExecuteResponse } from '../../protocol/execute-response.ts';
import { replayedActions } from '../../protocol/definitions.ts';
import { LIVE_STATUSES, ScrapeSessionExists, sessionUrls } from '../session-store.ts';
import { READY_TIMEOUT_MS, startSession } from '../start-session.ts';
import { codeForPrompt, openPageOf, READ_PAGE_CODE } from './prompt-code.ts';
import type { InteractRequest } from './interact-request.ts';
import type { InteractResponse } from './interact-response.ts';
import type { BrowserSessionsFeatureSettings } from '../../config.ts';

/** How often a call waiting for another one's opening looks at the session. */
const OPENING_POLL_MS = 200;

/** Navigation, waitFor and actions of the reopened page together, at most (the host's launch allows 90 s). */
const MAX_OPENING_MS = 60_000;

/** What the scrape opened and did, as the session opens it again. */
export function pageOpening(job: Job): PageOpening {
  const { url, scrapeOptions } = crawlOptions(job);
  // Rows written before scrape options were stored whole may lack some: the scrape's defaults then.
  const so: Partial<ScrapeOptions> = scrapeOptions ?? {};
  return {
    url,
    ...(so.headers && { headers: so.headers }),
    waitForMs: so.waitFor ?? 0,
    actions: replayedActions(so.actions ?? []),
    timeoutMs: Math.min(so.timeout ?? MAX_OPENING_MS, MAX_OPENING_MS),
  };
}

/** The scrape's ad blocking and location, which the session browses with too. */
export function scrapeBrowsing(job: Pick<Job, 'options'>): Pick<CreateSessionRequest, 'blockAds' | 'location' | 'proxy'> {
  const so: Partial<ScrapeOptions> = crawlOptions(job).scrapeOptions ?? {};
  return { blockAds: so.blockAds ?? true, proxy: so.proxy ?? 'basic', ...(so.location && { location: so.location }) };
}

async function liveInteraction(deps: GatewayDeps<BrowserSessionsFeatureSettings>, scrapeId: string): Promise<BrowserSession | null> {
  return deps.db.browserSession.findFirst({ where: { scrapeId, status: { in: LIVE_STATUSES } } });
}

/**
 * The scrape's live session, opened when there is none; a call racing another one's opening waits for
 * it, and opens one itself when that opening gave up (its request was answered, its browser failed).
 */
async function interaction(
  deps: GatewayDeps<BrowserSessionsFeatureSettings>,
  team: Team,
  apiKeyId: string | null,
  job: Job,
): Promise<{ row: BrowserSession; openingWarning?: string }> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const live = await liveInteraction(deps, job.id);
    if (live?.status === 'active') return { row: live };
    if (!live) {
      const opened = await openInteraction(deps, team, apiKeyId, job);
      if (opened) return opened;
    }
    const other = await openedByAnother(deps, job.id, deadline);
    if (other) return { row: other };
    if (Date.now() > deadline) throw interactBusy();
  }
}

const interactBusy = () => new DomainError('conflict', 'Another call is opening this scrape’s browser and it is not up; try again', 'INTERACT_BUSY');

/** Opens the scrape's session; undefined when another call holds the opening. */
async function openInteraction(deps: GatewayDeps<BrowserSessionsFeatureSettings>, team: Team, apiKeyId: string | null, job: Job) {
  const { browserSessions } = deps.config;
  try {
    return await startSession(
      deps,
      team,
      apiKeyId,
      { ttl: browserSessions.interactTtlSeconds, activityTtl: browserSessions.interactActivityTtlSeconds, streamWebView: true, ...scrapeBrowsing(job) },
      () => undefined,
      { scrape: { scrapeId: job.id, opening: pageOpening(job) } },
    );
  } catch (err) {
    // The unique index is the backstop of the check under the team's admission lock.
    if (err instanceof ScrapeSessionExists || isUniqueViolation(err)) return undefined;
    throw err;
  }
}

/** The session another call is opening for the scrape, once its browser is up; undefined once that opening has ended without one. */
async function openedByAnother(deps: GatewayDeps<BrowserSessionsFeatureSettings>, scrapeId: string, deadline: number): Promise<BrowserSession | undefined> {
  for (;;) {
    const other = await liveInteraction(deps, scrapeId);
    if (!other) return undefined;
    if (other.status === 'active') return other;
    if (Date.now() > deadline) throw interactBusy();
    await sleep(OPENING_POLL_MS);
  }
}

/**
 * Refuses a scrape that has not settled its page yet. Its caller is answered once the page is
 * stored, a moment before the job's end is recorded: a stored page counts as settled.
 */
async function settledScrape(deps: GatewayDeps<BrowserSessionsFeatureSettings>, job: Job): Promise<void> {
  if (job.status !== 'scraping') return;
  const page = await deps.db.jobPage.findFirst({ where: { jobId: job.id }, select: { id: true } });
  if (!page) throw new DomainError('conflict', `The scrape ${job.id} is still running`, 'SCRAPE_IN_PROGRESS');
}

/** `requester`: the API request the interaction answers; the code asked for (or written from the prompt) runs only while it waits. */
export async function interactWithScrape(
  deps: GatewayDeps<BrowserSessionsFeatureSettings>,
  team: Team,
  apiKeyId: string | null,
  job: Job,
  req: InteractRequest,
  requester?: ExecuteRequester,
): Promise<InteractResponse> {
  await settledScrape(deps, job);
  const llm = req.prompt ? promptModel(deps, job) : undefined;
  const { row, openingWarning } = await interaction(deps, team, apiKeyId, job);
  const urls = sessionUrls(row, publicBase(deps.config));
  const timeoutMs = req.timeout * 1000;
  let answer: ExecuteResponse;
  let code: string | undefined;
  if (req.prompt && llm) {
    const page = await executeInSession(deps, row, { language: 'node', code: READ_PAGE_CODE, timeoutMs });
    const written = await codeForPrompt(llm, req.prompt, openPageOf(page.result));
    const tokens = written.usage.promptTokens + written.usage.completionTokens;
    await recordModelTokens(deps.db, { teamId: team.id, apiKeyId, endpoint: 'browser', jobId: row.id, itemKey: `interact-prompt-${randomUUID()}` }, tokens);
    code = written.code;
    answer = await executeInSession(deps, row, { language: 'node', code, timeoutMs }, requester);
  } else {
    answer = await executeInSession(deps, row, { language: req.language, code: req.code!, timeoutMs }, requester);
  }
  return {
    ...answer,
    ...urls,
    ...(req.prompt && { output: answer.result ?? answer.stdout ?? '', code }),
    ...(openingWarning && { warning: openingWarning }),
  };
}

/** The model a prompt may use on this scrape's page, or the 400 that says why there is none. */
function promptModel(deps: GatewayDeps<BrowserSessionsFeatureSettings>, job: Job) {
  if (!configuredLlm(deps.config.llm)) {
    throw new DomainError(
      'invalid',
      'An interact prompt needs a model and none is configured on this server (LLM_BASE_URL); send code instead or ask the operator to set one.',
      'MODEL_NOT_CONFIGURED',
    );
  }
  const llm = jobModel(deps.config.llm, isZeroDataRetention(job));
  if (!llm) {
    throw new DomainError(
      'invalid',
      "An interact prompt sends the page to a model, which the scrape's zero data retention allows only for a model marked local (LLM_IS_LOCAL), and this server's is not.",
      'MODEL_NOT_LOCAL',
    );
  }
  return llm;
}

/** Ends the scrape's live session; without one, the answer says nothing was running. */
export async function stopInteraction(deps: GatewayDeps<BrowserSessionsFeatureSettings>, job: Job): Promise<EndedSession & { status: string }> {
  const live = await liveInteraction(deps, job.id);
  if (!live) throw new DomainError('not-found', `No browser is open for the scrape ${job.id}`, 'NOT_FOUND');
  const ended = await endSession(deps.db, deps.temporal, live);
  return { status: 'destroyed', ...ended };
}
