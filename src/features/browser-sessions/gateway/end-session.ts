// Ending a session on request: DELETE /v2/browser/{id} and the admin CLI's
// `sessions end` both go through here, so a session is destroyed and billed the
// same way whoever ends it.
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Db } from '../../../platform/db/prisma.ts';
import type { BrowserSession } from '../../../generated/prisma/client.ts';
import { destroySignal, sessionWorkflowId, type SessionSummary } from '../protocol/definitions.ts';

/** How long ending a session waits for the browser to be closed and the session billed. */
const DESTROY_WAIT_MS = 90_000;

export interface EndedSession {
  sessionDurationMs: number;
  creditsBilled: number;
}

export const sessionEnded = (row: BrowserSession) => row.status === 'destroyed' || row.status === 'error';

function endedAnswer(row: BrowserSession): EndedSession {
  return { sessionDurationMs: row.durationMs ?? 0, creditsBilled: row.creditsBilled ?? 0 };
}

/**
 * A row that says live while no workflow runs for it (its start was lost between the two steps, or
 * its workflow failed to record the end): nothing runs or bills it, so it is closed as an error with
 * nothing charged.
 */
export async function closeOrphan(db: Db, id: string): Promise<BrowserSession> {
  await db.browserSession.updateMany({
    where: { id, status: { in: ['starting', 'active'] } },
    data: {
      status: 'error',
      endReason: 'the session has no running workflow (its start was interrupted, or its end could not be recorded)',
      endedAt: new Date(),
      durationMs: 0,
      creditsBilled: 0,
    },
  });
  return db.browserSession.findUniqueOrThrow({ where: { id } });
}

async function waitForEnd(temporal: Client, id: string): Promise<SessionSummary> {
  const handle = temporal.workflow.getHandle(sessionWorkflowId(id));
  return temporal.connection.withDeadline(Date.now() + DESTROY_WAIT_MS, () => handle.result() as Promise<SessionSummary>);
}

/** Signals the session's workflow to destroy it and waits for its bill; an ended session answers what it was billed. */
export async function endSession(db: Db, temporal: Client, row: BrowserSession): Promise<EndedSession> {
  if (sessionEnded(row)) return endedAnswer(row);
  try {
    await temporal.workflow.getHandle(sessionWorkflowId(row.id)).signal(destroySignal);
    const summary = await waitForEnd(temporal, row.id);
    return { sessionDurationMs: summary.sessionDurationMs, creditsBilled: summary.creditsBilled };
  } catch (err) {
    const now = err instanceof WorkflowNotFoundError ? await closeOrphan(db, row.id) : await db.browserSession.findUniqueOrThrow({ where: { id: row.id } });
    if (sessionEnded(now)) return endedAnswer(now);
    throw err;
  }
}
