// Agent: POST /v2/agent starts a durable workflow (agent-<id>) that answers a prompt
// in steps, each a model call then a call of a tool another feature publishes
// (search, scrape, map, browser_execute: platform/tools/tool.ts), within a step and a credit budget.
// Runs are turns of threads; their webhook events go through the shared outbox
// (agent-webhooks.ts, on the I/O queue); the list, trace, snapshot and thread routes read the rows.
import type { Feature } from '../../platform/feature.ts';
import { createAgentActivities } from './activities.ts';
import { createAgentWebhookActivities } from './agent-webhooks.ts';
import { agentRouteDocs } from './route-docs.ts';
import { agentRoutes } from './routes.ts';
import { recordingAttempts } from '../../platform/temporal/attempt-record.ts';
import type { AgentFeatureSettings } from './config.ts';

export const agentFeature: Feature<AgentFeatureSettings> = {
  name: 'agent',
  routes: agentRoutes,
  routeDocs: agentRouteDocs,
  activities: (deps) => ({
    control: recordingAttempts(deps, createAgentActivities(deps)),
    io: recordingAttempts(deps, createAgentWebhookActivities(deps)),
  }),
};
