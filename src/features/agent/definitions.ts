// Names and shapes of the agent workflow, shared by the gateway, the worker and
// workflow code (which imports this file, so it imports nothing with side effects).
import type { RetryPolicy } from '@temporalio/common';

export function agentWorkflowId(agentId: string): string {
  return `agent-${agentId}`;
}

/** The run's webhook deliveries: a workflow of their own, outliving the run until its outbox is drained. */
export function agentWebhooksWorkflowId(agentId: string): string {
  return `agent-webhooks-${agentId}`;
}

/** What the workflow needs beyond the row: numbers and flags only. */
export interface AgentRunSettings {
  /** The step budget: AGENT_MAX_STEPS, less under a lower effort. */
  maxSteps: number;
  maxCredits: number;
  /** A tool run on a dead worker is noticed after this long and run again elsewhere. */
  heartbeatTimeoutMs: number;
  /** The request has a webhook: the run starts its deliveries (absent in runs started before webhooks). */
  webhook?: boolean;
}

/**
 * The run ended (answered, failed, a budget reached); `cancelled` when a DELETE ended
 * it, whose cancellation of the workflow may reach the workflow after this answer.
 */
export type AgentEnded = { kind: 'ended'; cancelled?: true };

/** A step's model call: the tool it chose, named for the Temporal UI, or the run ended. */
export type AgentDecision = { kind: 'tool'; label: string } | AgentEnded;

/** A step's tool run: the credits the agent has spent so far, or the run ended. */
export type AgentObservation = { kind: 'observed'; credits: number } | AgentEnded;

/** Infrastructure failures are retried; the model's and the tools' failures are handled inside the activities. */
export const AGENT_RETRY: RetryPolicy = { initialInterval: '1s', backoffCoefficient: 2, maximumAttempts: 3, nonRetryableErrorTypes: ['AgentNotFound'] };

export const AGENT_STATUSES = ['processing', 'completed', 'failed', 'cancelled'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** Why a run ended without an answer (agent_job.stop_reason). */
export const AGENT_STOP_REASONS = ['cancelled', 'credit_limit_reached', 'step_limit_reached', 'model_error', 'failed'] as const;
export type AgentStopReason = (typeof AGENT_STOP_REASONS)[number];
