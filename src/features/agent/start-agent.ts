// POST /v2/agent after validation: the checks a run needs (a model, a local one
// under zero data retention, credits), the row, then its workflow. GET answers
// from the row, DELETE ends the row as cancelled and cancels the workflow.
import type { Client } from '@temporalio/client';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '../../platform/config.ts';
import type { Db } from '../../platform/db/prisma.ts';
import { DomainError } from '../../platform/domain-error.ts';
import { notFound } from '../../platform/http/errors.ts';
import { configuredLlm } from '../../platform/llm/chat-completion.ts';
import { insufficientCredits } from '../../platform/usage/credits.ts';
import type { AgentJob, Team } from '../../generated/prisma/client.ts';
import { jobIdParam } from '../../jobs/job-routes.ts';
import { jobModel } from '../../jobs/job-model.ts';
import type { AgentRequest } from './agent-request.ts';
import { agentWorkflowId, type AgentRunSettings } from './definitions.ts';
import type { agentWorkflow } from './workflow.ts';

type Deps = { db: Db; temporal: Client; config: Config };

const NO_MODEL =
  'The agent needs a model and none is configured on this server (LLM_BASE_URL); ask the operator to set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL.';
const NOT_LOCAL =
  'A zero-data-retention agent sends pages to a model, which zero data retention allows only for a model marked local (LLM_IS_LOCAL), and this server’s is not.';

export async function createAgent(deps: Deps, team: Team, apiKeyId: string, req: AgentRequest): Promise<string> {
  if (!configuredLlm(deps.config.llm)) throw new DomainError('invalid', NO_MODEL, 'MODEL_NOT_CONFIGURED');
  if (req.zeroDataRetention && !team.flagZeroDataRetention) {
    throw new DomainError('forbidden', 'Zero Data Retention (ZDR) is not enabled for your team. Ask your administrator to enable it.');
  }
  if (!jobModel(deps.config.llm, req.zeroDataRetention)) throw new DomainError('invalid', NOT_LOCAL, 'MODEL_NOT_LOCAL');
  if (team.creditBalance < 1) throw insufficientCredits(team.creditBalance, 'an agent');
  const id = uuidv7();
  const settings: AgentRunSettings = {
    maxSteps: deps.config.agent.maxSteps,
    maxCredits: req.maxCredits ?? deps.config.agent.defaultMaxCredits,
    heartbeatTimeoutMs: deps.config.crawl.heartbeatTimeoutMs,
  };
  await deps.db.agentJob.create({
    data: {
      id,
      teamId: team.id,
      apiKeyId,
      prompt: req.prompt,
      options: { ...req, maxCredits: settings.maxCredits, servedModel: deps.config.llm.model } as object,
    },
  });
  try {
    await deps.temporal.workflow.start<typeof agentWorkflow>('agentWorkflow', {
      workflowId: agentWorkflowId(id),
      taskQueue: deps.config.temporal.taskQueue,
      args: [id, settings],
      staticSummary: `Agent: ${req.prompt.slice(0, 120)}`,
    });
  } catch (err) {
    // No half-created job: a row whose workflow never started would stay processing.
    await deps.db.agentJob.delete({ where: { id } });
    throw err;
  }
  return id;
}

/** The caller's agent, or the same 404 for unknown, foreign and expired ids. */
export async function ownAgent(db: Db, rawId: string, teamId: string): Promise<AgentJob> {
  const id = jobIdParam(rawId);
  const job = await db.agentJob.findFirst({ where: { id, teamId } });
  if (!job || (job.expiresAt && job.expiresAt.getTime() <= Date.now())) throw notFound('Agent job not found');
  return job;
}

export const CANCELLED_MESSAGE = 'The agent was cancelled (DELETE /v2/agent/{id}).';

/**
 * GET /v2/agent/{id}: the SDKs' AgentStatusResponse, whose status is processing, completed or
 * failed (the Python SDK refuses any other): a cancelled run answers failed with CANCELLED_MESSAGE.
 */
export function agentAnswer(job: AgentJob, config: Config): Record<string, unknown> {
  const options = job.options as { servedModel?: string };
  const expiresAt = job.expiresAt ?? new Date(job.createdAt.getTime() + config.agent.resultTtlHours * 3_600_000);
  const status = job.status === 'cancelled' ? 'failed' : job.status;
  const error = job.status === 'cancelled' ? CANCELLED_MESSAGE : job.error;
  return {
    success: status !== 'failed',
    status,
    ...(status === 'completed' && { data: job.data }),
    ...(error && { error }),
    model: options.servedModel ?? config.llm.model,
    expiresAt: expiresAt.toISOString(),
    creditsUsed: job.credits,
  };
}

/** DELETE /v2/agent/{id}: the row ends cancelled at once (GET says so), then the workflow is cancelled. */
export async function cancelAgent(deps: Deps, job: AgentJob): Promise<void> {
  if (job.status !== 'processing') throw new DomainError('conflict', `The agent has already ended (${job.status}).`, 'AGENT_ENDED');
  const now = new Date();
  await deps.db.agentJob.updateMany({
    where: { id: job.id, status: 'processing' },
    data: { status: 'cancelled', completedAt: now, expiresAt: new Date(now.getTime() + deps.config.agent.resultTtlHours * 3_600_000) },
  });
  try {
    await deps.temporal.workflow.getHandle(agentWorkflowId(job.id)).cancel();
  } catch (err) {
    // A workflow that already ended has nothing to cancel; the row says cancelled either way.
    if ((err as Error).name !== 'WorkflowNotFoundError') throw err;
  }
}
