// POST /v2/browser after validation: the session's row (admission checks), its
// workflow, and the wait until its browser is up.
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { Db } from '../../../platform/db/prisma.ts';
import { DomainError } from '../../../platform/domain-error.ts';
import { retryInBackground } from '../../../platform/retry-in-background.ts';
import type { BrowserSession, Team } from '../../../generated/prisma/client.ts';
import { SessionStatusAttribute, TeamIdAttribute } from '../../../platform/temporal/search-attribute-keys.ts';
import { destroySignal, readyUpdate, sessionWorkflowId, type PageOpening, type SessionInput } from '../protocol/definitions.ts';
import type { CreateSessionRequest } from './session-request.ts';
import { createSessionRow } from './session-store.ts';
import { countedStart } from './start-metrics.ts';
import { proxyCountryRefusal } from '../../../platform/net/proxy-pools/proxy-router.ts';
import type { browserSessionWorkflow } from '../workflow/workflow.ts';
import type { BrowserSessionsFeatureSettings } from '../config.ts';

type Deps = { db: Db; temporal: Client; config: BrowserSessionsFeatureSettings };

/** How long POST /v2/browser waits for the browser to come up. */
export const READY_TIMEOUT_MS = 120_000;

/** A session that reopens a scrape's page (POST /v2/scrape/{id}/interact). */
export interface ScrapeOpening {
  scrapeId: string;
  opening: PageOpening;
}

export interface StartedSession {
  row: BrowserSession;
  /** Why the scrape's page did not open as the scrape saw it, if it did not. */
  openingWarning?: string;
}

export interface SessionStartOptions {
  scrape?: ScrapeOpening;
  /** The session's id (a tool call's), instead of a new one: a second create with it fails as a duplicate. */
  id?: string;
  /** When the request arrived (Date.now()): the READY_TIMEOUT_MS wait counts from it. Now when absent. */
  arrivedAt?: number;
  /**
   * Whether the session, once up, still reaches its caller: false for a request answered 503 at its deadline
   * whose key will not hand the session to the retry. Such a session is ended, unbilled, as a failed start is.
   */
  answerWanted?: () => boolean;
}

export function startSession(
  deps: Deps,
  team: Team,
  apiKeyId: string | null,
  req: CreateSessionRequest,
  onCreated: (id: string) => void,
  opts: SessionStartOptions = {},
): Promise<StartedSession> {
  return countedStart(() => launchSession(deps, team, apiKeyId, req, onCreated, opts));
}

async function launchSession(
  deps: Deps,
  team: Team,
  apiKeyId: string | null,
  req: CreateSessionRequest,
  onCreated: (id: string) => void,
  { scrape, id, arrivedAt = Date.now(), answerWanted }: SessionStartOptions,
): Promise<StartedSession> {
  // From the arrival, so time spent waiting on a dependency before the workflow started counts too:
  // a repeat of the request (same idempotency key) waits for this one, and must not wait longer.
  const readyBy = arrivedAt + READY_TIMEOUT_MS;
  const noCountry = proxyCountryRefusal(deps.config.crawl.proxyPools, req.location?.country);
  if (noCountry) throw new DomainError('invalid', noCountry, 'PROXY_COUNTRY_NOT_CONFIGURED');
  const row = await createSessionRow(deps.db, team, apiKeyId, req, new Date(), { scrapeId: scrape?.scrapeId, id });
  onCreated(row.id);
  const input: SessionInput = {
    sessionId: row.id,
    teamId: team.id,
    apiKeyId,
    ttlSeconds: row.ttlSeconds,
    activityTtlSeconds: row.activityTtlSeconds,
    createdAtMs: row.createdAt.getTime(),
    ...(req.profile && { profile: req.profile }),
    blockAds: req.blockAds,
    ...(req.location && { location: req.location }),
    proxy: req.proxy,
    ...(scrape && { opening: scrape.opening }),
    historyEvents: deps.config.browserSessions.historyEvents,
  };
  let ready;
  try {
    const handle = await deps.temporal.workflow.start<typeof browserSessionWorkflow>('browserSessionWorkflow', {
      workflowId: sessionWorkflowId(row.id),
      taskQueue: deps.config.temporal.taskQueue,
      args: [input],
      typedSearchAttributes: [
        { key: TeamIdAttribute, value: team.id },
        { key: SessionStatusAttribute, value: 'starting' },
      ],
      staticSummary: `${scrape ? `Interaction with scrape ${scrape.scrapeId}` : 'Browser session'} (ttl ${row.ttlSeconds} s, idle ${row.activityTtlSeconds} s)`,
    });
    ready = await deps.temporal.connection.withDeadline(readyBy, () => handle.executeUpdate(readyUpdate));
  } catch (err) {
    await abandonStart(deps, row, err);
    if (err instanceof WorkflowUpdateFailedError) throw new DomainError('job-failed', 'Failed to create browser session.', 'SESSION_START_FAILED');
    if (Date.now() >= readyBy)
      throw new DomainError(
        'job-failed',
        `Failed to create browser session: the browser was not up within ${READY_TIMEOUT_MS / 1000} s of the request.`,
        'SESSION_START_FAILED',
      );
    throw err;
  }
  let fresh: BrowserSession;
  try {
    if (answerWanted && !answerWanted()) throw new Error('its request was answered 503 while the session started, and nothing will hand it the session');
    fresh = await deps.db.browserSession.findUniqueOrThrow({ where: { id: row.id } });
  } catch (err) {
    await abandonStart(deps, row, err);
    throw err;
  }
  if (ready.status !== 'active') {
    const reason = ready.reason ?? fresh.endReason ?? 'unknown';
    if (/no browser host/.test(reason)) throw new DomainError('unavailable', `Failed to create browser session: ${reason}`, 'NO_BROWSER_HOST');
    throw new DomainError('job-failed', `Failed to create browser session: ${reason}`, 'SESSION_START_FAILED');
  }
  return { row: fresh, ...(ready.openingWarning && { openingWarning: ready.openingWarning }) };
}

/** How often the end of an unanswered start is sent again while Temporal does not take it. */
const ABANDON_RETRY_MS = 1000;

/**
 * A start that cannot be answered leaves nothing running: the caller hears an error (a 503 while
 * a dependency is away) and sends the request again, which must not find a first session of its
 * own still up and billed. The workflow, if it began, ends the session as an error, unbilled: the
 * signal is sent again every second while Temporal does not take it (a killed frontend), for as
 * long as the session could live. A row with no workflow is closed here, once: the workflow, when
 * it runs, writes the row itself.
 */
async function abandonStart(deps: Deps, row: { id: string; ttlSeconds: number }, cause: unknown): Promise<void> {
  const why = (cause as Error).message;
  const handle = deps.temporal.workflow.getHandle(sessionWorkflowId(row.id));
  const end = () =>
    handle.signal(destroySignal, { startUnanswered: why }).catch((err: unknown) => {
      // Never started: nothing to end.
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    });
  await retryInBackground(end, { everyMs: ABANDON_RETRY_MS, forMs: row.ttlSeconds * 1000 }).catch(() => undefined);
  await deps.db.browserSession
    .updateMany({
      where: { id: row.id, status: 'starting' },
      data: { status: 'error', endReason: `the session could not be started: ${why}`, endedAt: new Date(), durationMs: 0 },
    })
    .catch(() => undefined);
}
