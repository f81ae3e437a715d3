// The session workflow's database work, on the control queue: choosing a host
// for a new session, and recording its end with the one charge it costs.
import { ApplicationFailure } from '@temporalio/activity';
import type { ActivityDeps } from '../../../platform/temporal/activity-deps.ts';
import { chargeOnce } from '../../../platform/usage/credits.ts';
import { pickHost } from '../shared/host-registry.ts';
import { sessionCredits } from '../shared/session-credits.ts';
import { releaseWriter } from '../shared/profile-store.ts';
import { recordSessionEnd } from '../shared/session-metrics.ts';
import type { BrowserSessionsFeatureSettings } from '../config.ts';

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
    async finishBrowserSession(input: {
      sessionId: string;
      status: 'destroyed' | 'error';
      reason: string;
      sessionDurationMs: number;
      /** The user never got the session (its browser did not come up, or its start could not be answered). */
      unbilled?: boolean;
    }): Promise<{ creditsBilled: number; sessionDurationMs: number }> {
      const { creditsBilled, sessionDurationMs, recorded } = await db.$transaction(async (tx) => {
        const row = await tx.browserSession.findUniqueOrThrow({ where: { id: input.sessionId } });
        if (row.profileName && row.profileSave) await releaseWriter(tx, row.teamId, row.profileName, row.id);
        // Recorded before (a retry, or a local activity run again by a workflow task retried with a later clock): what was recorded stands.
        if (row.creditsBilled !== null)
          return { creditsBilled: row.creditsBilled, sessionDurationMs: row.durationMs ?? input.sessionDurationMs, recorded: false };
        const credits = input.unbilled ? 0 : sessionCredits(input.sessionDurationMs);
        await chargeOnce(tx, { teamId: row.teamId, apiKeyId: row.apiKeyId, endpoint: 'browser', jobId: row.id, itemKey: 'session', credits });
        await tx.browserSession.update({
          where: { id: input.sessionId },
          data: {
            status: input.status,
            endReason: input.reason,
            endedAt: new Date(row.createdAt.getTime() + input.sessionDurationMs),
            durationMs: input.sessionDurationMs,
            creditsBilled: credits,
          },
        });
        return { creditsBilled: credits, sessionDurationMs: input.sessionDurationMs, recorded: true };
      });
      // Counted by the attempt that recorded the end, so a retried activity counts the session once.
      if (recorded) recordSessionEnd(input.status, input.reason, input.sessionDurationMs);
      return { creditsBilled, sessionDurationMs };
    },
  };
}

export type SessionControlActivities = ReturnType<typeof createSessionControlActivities>;
