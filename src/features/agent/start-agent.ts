// POST /v2/agent after validation: the checks a run needs (a model, a local one
// under zero data retention, credits, a thread of the team's with no run going),
// then in one transaction its thread (new, or the next turn of the given one), its
// row and its agent.started event, then its workflow. DELETE ends the row as
// cancelled (with agent.cancelled) and cancels the workflow.
import type { Client } from '@temporalio/client';
import { v7 as uuidv7 } from 'uuid';
import { isUniqueViolation, type Db, type Tx } from '../../platform/db/prisma.ts';
import { DomainError } from '../../platform/domain-error.ts';
import { notFound } from '../../platform/http/errors.ts';
import { configuredLlm } from '../../platform/llm/chat-completion.ts';
import type { Logger } from '../../platform/log.ts';
import { insufficientCredits } from '../../platform/usage/credits.ts';
import type { AgentJob, Team } from '../../generated/prisma/client.ts';
import { jobIdParam } from '../../jobs/job-routes.ts';
import { jobModel } from '../../jobs/job-model.ts';
import type { AgentRequest } from './agent-request.ts';
import { terminalEvent, writeAgentEvent, type AgentWebhook } from './agent-events.ts';
import { agentWorkflowId, type AgentRunSettings } from './definitions.ts';
import { runPlan } from './run-plan.ts';
import type { agentWorkflow } from './workflow.ts';
import type { AgentFeatureSettings } from './config.ts';

type Deps = { db: Db; temporal: Client; config: AgentFeatureSettings; log: Logger };

const NO_MODEL =
  'The agent needs a model and none is configured on this server (LLM_BASE_URL); ask the operator to set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL.';
const NOT_LOCAL =
  'A zero-data-retention agent sends pages to a model, which zero data retention allows only for a model marked local (LLM_IS_LOCAL), and this server’s is not.';

export const THREAD_NOT_FOUND = 'Agent thread not found';

export interface StartedAgent {
  id: string;
  threadId: string;
  threadTurn: number;
}

/** The row's thread and turn: a new thread's first, or the next turn of the caller's thread, which must have no run going. */
async function takeTurn(tx: Tx, teamId: string, threadId: string | undefined, now: Date): Promise<{ threadId: string; turn: number }> {
  if (!threadId) {
    const thread = await tx.agentThread.create({ data: { id: uuidv7(), teamId, createdAt: now, updatedAt: now } });
    return { threadId: thread.id, turn: 1 };
  }
  // The update locks the thread: two follow-ups of one thread take their turns one after the other.
  const { count } = await tx.agentThread.updateMany({ where: { id: threadId, teamId }, data: { updatedAt: now } });
  if (count === 0) throw notFound(THREAD_NOT_FOUND);
  const runs = await tx.agentJob.findMany({ where: { threadId }, select: { id: true, turn: true, status: true }, orderBy: { turn: 'desc' } });
  const going = runs.find((r) => r.status === 'processing');
  if (going)
    throw new DomainError(
      'conflict',
      `The thread's turn ${going.turn} (agent ${going.id}) is still running; wait for it to end, or cancel it, before the next turn.`,
      'THREAD_BUSY',
    );
  return { threadId, turn: (runs[0]?.turn ?? 0) + 1 };
}

