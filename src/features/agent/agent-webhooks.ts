// Delivers an agent run's webhook outbox with the shared outbox delivery
// (jobs/webhooks/outbox-delivery.ts): agent.started first, each agent.action in
// step order, the final event last, signed with the team's secret and retried as
// a crawl's events are.
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import { createOutboxDelivery, type DeliverWebhooksResult } from '../../jobs/webhooks/outbox-delivery.ts';
import { AGENT_STARTED_EVENT, AGENT_TERMINAL_EVENTS } from './agent-events.ts';
import type { AgentFeatureSettings } from './config.ts';

export function createAgentWebhookActivities(deps: ActivityDeps<AgentFeatureSettings>) {
  const outbox = createOutboxDelivery(deps, {
    column: 'agentId',
    startedType: AGENT_STARTED_EVENT,
    terminalTypes: AGENT_TERMINAL_EVENTS,
    inOrder: true,
    async owner(agentId) {
      const job = await deps.db.agentJob.findUnique({ where: { id: agentId }, include: { team: { select: { webhookSigningSecret: true } } } });
      if (!job) return null;
      return {
        running: job.status === 'processing',
        signingSecret: job.team.webhookSigningSecret,
        zeroDataRetention: (job.options as { zeroDataRetention?: boolean }).zeroDataRetention === true,
      };
    },
  });
  return {
    async deliverAgentWebhooks(input: { agentId: string; roundMs: number }): Promise<DeliverWebhooksResult> {
      return outbox.deliver(input.agentId, input.roundMs);
    },
  };
}

export type AgentWebhookActivities = ReturnType<typeof createAgentWebhookActivities>;
