// /v2/browser (and the same under /v2/interact, the spelling upstream's docs now
// use): create, list, read, delete sessions and execute code in them.
import { Router } from 'express';
import type { GatewayDeps } from '../../../platform/http/app.ts';
import { authOf } from '../../../platform/http/auth.ts';
import { noteActivityJob } from '../../../platform/http/activity-log.ts';
import { publicBase } from '../../../platform/http/public-url.ts';
import { deadlineOf, stillWaiting } from '../../../platform/http/request-deadline.ts';
import { keepsAnswer } from '../../../platform/http/idempotency.ts';
import { endSession } from './end-session.ts';
import { executeInSession } from './execute-in-session.ts';
import { executeRequesterOf } from './execute-requester.ts';
import { executeRequestSchema } from '../protocol/execute-request.ts';
import { createSessionSchema, listSessionsQuerySchema, profileNameSchema } from './session-request.ts';
import { sessionOfTeam, sessionUrls, sessionView } from './session-store.ts';
import { startSession } from './start-session.ts';
import { deleteProfile } from '../shared/profile-store.ts';
import type { BrowserSessionsFeatureSettings } from '../config.ts';

const LIST_LIMIT = 1000;

export function sessionRoutes(deps: GatewayDeps<BrowserSessionsFeatureSettings>, prefix: '/browser' | '/interact'): Router {
  const { db, temporal, config } = deps;
  const router = Router();
  const base = () => publicBase(config);

  router.post(prefix, async (req, res) => {
    const request = createSessionSchema.parse(req.body ?? {});
    const { team, apiKeyId } = authOf(res);
    const { row } = await startSession(deps, team, apiKeyId, request, (id) => noteActivityJob(res, id), {
      arrivedAt: deadlineOf(res).arrivedAt,
      answerWanted: () => stillWaiting(res) || keepsAnswer(res),
    });
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
    res.json({ success: true, ...(await endSession(db, temporal, row)) });
  });

  router.post(`${prefix}/:id/execute`, async (req, res) => {
    const row = await sessionOfTeam(db, authOf(res).team.id, req.params.id);
    const request = executeRequestSchema.parse(req.body ?? {});
    res.json(await executeInSession(deps, row, { language: request.language, code: request.code, timeoutMs: request.timeout * 1000 }, executeRequesterOf(res)));
  });

  return router;
}
