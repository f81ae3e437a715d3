// An agent run's webhook events, written to the shared outbox (webhook_event,
// agent_id) in the transaction that makes them true: agent.started with the row,
// agent.action with a step's stored observation, agent.completed / agent.failed /
// agent.cancelled with the row's end. The body is serialised once, here, so
// every attempt sends (and signs) the same bytes under the same webhookId; the
// (agent, type, item) key keeps a retried write from making a second event.
// Events the webhook's `events` leaves out are not written, except the final
// one, recorded as skipped so delivery knows the run has no more to come.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Db, Tx } from '../../platform/db/prisma.ts';
import { storableJson } from '../../platform/db/storable.ts';
import type { webhookSchemaWith } from '../../jobs/webhooks/webhook-schema.ts';
import type { AGENT_WEBHOOK_EVENTS } from './agent-request.ts';

export type AgentWebhook = z.output<ReturnType<typeof webhookSchemaWith<typeof AGENT_WEBHOOK_EVENTS>>>;
export type AgentEventName = (typeof AGENT_WEBHOOK_EVENTS)[number];

export const AGENT_STARTED_EVENT = 'agent.started';
export const AGENT_TERMINAL_EVENTS: readonly string[] = ['agent.completed', 'agent.failed', 'agent.cancelled'];

export interface AgentEvent {
  name: AgentEventName;
  /** `step-<n>` for agent.action; the run's own events have none. */
  itemKey?: string;
  success: boolean;
  data: unknown[];
  error?: string;
}

export async function writeAgentEvent(tx: Tx | Db, agentId: string, webhook: AgentWebhook | undefined, event: AgentEvent): Promise<void> {
  if (!webhook) return;
  const type = `agent.${event.name}`;
  const wanted = webhook.events.includes(event.name);
  if (!wanted && !AGENT_TERMINAL_EVENTS.includes(type)) return;
  const webhookId = randomUUID();
  const payload = {
    success: event.success,
    type,
    id: agentId,
    webhookId,
    data: event.data,
    ...(event.error !== undefined && { error: event.error }),
    metadata: webhook.metadata,
  };
  await tx.$executeRaw`
    INSERT INTO webhook_event (id, agent_id, type, item_key, url, headers, body, state)
    VALUES (${webhookId}::uuid, ${agentId}::uuid, ${type}, ${event.itemKey ?? ''}, ${webhook.url}, ${JSON.stringify(webhook.headers)}::jsonb,
            ${wanted ? storableJson(payload).json : null}, ${wanted ? 'pending' : 'skipped'})
    ON CONFLICT DO NOTHING`;
}

/** The final event of a run that ended: its name and payload fields. */
export function terminalEvent(run: { status: string; credits: number; data: unknown; message: string | null; error: string | null; mode: string }): AgentEvent {
  if (run.status === 'completed') {
    const answer = run.mode === 'chat' ? { message: run.message } : { data: run.data };
    return { name: 'completed', success: true, data: [{ creditsUsed: run.credits, ...answer }] };
  }
  const name = run.status === 'cancelled' ? 'cancelled' : 'failed';
  return { name, success: false, data: [{ creditsUsed: run.credits }], ...(run.error && { error: run.error }) };
}
