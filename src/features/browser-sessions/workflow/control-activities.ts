// The session workflow's database work, on the control queue: choosing a host
// for a new session, and recording its end with the one charge it costs.
import { ApplicationFailure } from '@temporalio/activity';
import type { ActivityDeps } from '../../../platform/temporal/activity-deps.ts';
import { chargeSteps } from '../../../platform/usage/credits.ts';
import { Prisma } from '../../../generated/prisma/client.ts';
import type { Db } from '../../../platform/db/prisma.ts';
import { pickHost } from '../shared/host-registry.ts';
import { sessionCredits } from '../shared/session-credits.ts';
import { recordSessionEnd } from '../shared/session-metrics.ts';
import type { BrowserSessionsFeatureSettings } from '../config.ts';

export interface SessionEnd {
  sessionId: string;
  status: 'destroyed' | 'error';
  reason: string;
  sessionDurationMs: number;
  /** The user never got the session (its browser did not come up, or its start could not be answered). */
  unbilled?: boolean;
}

export interface RecordedEnd {
  creditsBilled: number;
  sessionDurationMs: number;
}

/**
 * In one statement (a DELETE waits for it, and PostgreSQL may be slow): the row ended unless an end
 * was recorded before, its charge made with it, and the profile it saved to let go. Everything the
 * charge needs of the row is read from the row the statement ends. Undefined when the end was
 * recorded before.
 */
async function recordEndOnce(db: Db, input: SessionEnd): Promise<{ credits: number } | undefined> {
  const credits = input.unbilled ? 0 : sessionCredits(input.sessionDurationMs);
  const charge = {
    teamId: Prisma.sql`(SELECT team_id FROM ended)`,
    apiKeyId: Prisma.sql`(SELECT api_key_id FROM ended)`,
    endpoint: 'browser' as const,
    jobId: input.sessionId,
  };
  const [{ ended }] = await db.$queryRaw<{ ended: boolean }[]>`
    WITH ended AS (
      UPDATE browser_session
      SET status = ${input.status}, end_reason = ${input.reason}, duration_ms = ${input.sessionDurationMs}, credits_billed = ${credits},
        ended_at = created_at + ${input.sessionDurationMs}::int * interval '1 millisecond'
      WHERE id = ${input.sessionId}::uuid AND credits_billed IS NULL
      RETURNING id, team_id, api_key_id, profile_name, profile_save
    ),
    writer AS (
      UPDATE browser_profile p SET writer_session_id = NULL
      FROM ended
      WHERE ended.profile_save AND p.team_id = ended.team_id AND p.name = ended.profile_name AND p.writer_session_id = ended.id
    ),
    ${chargeSteps(charge, Prisma.sql`SELECT 'session', ${credits}::int, 0 FROM ended`)}
    SELECT EXISTS (SELECT 1 FROM ended) AS ended`;
  return ended ? { credits } : undefined;
}

export function createSessionControlActivities({ db, config }: ActivityDeps<BrowserSessionsFeatureSettings>) {
  return {
    async pickBrowserHost(sessionId: string): Promise<{ hostId: string; taskQueue: string }> {
      const host = await pickHost(db, config.temporal.taskQueue, config.browserSessions);
      if (!host) {
        throw ApplicationFailure.create({
          type: 'NoBrowserHost',
          message: `no browser host is running with room for session ${sessionId} (start one: npm start runs one; BROWSER_HOST_MAX_SESSIONS sets the room)`,
          nonRetryable: true,
        });
      }
      return { hostId: host.id, taskQueue: host.taskQueue };
    },

    /** Marks the session ended and bills its duration once (the ledger key is the session id). */
    async finishBrowserSession(input: SessionEnd): Promise<RecordedEnd> {
      const recorded = await recordEndOnce(db, input);
      if (!recorded) {
        // Recorded before (a retry, or a local activity run again by a workflow task retried with a later clock): what was recorded stands.
        const before = await db.browserSession.findUniqueOrThrow({ where: { id: input.sessionId }, select: { creditsBilled: true, durationMs: true } });
        return { creditsBilled: before.creditsBilled ?? 0, sessionDurationMs: before.durationMs ?? input.sessionDurationMs };
      }
      // Counted by the attempt that recorded the end, so a retried activity counts the session once.
      recordSessionEnd(input.status, input.reason, input.sessionDurationMs);
      return { creditsBilled: recorded.credits, sessionDurationMs: input.sessionDurationMs };
    },
  };
}

export type SessionControlActivities = ReturnType<typeof createSessionControlActivities>;
