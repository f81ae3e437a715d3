// POST /v2/extract starts an extract and answers its id; GET /v2/extract/{id}
// answers its status and, once completed, its data (the SDKs poll it).
import { Router } from 'express';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { noteActivityJob } from '../../platform/http/activity-log.ts';
import { DomainError } from '../../platform/domain-error.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { extractRequestSchema, type ExtractRequest } from './extract-request.ts';
import { startExtract } from './start-extract.ts';
import { extractAnswer } from './extract-answer.ts';
import type { ExtractFeatureSettings } from './config.ts';

const ZDR_PURGED_MESSAGE = 'The extract had zero data retention: its data was handed out once and erased';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function extractRoutes(deps: GatewayDeps<ExtractFeatureSettings>): Router {
  const router = Router();

  router.post('/extract', async (req, res) => {
    const request = extractRequestSchema.parse(req.body ?? {});
    const { team, apiKeyId } = authOf(res);
    const id = await startExtract(deps, team, apiKeyId, request);
    noteActivityJob(res, id);
    res.json({ success: true, id });
  });

  router.get('/extract/:id', async (req, res) => {
    const notFound = new DomainError('not-found', 'Extract job not found');
    if (!UUID.test(req.params.id)) throw notFound;
    // Past its expiry a row not yet purged answers as the purge would leave it: not found.
    const row = await deps.db.extractJob.findFirst({ where: { id: req.params.id.toLowerCase(), teamId: authOf(res).team.id, expiresAt: { gt: new Date() } } });
    if (!row) throw notFound;
    if (row.purgedAt) throw new DomainError('not-found', ZDR_PURGED_MESSAGE, 'ZDR_PURGED');
    // Zero data retention: the read that finds the data hands it out and erases it.
    if ((row.options as ExtractRequest).zeroDataRetention && row.status === 'completed') {
      const { count } = await deps.db.extractJob.updateMany({
        where: { id: row.id, purgedAt: null },
        data: { data: Prisma.DbNull, sources: Prisma.DbNull, purgedAt: new Date() },
      });
      if (count === 0) throw new DomainError('not-found', ZDR_PURGED_MESSAGE, 'ZDR_PURGED');
    }
    res.json(extractAnswer(row));
  });

  return router;
}
