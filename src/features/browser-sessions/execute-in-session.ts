// Running code in a live session through its workflow's execute Update: what
// POST /v2/browser/{id}/execute and POST /v2/scrape/{id}/interact both do.
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../../platform/db/prisma.ts';
import { DomainError } from '../../platform/domain-error.ts';
import type { BrowserSession } from '../../generated/prisma/client.ts';
import { executeUpdate, SESSION_ENDED, sessionWorkflowId, type ExecuteInput } from './definitions.ts';
import { closeOrphan, sessionEnded } from './end-session.ts';
import type { ExecuteResponse } from './execute/execute-response.ts';

export const sessionDestroyed = () => new DomainError('gone', 'Browser session has been destroyed.', 'SESSION_DESTROYED');

export async function executeInSession(deps: { db: Db; temporal: Client }, row: BrowserSession, input: ExecuteInput): Promise<ExecuteResponse> {
  if (sessionEnded(row)) throw sessionDestroyed();
  try {
    return await deps.temporal.workflow.getHandle(sessionWorkflowId(row.id)).executeUpdate(executeUpdate, { args: [input] });
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === SESSION_ENDED) throw sessionDestroyed();
    const now =
      err instanceof WorkflowNotFoundError ? await closeOrphan(deps.db, row.id) : await deps.db.browserSession.findUniqueOrThrow({ where: { id: row.id } });
    if (sessionEnded(now)) throw sessionDestroyed();
    if (err instanceof WorkflowUpdateFailedError)
      throw new DomainError('job-failed', err.cause?.message ?? 'Failed to execute code in browser session.', 'EXECUTE_FAILED');
    throw err;
  }
}