export async function createAgent(deps: Deps, team: Team, apiKeyId: string, req: AgentRequest): Promise<StartedAgent> {
  if (!configuredLlm(deps.config.llm)) throw new DomainError('invalid', NO_MODEL, 'MODEL_NOT_CONFIGURED');
  if (req.zeroDataRetention && !team.flagZeroDataRetention) {
    throw new DomainError('forbidden', 'Zero Data Retention (ZDR) is not enabled for your team. Ask your administrator to enable it.');
  }
  if (!jobModel(deps.config.llm, req.zeroDataRetention)) throw new DomainError('invalid', NOT_LOCAL, 'MODEL_NOT_LOCAL');
  if (team.creditBalance < 1) throw insufficientCredits(team.creditBalance, 'an agent');
  const id = uuidv7();
  const plan = runPlan(req, deps.config);
  const settings: AgentRunSettings = {
    maxSteps: plan.maxSteps,
    maxCredits: req.maxCredits ?? deps.config.agent.defaultMaxCredits,
    heartbeatTimeoutMs: deps.config.crawl.heartbeatTimeoutMs,
    ...(req.webhook && { webhook: true }),
  };
  const now = new Date();
  let turn: { threadId: string; turn: number };
  try {
    turn = await deps.db.$transaction(async (tx) => {
      const taken = await takeTurn(tx, team.id, req.threadId, now);
      await tx.agentJob.create({
        data: {
          id,
          teamId: team.id,
          apiKeyId,
          prompt: req.prompt,
          threadId: taken.threadId,
          turn: taken.turn,
          mode: req.mode,
          createdAt: now,
          options: { ...req, maxCredits: settings.maxCredits, maxSteps: settings.maxSteps, servedModel: plan.servedModel } as object,
        },
      });
      await writeAgentEvent(tx, id, req.webhook as AgentWebhook | undefined, { name: 'started', success: true, data: [] });
      return taken;
    });
  } catch (err) {
    // Two follow-ups raced past each other's check: the (thread, turn) key let one in.
    if (isUniqueViolation(err)) throw new DomainError('conflict', 'Another turn of this thread was started at the same moment; try again.', 'THREAD_BUSY');
    throw err;
  }
  deps.log.info('agent started', {
    agentId: id,
    threadId: turn.threadId,
    turn: turn.turn,
    ...(req.auditMetadata && { auditUsername: req.auditMetadata.username }),
  });
  try {
    await deps.temporal.workflow.start<typeof agentWorkflow>('agentWorkflow', {
      workflowId: agentWorkflowId(id),
      taskQueue: deps.config.temporal.taskQueue,
      args: [id, settings],
      staticSummary: `Agent: ${req.prompt.slice(0, 120)}`,
    });
  } catch (err) {
    // No half-created job: a row whose workflow never started would stay processing (a new thread goes with it).
    await deps.db.$transaction(async (tx) => {
      await tx.agentJob.delete({ where: { id } });
      if (!req.threadId) await tx.agentThread.deleteMany({ where: { id: turn.threadId } });
    });
    throw err;
  }
  return { id, threadId: turn.threadId, threadTurn: turn.turn };
}

/** The caller's agent, or the same 404 for unknown, foreign and expired ids. */
export async function ownAgent(db: Db, rawId: string, teamId: string): Promise<AgentJob> {
  const id = jobIdParam(rawId);
  const job = await db.agentJob.findFirst({ where: { id, teamId } });
  if (!job || (job.expiresAt && job.expiresAt.getTime() <= Date.now())) throw notFound('Agent job not found');
  return job;
}

export const CANCELLED_MESSAGE = 'The agent was cancelled (DELETE /v2/agent/{id}).';

/** DELETE /v2/agent/{id}: the row ends cancelled at once (GET says so) with its agent.cancelled event, then the workflow is cancelled. */
export async function cancelAgent(deps: Deps, job: AgentJob): Promise<void> {
  if (job.status !== 'processing') throw new DomainError('conflict', `The agent has already ended (${job.status}).`, 'AGENT_ENDED');
  const now = new Date();
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.agentJob.updateMany({
      where: { id: job.id, status: 'processing' },
      data: {
        status: 'cancelled',
        stopReason: 'cancelled',
        completedAt: now,
        expiresAt: new Date(now.getTime() + deps.config.agent.resultTtlHours * 3_600_000),
      },
    });
    if (count === 0) return;
    const ended = await tx.agentJob.findUniqueOrThrow({ where: { id: job.id } });
    await writeAgentEvent(tx, job.id, (job.options as { webhook?: AgentWebhook }).webhook, terminalEvent(ended));
  });
  try {
    await deps.temporal.workflow.getHandle(agentWorkflowId(job.id)).cancel();
  } catch (err) {
    // A workflow that already ended has nothing to cancel; the row says cancelled either way.
    if ((err as Error).name !== 'WorkflowNotFoundError') throw err;
  }
}
