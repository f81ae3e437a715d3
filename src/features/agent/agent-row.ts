// An agent run's row (agent_job) as its activities read and end it: a run ends once,
// while it is processing, and its final webhook event is written with that end.
import { ApplicationFailure } from '@temporalio/common';
import type { AgentJob } from '../../generated/prisma/client.ts';
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import type { Tx } from '../../platform/db/prisma.ts';
import { storableJson, storableText } from '../../platform/db/storable.ts';
import type { AgentRequest } from './agent-request.ts';
import type { AgentEnded, AgentStatus, AgentStopReason } from './definitions.ts';
import { terminalEvent, writeAgentEvent, type AgentWebhook } from './agent-events.ts';
import type { AgentFeatureSettings } from './config.ts';

/** The stored request: the validated body, the budget and model it was given (older rows lack the newer fields). */
export type StoredRequest = AgentRequest & { servedModel?: string; webhook?: AgentWebhook };

export type EndedStatus = Exclude<AgentStatus, 'processing'>;

export interface EndFields {
  data?: unknown;
  message?: string;
  error?: string;
  stopReason?: AgentStopReason;
}

/** The run's row, whatever its status; a run that does not exist fails the activity for good. */
export async function agentRow({ db }: Pick<ActivityDeps<AgentFeatureSettings>, 'db'>, agentId: string): Promise<AgentJob> {
  const job = await db.agentJob.findUnique({ where: { id: agentId } });
  if (!job) throw ApplicationFailure.nonRetryable(`agent ${agentId} does not exist`, 'AgentNotFound');
  return job;
}

/** What an activity answers for a run that has ended (the workflow stops; a cancelled run says so). */
export function endedAs(status: string): AgentEnded {
  return status === 'cancelled' ? { kind: 'ended', cancelled: true } : { kind: 'ended' };
}

/** Ends the row if it is still processing, with its final webhook event; the transaction's other writes go with it. */
export async function endAgent(
  { config, log }: Pick<ActivityDeps<AgentFeatureSettings>, 'config' | 'log'>,
  tx: Tx,
  agentId: string,
  status: EndedStatus,
  fields: EndFields,
): Promise<void> {
  const now = new Date();
  const { count } = await tx.agentJob.updateMany({
    where: { id: agentId, status: 'processing' },
    data: {
      status,
      ...(fields.data !== undefined && { data: storableJson(fields.data).value as object }),
      ...(fields.message !== undefined && { message: storableText(fields.message) }),
      ...(fields.error !== undefined && { error: storableText(fields.error) }),
      ...(fields.stopReason !== undefined && { stopReason: fields.stopReason }),
      completedAt: now,
      expiresAt: new Date(now.getTime() + config.agent.resultTtlHours * 3_600_000),
    },
  });
  if (count === 0) return;
  const job = await tx.agentJob.findUniqueOrThrow({ where: { id: agentId } });
  await writeAgentEvent(tx, agentId, (job.options as StoredRequest).webhook, terminalEvent(job));
  log.info('agent ended', { agentId, status, ...(fields.error && { error: fields.error }) });
}

/** endAgent in a transaction of its own. */
export async function endAgentNow(deps: ActivityDeps<AgentFeatureSettings>, agentId: string, status: EndedStatus, fields: EndFields): Promise<void> {
  await deps.db.$transaction((tx) => endAgent(deps, tx, agentId, status, fields));
}
