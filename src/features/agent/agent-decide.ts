// The first half of an agent step: the model is asked what to do next. Its decision
// and its tokens are written in one transaction, keyed by the step, so a retried
// call neither asks again nor counts twice.
import { Context } from '@temporalio/activity';
import type { AgentJob } from '../../generated/prisma/client.ts';
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import type { Tx } from '../../platform/db/prisma.ts';
import type { Tool } from '../../platform/tools/tool.ts';
import { storableJson, storableText } from '../../platform/db/storable.ts';
import { LlmError, type ChatMessage, type LlmSettings } from '../../platform/llm/chat-completion.ts';
import { structuredCompletion } from '../../platform/llm/structured-output.ts';
import { chargeOnce } from '../../platform/usage/credits.ts';
import { jobModel } from '../../jobs/job-model.ts';
import { actionLabel, agentMessages, answerSchemaOf, decisionSchema, type EarlierTurn, type PastStep } from './agent-messages.ts';
import { AGENT_RETRY, type AgentDecision } from './definitions.ts';
import { agentRow, endAgent, endAgentNow, endedAs, type StoredRequest } from './agent-row.ts';
import { finishFields, unusableAnswer, type Decision } from './agent-decision.ts';
import type { AgentFeatureSettings } from './config.ts';

/** What the agent's activities run with: the activity deps and the tools the model may call. */
export interface AgentDeps extends ActivityDeps<AgentFeatureSettings> {
  toolList: Tool[];
}

function lastAttempt(): boolean {
  return Context.current().info.attempt >= (AGENT_RETRY.maximumAttempts ?? Infinity);
}

/** Model tokens on the ledger (once per step) and on the row, with the step's other writes. */
async function recordTokens(tx: Tx, job: AgentJob, step: number, tokens: number): Promise<void> {
  if (tokens <= 0) return;
  const charged = await chargeOnce(tx, {
    teamId: job.teamId,
    apiKeyId: job.apiKeyId,
    endpoint: 'agent',
    jobId: job.id,
    itemKey: `step-${step}`,
    credits: 0,
    modelTokens: tokens,
  });
  if (charged) await tx.agentJob.update({ where: { id: job.id }, data: { tokens: { increment: tokens } } });
}

/** What the model reads for the step: the request, the run's earlier steps and its thread's earlier turns. */
async function stepMessages(deps: AgentDeps, job: AgentJob, llm: LlmSettings, step: number, maxSteps: number): Promise<ChatMessage[]> {
  const { db, config } = deps;
  const past: PastStep[] = await db.agentStep.findMany({
    where: { agentId: job.id, step: { lt: step } },
    orderBy: { step: 'asc' },
    select: { step: true, thought: true, tool: true, input: true, observation: true },
  });
  const earlier: EarlierTurn[] = job.threadId
    ? await db.agentJob.findMany({
        where: { threadId: job.threadId, turn: { lt: job.turn } },
        orderBy: { turn: 'asc' },
        select: { turn: true, mode: true, prompt: true, status: true, data: true, message: true, error: true },
      })
    : [];
  const limits = { maxSteps, maxObservationChars: config.agent.maxObservationChars, maxInputChars: llm.maxInputChars ?? config.llm.maxInputChars };
  return agentMessages(job.options as unknown as StoredRequest, deps.toolList, past, step, limits, earlier);
}

/** A model call that failed: its tokens count; the run ends when a retry cannot help, else the activity is retried. */
async function modelFailed(deps: AgentDeps, job: AgentJob, step: number, err: LlmError): Promise<AgentDecision> {
  const ends = unusableAnswer(err) || lastAttempt();
  await deps.db.$transaction(async (tx) => {
    await recordTokens(tx, job, step, err.usage.promptTokens + err.usage.completionTokens);
    if (ends) await endAgent(deps, tx, job.id, 'failed', { error: `The model's step ${step} could not be used: ${err.message}.`, stopReason: 'model_error' });
  });
  if (ends) return { kind: 'ended' };
  throw err;
}

/** Stores the step's decision with its tokens: an answer ends the run, a tool call waits for agentAct. */
async function recordDecision(deps: AgentDeps, job: AgentJob, step: number, decision: Decision, tokens: number): Promise<AgentDecision> {
  const agentId = job.id;
  const action = decision.action;
  if ('finish' in action) {
    await deps.db.$transaction(async (tx) => {
      await recordTokens(tx, job, step, tokens);
      await tx.agentStep.upsert({
        where: { agentId_step: { agentId, step } },
        create: { agentId, step, thought: storableText(decision.thought), tokens },
        update: {},
      });
      await endAgent(deps, tx, agentId, 'completed', finishFields((job.options as unknown as StoredRequest).mode, action.finish));
    });
    return { kind: 'ended' };
  }
  const endedMeanwhile = await deps.db.$transaction(async (tx) => {
    await recordTokens(tx, job, step, tokens);
    // A DELETE that came during the model call ended the run: its tokens count, its decision is not taken.
    // The row is locked, so a DELETE after this check waits for the step to be written.
    const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM agent_job WHERE id = ${agentId}::uuid FOR UPDATE`;
    if (row?.status !== 'processing') return row?.status ?? 'failed';
    await tx.agentStep.upsert({
      where: { agentId_step: { agentId, step } },
      create: { agentId, step, thought: storableText(decision.thought), tool: action.tool, input: storableJson(action.input ?? {}).value as object, tokens },
      update: {},
    });
    return undefined;
  });
  if (endedMeanwhile) return endedAs(endedMeanwhile);
  return { kind: 'tool', label: actionLabel(action.tool, action.input) };
}

/** Asks the model for step `step` of the run, unless the step was decided already or the run has ended. */
export async function decideAgentStep(deps: AgentDeps, agentId: string, step: number, maxSteps: number): Promise<AgentDecision> {
  const job = await agentRow(deps, agentId);
  if (job.status !== 'processing') return endedAs(job.status);
  const done = await deps.db.agentStep.findUnique({ where: { agentId_step: { agentId, step } } });
  if (done?.tool) return { kind: 'tool', label: actionLabel(done.tool, done.input) };
  const req = job.options as unknown as StoredRequest;
  const llm = jobModel(deps.config.llm, req.zeroDataRetention);
  if (!llm) {
    await endAgentNow(deps, agentId, 'failed', {
      error: 'No model may be used: LLM_BASE_URL is unset, or the run keeps zero data retention and LLM_IS_LOCAL is off.',
      stopReason: 'model_error',
    });
    return { kind: 'ended' };
  }
  const messages = await stepMessages(deps, job, llm, step, maxSteps);
  let answer;
  try {
    answer = await structuredCompletion(llm, {
      name: 'agent_step',
      schema: decisionSchema(deps.toolList, answerSchemaOf(req)),
      messages,
      ...(req.servedModel && { model: req.servedModel }),
    });
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    return modelFailed(deps, job, step, err);
  }
  return recordDecision(deps, job, step, answer.value as Decision, answer.usage.promptTokens + answer.usage.completionTokens);
}
