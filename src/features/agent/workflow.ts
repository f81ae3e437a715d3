// One POST /v2/agent = one workflow agent-<id>: a loop of steps, each a model
// call (agentDecide) then a tool run (agentAct), each activity named for the
// Temporal UI ("step 3: search 'x'") and the run's details kept current (step n
// of max, credits of budget, last action). Decisions, observations and the
// answer live in PostgreSQL; history carries ids, numbers and labels only.
import {
  CancellationScope,
  ChildWorkflowCancellationType,
  condition,
  isCancellation,
  ParentClosePolicy,
  proxyActivities,
  setCurrentDetails,
  startChild,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { AgentActivities } from './activities.ts';
import { AGENT_RETRY, agentWebhooksWorkflowId, type AgentEnded, type AgentRunSettings } from './definitions.ts';
import { agentWebhooksWorkflow } from './webhooks-workflow.ts';

function modelStep(summary: string) {
  return proxyActivities<AgentActivities>({
    // Up to three completions (json_schema refused, one retry of a bad answer), each within LLM_TIMEOUT_MS.
    startToCloseTimeout: '10 minutes',
    retry: AGENT_RETRY,
    summary,
  });
}

function toolStep(summary: string, heartbeatTimeoutMs: number) {
  return proxyActivities<AgentActivities>({
    startToCloseTimeout: '30 minutes',
    heartbeatTimeout: heartbeatTimeoutMs,
    retry: AGENT_RETRY,
    summary,
  });
}

/** How long a run a DELETE ended waits for the workflow's cancellation (which the gateway sends right after the row). */
const CANCELLATION_GRACE = '1 minute';

/**
 * A run that ended: the workflow returns, except when a DELETE ended it. Then its
 * cancellation is on its way (or arrived with this activity's answer), and the run
 * waits for it so the workflow ends CANCELLED, as the Temporal UI should show it;
 * if the gateway died before sending it, the run ends after the grace.
 */
async function ended(end: AgentEnded): Promise<void> {
  if (end.cancelled) await condition(() => false, CANCELLATION_GRACE);
}

/** Deliveries outlive this workflow and its cancellation: a cancelled run still reports agent.cancelled. */
async function startWebhookDeliveries(agentId: string): Promise<void> {
  try {
    await startChild(agentWebhooksWorkflow, {
      workflowId: agentWebhooksWorkflowId(agentId),
      args: [{ agentId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      cancellationType: ChildWorkflowCancellationType.ABANDON,
      staticSummary: `Webhook deliveries of agent ${agentId}`,
    });
  } catch (err) {
    // A reset run finds its deliveries already going.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

export async function agentWorkflow(agentId: string, settings: AgentRunSettings): Promise<void> {
  if (settings.webhook) await startWebhookDeliveries(agentId);
  let credits = 0;
  let last = 'none yet';
  const details = (step: number) =>
    setCurrentDetails(`step ${step} of ${settings.maxSteps} · ${credits} of ${settings.maxCredits} credits used · last action: ${last}`);
  try {
    for (let step = 1; step <= settings.maxSteps; step++) {
      details(step);
      const decision = await modelStep(`step ${step}: ask the model`).agentDecide(agentId, step, settings.maxSteps);
      if (decision.kind === 'ended') return await ended(decision);
      last = decision.label;
      details(step);
      const observed = await toolStep(`step ${step}: ${decision.label}`, settings.heartbeatTimeoutMs).agentAct(agentId, step, settings.maxCredits);
      if (observed.kind === 'ended') return await ended(observed);
      credits = observed.credits;
    }
    details(settings.maxSteps);
    await modelStep('step budget reached').agentEnd(
      agentId,
      'failed',
      `The agent used its step budget (${settings.maxSteps} steps, AGENT_MAX_STEPS) without an answer.`,
      'step_limit_reached',
    );
  } catch (err) {
    const cancelled = isCancellation(err);
    await CancellationScope.nonCancellable(() =>
      modelStep(cancelled ? 'cancelled' : 'failed').agentEnd(
        agentId,
        cancelled ? 'cancelled' : 'failed',
        cancelled ? undefined : `The agent failed: ${(err as Error).message}`,
      ),
    );
    throw err;
  }
}
