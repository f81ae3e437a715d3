// /v2/browser (and the same under /v2/interact, the spelling upstream's docs now
// use): create, list, read, delete sessions and execute code in them.
import { Router } from 'express';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { noteActivityJob } from '../../platform/http/activity-log.ts';
import { publicBase } from '../../platform/http/public-url.ts';
import { DomainError } from '../../platform/domain-error.ts';
import type { BrowserSession } from '../../generated/prisma/client.ts';
import { destroySignal, executeUpdate, SESSION_ENDED, sessionWorkflowId, type SessionSummary } from './definitions.ts';
import { executeRequestSchema } from './execute/execute-request.ts';
import { createSessionSchema, listSessionsQuerySchema, profileNameSchema } from './session-request.ts';
import { sessionOfTeam, sessionUrls, sessionView } from './session-store.ts';
import { startSession } from './start-session.ts';
import { deleteProfile } from './profiles/profile-store.ts';

const LIST_LIMIT = 1000;
/** How long DELETE waits for the browser to be closed and the session billed. */
const DESTROY_WAIT_MS = 90_000;

const destroyed = () => new DomainError('gone', 'Browser session has been destroyed.', 'SESSION_DESTROYED');
const ended = (row: BrowserSession) => row.status === 'destroyed' || row.status === 'error';

function endedAnswer(row: BrowserSession) {
  return { success: true, sessionDurationMs: row.durationMs ?? 0, creditsBilled: row.creditsBilled ?? 0 };
}

/**
 * A row that says live while no workflow runs for it (its start was lost between the two steps, or
 * its workflow failed to record the end): nothing runs or bills it, so it is closed as an error with
 * nothing charged.
 */
async function closeOrphan(db: GatewayDeps['db'], id: string): Promise<BrowserSession> {
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

export function sessionRoutes(deps: GatewayDeps, prefix: '/browser' | '/interact'): Router {
  const { db, temporal, config } = deps;
  const router = Router();
  const base = () => publicBase(config);

  router.post(prefix, async (req, res) => {
    const request = createSessionSchema.parse(req.body ?? {});
    const { team, apiKeyId } = authOf(res);
    const row = await startSession(deps, team, apiKeyId, request, (id) => noteActivityJob(res, id));
    res.json({ success: true, id: row.id, ...sessionUrls(row, base()), expiresAt: row.expiresAt.toISOString() });
  });

  router.get(prefix, async (req, res) => {
    const { status } = listSessionsQuerySchema.parse(req.query);
    const { team } = authOf(res);
    const rows = await db.browserSession.findMany({
      where: { teamId: team.id, ...(status && { status: status === 'active' ? { in: ['starting', 'active'] } : status }) },
      orderBy: { createdAt: 'desc' },
      take: LIST_LIMIT,
    });
    res.json({ success: true, sessions: rows.map((row) => sessionView(row, base())) });
  });

  router.delete(`${prefix}/profiles/:name`, async (req, res) => {
    const { name } = profileNameSchema.parse({ name: req.params.name });
    await deleteProfile(db, authOf(res).team.id, name);
    res.json({ success: true });
  });

  router.get(`${prefix}/:id`, async (req, res) => {
    const row = await sessionOfTeam(db, authOf(res).team.id, req.params.id);
    res.json({ success: true, ...sessionView(row, base()) });
  });

  router.delete(`${prefix}/:id`, async (req, res) => {
    const row = await sessionOfTeam(db, authOf(res).team.id, req.params.id);
    if (ended(row)) return void res.json(endedAnswer(row));
    try {
      await temporal.workflow.getHandle(sessionWorkflowId(row.id)).signal(destroySignal);
      const summary = await waitForEnd(temporal, row.id);
      res.json({ success: true, sessionDurationMs: summary.sessionDurationMs, creditsBilled: summary.creditsBilled });
    } catch (err) {
      const now = err instanceof WorkflowNotFoundError ? await closeOrphan(db, row.id) : await db.browserSession.findUniqueOrThrow({ where: { id: row.id } });
      if (ended(now)) return void res.json(endedAnswer(now));
      throw err;
    }
  });

  router.post(`${prefix}/:id/execute`, async (req, res) => {
    const row = await sessionOfTeam(db, authOf(res).team.id, req.params.id);
    const request = executeRequestSchema.parse(req.body ?? {});
    if (ended(row)) throw destroyed();
    try {
      const answer = await temporal.workflow
        .getHandle(sessionWorkflowId(row.id))
        .executeUpdate(executeUpdate, { args: [{ language: request.language, code: request.code, timeoutSeconds: request.timeout }] });
      res.json(answer);
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === SESSION_ENDED) throw destroyed();
      const now = err instanceof WorkflowNotFoundError ? await closeOrphan(db, row.id) : await db.browserSession.findUniqueOrThrow({ where: { id: row.id } });
      if (ended(now)) throw destroyed();
      if (err instanceof WorkflowUpdateFailedError)
        throw new DomainError('job-failed', err.cause?.message ?? 'Failed to execute code in browser session.', 'EXECUTE_FAILED');
      throw err;
    }
  });

  return router;
}
