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

interface EndedRow {
  id: string;
  teamId: string;
  apiKeyId: string | null;
  createdAt: Date;
  profileName: string | null;
  profileSave: boolean;
}

/**
 * In one statement: the row ended (unless an end was recorded before), its charge made with it,
 * and the profile it saved to let go. Undefined when the end was recorded before.
 */
async function recordEndOnce(db: Db, row: EndedRow, input: SessionEnd): Promise<{ credits: number } | undefined> {
  const credits = input.unbilled ? 0 : sessionCredits(input.sessionDurationMs);
  const endedAt = new Date(row.createdAt.getTime() + input.sessionDurationMs);
  const charge = { teamId: row.teamId, apiKeyId: row.apiKeyId, endpoint: 'browser' as const, jobId: row.id };
  const writer =
    row.profileName && row.profileSave
      ? Prisma.sql`, writer AS (
          UPDATE browser_profile SET writer_session_id = NULL
          WHERE team_id = ${row.teamId}::uuid AND name = ${row.profileName} AND writer_session_id = ${row.id}::uuid)`
      : Prisma.empty;
  const [{ ended }] = await db.$queryRaw<{ ended: boolean }[]>`
    WITH ended AS (
      UPDATE browser_session
      SET status = ${input.status}, end_reason = ${input.reason}, ended_at = ${endedAt}, duration_ms = ${input.sessionDurationMs}, credits_billed = ${credits}
      WHERE id = ${row.id}::uuid AND credits_billed IS NULL
      RETURNING id
    )${writer},
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

    /**
     * Marks the session ended and bills its duration once (the ledger key is the session id). One
     * read and one statement: the end is recorded while PostgreSQL may be slow (a DELETE waits for it).
     */
    async finishBrowserSession(input: SessionEnd): Promise<RecordedEnd> {
      // What the statement needs of the row never changes once it exists.
      const row = await db.browserSession.findUniqueOrThrow({
        where: { id: input.sessionId },
        select: { teamId: true, apiKeyId: true, createdAt: true, profileName: true, profileSave: true },
      });
      const recorded = await recordEndOnce(db, { ...row, id: input.sessionId }, input);
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
