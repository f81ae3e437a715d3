// /v2/monitor: the eight calls of the SDKs' monitor methods. Answers are
// `{success: true, data}` with status 200, as the SDKs require.
import { Router } from 'express';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { publicBase } from '../../platform/http/public-url.ts';
import { checkQuerySchema, createMonitorSchema, listQuerySchema, updateMonitorSchema } from './monitor-request.ts';
import { checkAnswer, checkPageAnswer } from './monitor-answers.ts';
import { createMonitor, deleteMonitor, monitorView, ownMonitor, runMonitor, updateMonitor, monitorNotFound } from './monitor-store.ts';
import type { MonitorsFeatureSettings } from './config.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function monitorRoutes(deps: GatewayDeps<MonitorsFeatureSettings>): Router {
  const router = Router();

  router.post('/monitor', async (req, res) => {
    const request = createMonitorSchema.parse(req.body ?? {});
    const { team, apiKeyId } = authOf(res);
    const monitor = await createMonitor(deps, team, apiKeyId, request, (req.body as { targets: unknown[] }).targets);
    res.json({ success: true, data: await monitorView(deps, monitor) });
  });

  router.get('/monitor', async (req, res) => {
    const { limit, offset } = listQuerySchema.parse(req.query);
    const monitors = await deps.db.monitor.findMany({
      where: { teamId: authOf(res).team.id, status: { not: 'deleted' } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: offset,
      take: limit,
    });
    res.json({ success: true, data: await Promise.all(monitors.map((m) => monitorView(deps, m))) });
  });

  router.get('/monitor/:id', async (req, res) => {
    const monitor = await ownMonitor(deps.db, req.params.id, authOf(res).team.id);
    res.json({ success: true, data: await monitorView(deps, monitor) });
  });

  router.patch('/monitor/:id', async (req, res) => {
    const request = updateMonitorSchema.parse(req.body ?? {});
    const { team } = authOf(res);
    const monitor = await ownMonitor(deps.db, req.params.id, team.id);
    const updated = await updateMonitor(deps, team, monitor, request, (req.body as { targets?: unknown[] }).targets);
    res.json({ success: true, data: await monitorView(deps, updated) });
  });

  router.delete('/monitor/:id', async (req, res) => {
    const monitor = await ownMonitor(deps.db, req.params.id, authOf(res).team.id);
    await deleteMonitor(deps, monitor);
    res.json({ success: true });
  });

  router.post('/monitor/:id/run', async (req, res) => {
    const monitor = await ownMonitor(deps.db, req.params.id, authOf(res).team.id);
    res.json({ success: true, data: await runMonitor(deps, monitor) });
  });

  router.get('/monitor/:id/checks', async (req, res) => {
    const { limit, offset } = listQuerySchema.parse(req.query);
    const monitor = await ownMonitor(deps.db, req.params.id, authOf(res).team.id);
    const checks = await deps.db.monitorCheck.findMany({
      where: { monitorId: monitor.id },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: offset,
      take: limit,
    });
    res.json({ success: true, data: checks.map(checkAnswer) });
  });

  router.get('/monitor/:id/checks/:checkId', async (req, res) => {
    const { limit, skip, status } = checkQuerySchema.parse(req.query);
    const monitor = await ownMonitor(deps.db, req.params.id, authOf(res).team.id);
    if (!UUID.test(req.params.checkId)) throw monitorNotFound();
    const check = await deps.db.monitorCheck.findFirst({ where: { id: req.params.checkId.toLowerCase(), monitorId: monitor.id } });
    if (!check) throw monitorNotFound();
    const where = { checkId: check.id, ...(status && { status }) };
    const [pages, total] = await Promise.all([
      deps.db.monitorCheckPage.findMany({ where, orderBy: [{ url: 'asc' }, { id: 'asc' }], skip, take: limit }),
      deps.db.monitorCheckPage.count({ where }),
    ]);
    const more = skip + pages.length < total;
    const next = more
      ? `${publicBase(deps.config)}/v2/monitor/${monitor.id}/checks/${check.id}?${new URLSearchParams({ skip: String(skip + pages.length), limit: String(limit), ...(status && { status }) })}`
      : null;
    res.json({ success: true, data: { ...checkAnswer(check), pages: pages.map(checkPageAnswer), next } });
  });

  return router;
}
