// POST /v2/browser after validation: the session's row (admission checks), its
// workflow, and the wait until its browser is up.
import { WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { Config } from '../../platform/config.ts';
import type { Db } from '../../platform/db/prisma.ts';
import { DomainError } from '../../platform/domain-error.ts';
import type { BrowserSession, Team } from '../../generated/prisma/client.ts';
import { SessionStatusAttribute, TeamIdAttribute } from '../../platform/temporal/search-attribute-keys.ts';
import { readyUpdate, sessionWorkflowId, type PageOpening, type SessionInput } from './definitions.ts';
import type { CreateSessionRequest } from './session-request.ts';
import { createSessionRow } from './session-store.ts';
import { countedStart } from './session-metrics.ts';
import type { browserSessionWorkflow } from './workflow.ts';

type Deps = { db: Db; temporal: Client; config: Config };

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
  { scrape, id }: SessionStartOptions,
): Promise<StartedSession> {
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
    ...(scrape && { opening: scrape.opening }),
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
    ready = await deps.temporal.connection.withDeadline(Date.now() + READY_TIMEOUT_MS, () => handle.executeUpdate(readyUpdate));
  } catch (err) {
    // Nothing runs for this row: it is closed here, so it never counts against the team.
    await deps.db.browserSession.updateMany({
      where: { id: row.id, status: 'starting' },
      data: { status: 'error', endReason: `the session could not be started: ${(err as Error).message}`, endedAt: new Date(), durationMs: 0 },
    });
    if (err instanceof WorkflowUpdateFailedError) throw new DomainError('job-failed', 'Failed to create browser session.', 'SESSION_START_FAILED');
    throw err;
  }
  const fresh = await deps.db.browserSession.findUniqueOrThrow({ where: { id: row.id } });
  if (ready.status !== 'active') {
    const reason = ready.reason ?? fresh.endReason ?? 'unknown';
    if (/no browser host/.test(reason)) throw new DomainError('unavailable', `Failed to create browser session: ${reason}`, 'NO_BROWSER_HOST');
    throw new DomainError('job-failed', `Failed to create browser session: ${reason}`, 'SESSION_START_FAILED');
  }
  return { row: fresh, ...(ready.openingWarning && { openingWarning: ready.openingWarning }) };
}
