// The webhook deliveries of one agent run (id `agent-webhooks-<agentId>`), started
// by the run's workflow when the request has a webhook and left running after the
// run ends, until every event was delivered or given up: the crawl's delivery
// loop (jobs/webhooks/workflow.ts) over the agent's outbox.
import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import { deliverUntilDrained, deliveryRoundOptions, deliverySettings } from '../../jobs/webhooks/workflow.ts';
import type { AgentWebhookActivities } from './agent-webhooks.ts';

export async function agentWebhooksWorkflow(input: { agentId: string }): Promise<{ agentId: string; delivered: number; failed: number }> {
  const { deliverAgentWebhooks } = proxyActivities<AgentWebhookActivities>(deliveryRoundOptions(await deliverySettings()));
  const round = await deliverUntilDrained(
    (roundMs) => deliverAgentWebhooks({ agentId: input.agentId, roundMs }),
    () => continueAsNew<typeof agentWebhooksWorkflow>(input),
  );
  return { agentId: input.agentId, delivered: round.delivered, failed: round.failed };
}
