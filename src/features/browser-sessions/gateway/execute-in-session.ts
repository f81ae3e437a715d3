// Running code in a live session: what POST /v2/browser/{id}/execute, POST
// /v2/scrape/{id}/interact and the agent's browser tool do. The session's workflow
// admits the execute (admitExecute: the session is active, the execute counted and
// its idle clock held), the code goes straight to the session's host through its
// relay, and the execute's end is signalled. Workers of the build before
// admitExecute get the older execute Update, which runs the code as an activity.
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../../../platform/db/prisma.ts';
import { DomainError } from '../../../platform/domain-error.ts';
import type { Logger } from '../../../platform/log.ts';
import type { BrowserSession } from '../../../generated/prisma/client.ts';
import { admitExecuteUpdate, executeEndedSignal, executeUpdate, SESSION_ENDED, sessionWorkflowId } from '../protocol/definitions.ts';
import { closeOrphan, sessionEnded } from './end-session.ts';
import { EXECUTE_ANSWER_GRACE_MS } from '../protocol/execute-limits.ts';
import type { ExecuteCall } from '../protocol/execute-request.ts';
import type { ExecuteResponse } from '../protocol/execute-response.ts';
import { hostById, type HostRecord } from '../shared/host-registry.ts';
import { executeThroughRelay, RelayExecuteError } from './relay-execute-client.ts';

export const sessionDestroyed = () => new DomainError('gone', 'Browser session has been destroyed.', 'SESSION_DESTROYED');
const executeFailed = (why: string) => new DomainError('job-failed', `Failed to execute code in browser session: ${why}`, 'EXECUTE_FAILED');

type ExecuteDeps = { db: Db; temporal: Client; log: Logger };

/** A workflow of the build before admitExecute rejects it as an update it has no handler for. */
export function isUnknownUpdate(err: unknown): boolean {
  return err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && /^No registered handler for update/.test(err.cause.message);
}

/** The API's answer to an execute the workflow refused or could not be asked: 410 once the session has ended. */
async function refused(deps: ExecuteDeps, row: BrowserSession, err: unknown): Promise<never> {
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === SESSION_ENDED) throw sessionDestroyed();
  const now =
    err instanceof WorkflowNotFoundError ? await closeOrphan(deps.db, row.id) : await deps.db.browserSession.findUniqueOrThrow({ where: { id: row.id } });
  if (sessionEnded(now)) throw sessionDestroyed();
  if (err instanceof WorkflowUpdateFailedError)
    throw new DomainError('job-failed', err.cause?.message ?? 'Failed to execute code in browser session.', 'EXECUTE_FAILED');
  throw err;
}

async function runOnHost(
  deps: ExecuteDeps,
  row: BrowserSession,
  hostId: string,
  hostOfRow: Promise<HostRecord | undefined> | undefined,
  call: ExecuteCall,
): Promise<ExecuteResponse> {
  const host = (row.hostId === hostId ? await hostOfRow : undefined) ?? (await hostById(deps.db, hostId));
  if (!host) throw executeFailed(`browser host ${hostId} is not registered`);
  try {
    return await executeThroughRelay(host, row.id, call);
  } catch (err) {
    if (!(err instanceof RelayExecuteError)) throw err;
    if (err.kind === 'destroyed') throw sessionDestroyed();
    if (err.kind === 'unreachable' && sessionEnded(await deps.db.browserSession.findUniqueOrThrow({ where: { id: row.id } }))) throw sessionDestroyed();
    throw executeFailed(err.message);
  }
}

async function executeByActivity(deps: ExecuteDeps, row: BrowserSession, handle: WorkflowHandle, call: ExecuteCall): Promise<ExecuteResponse> {
  try {
    // The older Update's argument, as workers of the build before read it: its timeout in seconds.
    return await handle.executeUpdate(executeUpdate, {
      args: [{ language: call.language, code: call.code, timeoutSeconds: Math.ceil(call.timeoutMs / 1000) }],
    });
  } catch (err) {
    return refused(deps, row, err);
  }
}

/** The request an execute answers, when it answers one. */
export interface ExecuteRequester {
  /** False once the request was answered without this execute (at its deadline) or its client left: the code does not start then. */
  waiting(): boolean;
  /** The code starts on its host and may run `ms`: from here the answer waits on the host alone, not on PostgreSQL or Temporal. */
  running(ms: number): void;
}

/**
 * A request answered 503 while its admission waited on a dependency is sent again by its client; if the first admission
 * then went through, its code would run beside the retry's in the same page. So the code starts only for a request still waiting.
 */
const notRunForAnsweredRequest = () =>
  new DomainError('unavailable', 'The execute was admitted after its request had been answered; its code did not run.', 'SERVICE_UNAVAILABLE');

/** call: the execute past the public API, its timeout in milliseconds. */
export async function executeInSession(deps: ExecuteDeps, row: BrowserSession, call: ExecuteCall, requester?: ExecuteRequester): Promise<ExecuteResponse> {
  if (sessionEnded(row)) throw sessionDestroyed();
  const handle = deps.temporal.workflow.getHandle(sessionWorkflowId(row.id));
  const executeId = randomUUID();
  // A session never changes host: its record is read beside the admission.
  const hostOfRow = row.hostId ? hostById(deps.db, row.hostId).catch(() => undefined) : undefined;
  let hostId: string;
  try {
    ({ hostId } = await handle.executeUpdate(admitExecuteUpdate, {
      args: [{ executeId, leaseMs: call.timeoutMs + EXECUTE_ANSWER_GRACE_MS }],
      updateId: executeId,
    }));
  } catch (err) {
    if (isUnknownUpdate(err)) return executeByActivity(deps, row, handle, call);
    return refused(deps, row, err);
  }
  try {
    if (requester && !requester.waiting()) throw notRunForAnsweredRequest();
    requester?.running(call.timeoutMs + EXECUTE_ANSWER_GRACE_MS);
    return await runOnHost(deps, row, hostId, hostOfRow, call);
  } finally {
    // After the answer is written (the call's own work would delay it by milliseconds), and not awaited: the idle
    // clock starts again when the workflow hears it; a lost signal holds the clock only until the lease's end.
    setImmediate(() => {
      handle.signal(executeEndedSignal, { executeId }).catch((err: unknown) => {
        deps.log.warn('execute end not signalled', { sessionId: row.id, executeId, error: (err as Error).message });
      });
    });
  }
}
