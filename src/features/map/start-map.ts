// POST /v2/map after validation: the map's row and its credit in one
// transaction, then its workflow, waited for within the request's timeout.
import { WorkflowFailedError, type Client } from '@temporalio/client';
import { v7 as uuidv7 } from 'uuid';
import { createOnce, type Db } from '../../platform/db/prisma.ts';
import { DomainError } from '../../platform/domain-error.ts';
import type { Team } from '../../generated/prisma/client.ts';
import { chargeOnce, insufficientCredits } from '../../platform/usage/credits.ts';
import { checkAddress, checkThreatProtection } from '../../jobs/commit-job.ts';
import { countJobStarted } from '../../jobs/job-metrics.ts';
import { mapWorkflowId } from './definitions.ts';
import type { MapRequest } from './map-request.ts';
import type { MapLink } from './rank-links.ts';
import type { mapWorkflow } from './workflow.ts';
import type { MapFeatureSettings } from './config.ts';

type Deps = { db: Db; temporal: Client; config: MapFeatureSettings };

/** The map's row and its credit; under `opts.id` (a tool call's), a map made earlier with that id is the map, charged once. */
export async function createMap(deps: Deps, team: Team, apiKeyId: string, req: MapRequest, opts: { id?: string } = {}): Promise<string> {
  checkThreatProtection(req.url, req);
  await checkAddress(req.url, deps.config, `Refused to map ${req.url}`);
  const id = opts.id ?? uuidv7();
  const created = await createOnce(
    async () => {
      if (team.creditBalance < 1) throw insufficientCredits(team.creditBalance, 'a map');
      await deps.db.$transaction(async (tx) => {
        await tx.mapJob.create({ data: { id, teamId: team.id, apiKeyId, url: req.url, options: req as object } });
        // One credit per call, as upstream; the ledger's key makes it once per map.
        await chargeOnce(tx, { teamId: team.id, apiKeyId, endpoint: 'map', jobId: id, itemKey: '', credits: 1 });
      });
    },
    opts.id ? () => deps.db.mapJob.findUnique({ where: { id }, select: { id: true } }) : undefined,
  );
  if (created) countJobStarted('map');
  return id;
}

/**
 * Runs the map's workflow and returns its links, or answers 408 at the request's timeout. A map
 * made earlier (`mayHaveRun`: a repeated tool call) is answered from its row if it ended, else its run is joined.
 */
export async function runMap(deps: Deps, id: string, req: MapRequest, timeoutMs: number, mayHaveRun = false): Promise<{ links: MapLink[]; warning?: string }> {
  const deadline = Date.now() + timeoutMs;
  const timedOut = () => new DomainError('timeout', `The map operation timed out: it did not finish within its timeout of ${req.timeout} ms.`, 'MAP_TIMEOUT');
  if (mayHaveRun && (await deps.db.mapJob.findUniqueOrThrow({ where: { id }, select: { status: true } })).status !== 'running')
    return mapOutcome(deps.db, id, timedOut);
  try {
    await deps.temporal.connection.withDeadline(deadline, async () => {
      const handle = await deps.temporal.workflow.start<typeof mapWorkflow>('mapWorkflow', {
        workflowId: mapWorkflowId(id),
        taskQueue: deps.config.temporal.taskQueue,
        workflowIdConflictPolicy: 'USE_EXISTING',
        args: [id, req.timeout],
        staticSummary: `Map of ${req.url}`,
      });
      await handle.result();
    });
  } catch (err) {
    if (!(err instanceof WorkflowFailedError)) {
      if (Date.now() >= deadline) throw timedOut();
      throw err;
    }
  }
  return mapOutcome(deps.db, id, timedOut);
}

/** The links of a map that ended, or why it has none (still running: `timedOut`). */
async function mapOutcome(db: Db, id: string, timedOut: () => DomainError): Promise<{ links: MapLink[]; warning?: string }> {
  const job = await db.mapJob.findUniqueOrThrow({ where: { id } });
  if (job.status === 'completed') return { links: (job.links ?? []) as unknown as MapLink[], ...(job.warning && { warning: job.warning }) };
  if (job.status === 'running') throw timedOut();
  throw new DomainError('job-failed', `The map failed: ${job.error ?? 'unknown error'}`, 'MAP_FAILED');
}
