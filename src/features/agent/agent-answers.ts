// What the agent routes answer, in the SDKs' shapes (@mendable/firecrawl-js 4.42
// AgentStatusResponse, AgentListItem, AgentThreadRun; Python firecrawl 4.54's
// pydantic models of the same): pure functions of the rows.
import type { AgentJob, AgentThread } from '../../generated/prisma/client.ts';
import type { AgentEffort, AgentModelName, AgentRequest } from './agent-request.ts';
import type { AgentFeatureSettings } from './config.ts';

/** The stored request: the body, the budgets and the model it was given (older rows lack the newer fields). */
export type StoredAgentOptions = Partial<AgentRequest> & { servedModel?: string; model?: AgentModelName; effort?: AgentEffort };

export const CANCELLED_MESSAGE = 'The agent was cancelled (DELETE /v2/agent/{id}).';

const optionsOf = (job: AgentJob) => job.options as StoredAgentOptions;

/** The SDKs' status vocabulary (processing, completed, failed): a cancelled run reads as failed. */
export function publicStatus(job: Pick<AgentJob, 'status'>): 'processing' | 'completed' | 'failed' {
  return job.status === 'cancelled' ? 'failed' : (job.status as 'processing' | 'completed' | 'failed');
}

/** What the run reports as its model: the name the request gave, else the served one. */
export function modelOf(job: AgentJob, config: AgentFeatureSettings): string {
  const options = optionsOf(job);
  return options.model ?? options.servedModel ?? config.llm.model;
}

export function expiresAtOf(job: AgentJob, config: AgentFeatureSettings): Date {
  return job.expiresAt ?? new Date(job.createdAt.getTime() + config.agent.resultTtlHours * 3_600_000);
}

/**
 * GET /v2/agent/{id}: the SDKs' AgentStatusResponse, whose status is processing, completed or
 * failed (the Python SDK refuses any other): a cancelled run answers failed with CANCELLED_MESSAGE.
 */
export function agentAnswer(job: AgentJob, config: AgentFeatureSettings): Record<string, unknown> {
  const options = optionsOf(job);
  const status = publicStatus(job);
  const error = job.status === 'cancelled' ? CANCELLED_MESSAGE : job.error;
  const chat = job.mode === 'chat';
  return {
    success: status !== 'failed',
    // Not in the JS type; Python's AgentResponse has it, and agent() there returns this answer.
    id: job.id,
    status,
    ...(status === 'completed' && (chat ? { message: job.message ?? '' } : { data: job.data })),
    ...(error && { error }),
    ...(job.stopReason && { stopReason: job.stopReason }),
    model: modelOf(job, config),
    ...(options.effort && { effort: options.effort }),
    expiresAt: expiresAtOf(job, config).toISOString(),
    creditsUsed: job.credits,
    ...(job.threadId && { threadId: job.threadId, threadTurn: job.turn }),
    mode: job.mode,
    // The exchange is not offered: a run that named it hears it was off.
    ...(options.exchange && { exchange: { enabled: false, paidCalls: 0, creditsUsed: 0 } }),
  };
}

/** Most characters of a prompt in a list item's targetHint. */
const TARGET_HINT_CHARS = 100;

/** One run of GET /v2/agent: the SDKs' AgentListItem. */
export function agentListItem(job: AgentJob, config: AgentFeatureSettings): Record<string, unknown> {
  const options = optionsOf(job);
  return {
    id: job.id,
    createdAt: job.createdAt.toISOString(),
    targetHint: options.urls?.[0] ?? job.prompt.slice(0, TARGET_HINT_CHARS),
    origin: options.origin ?? 'api',
    ...(options.integration && { integration: options.integration }),
    settings: { hidden: false, starred: false },
    status: publicStatus(job),
    options: {
      ...(options.urls && { urls: options.urls }),
      prompt: job.prompt,
      ...(options.schema && { schema: options.schema }),
      model: modelOf(job, config),
      ...(options.effort && { effort: options.effort }),
    },
  };
}

/** A run's outcome in the thread and trace vocabulary. */
export function runOutcome(job: Pick<AgentJob, 'status' | 'stopReason'>): 'processing' | 'succeeded' | 'failed' | 'cancelled' | 'credit_limit_reached' {
  if (job.status === 'completed') return 'succeeded';
  if (job.status === 'cancelled') return 'cancelled';
  if (job.status === 'failed') return job.stopReason === 'credit_limit_reached' ? 'credit_limit_reached' : 'failed';
  return 'processing';
}

/** One run of GET /v2/agent/threads/{id}: the SDKs' AgentThreadRun; `data` only when asked for, on a succeeded extract run. */
export function threadRun(job: AgentJob, includeData: boolean): Record<string, unknown> {
  const options = optionsOf(job);
  const outcome = runOutcome(job);
  return {
    id: job.id,
    turn: job.turn,
    mode: job.mode,
    prompt: job.prompt,
    ...(options.urls && { urls: options.urls }),
    ...(options.schema && { schema: options.schema }),
    ...(options.effort && { effort: options.effort }),
    status: outcome,
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.completedAt?.toISOString() ?? null,
    creditsUsed: job.credits,
    message: outcome === 'succeeded' && job.mode === 'chat' ? (job.message ?? '') : null,
    ...(includeData && outcome === 'succeeded' && job.mode !== 'chat' && { data: job.data }),
  };
}

/** GET /v2/agent/threads/{id}: the thread and its readable runs, oldest turn first. */
export function threadAnswer(thread: AgentThread, runs: AgentJob[], includeData: boolean): Record<string, unknown> {
  const latest = Math.max(thread.updatedAt.getTime(), ...runs.map((r) => (r.completedAt ?? r.createdAt).getTime()));
  return {
    success: true,
    thread: {
      id: thread.id,
      createdAt: thread.createdAt.toISOString(),
      updatedAt: new Date(latest).toISOString(),
      status: runs.some((r) => r.status === 'processing') ? 'running' : 'idle',
      runs: runs.map((r) => threadRun(r, includeData)),
    },
  };
}
