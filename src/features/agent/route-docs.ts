// The contract of POST /v2/agent, GET and DELETE /v2/agent/{id} (routes.ts).
import { z } from 'zod';
import type { RouteDoc } from '../../platform/http/route-doc.ts';
import { agentRequestSchema } from './agent-request.ts';

const idParams = z.object({ id: z.uuid().describe('The agent id.') });

export const agentStartedSchema = z.object({ success: z.literal(true), id: z.string() });

export const agentStatusSchema = z.object({
  success: z.boolean().describe('false when the run failed'),
  status: z.enum(['processing', 'completed', 'failed']).describe('A cancelled run answers failed, with an error saying it was cancelled.'),
  data: z.unknown().optional().describe('The answer, once completed: JSON matching the request’s schema when it gave one.'),
  error: z.string().optional(),
  model: z.string(),
  expiresAt: z.string(),
  creditsUsed: z.number(),
});

export const agentRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/v2/agent',
    operationId: 'startAgent',
    summary: 'Start an agent that answers a prompt with the service’s own tools (search, scrape, map, browser_execute)',
    tag: 'agent',
    body: agentRequestSchema,
    responses: { 200: agentStartedSchema },
    errors: [402, 403, 503],
  },
  {
    method: 'get',
    path: '/v2/agent/:id',
    operationId: 'getAgentStatus',
    summary: 'Status of an agent and its answer',
    tag: 'agent',
    params: idParams,
    responses: { 200: agentStatusSchema },
    errors: [400, 404],
  },
  {
    method: 'delete',
    path: '/v2/agent/:id',
    operationId: 'cancelAgent',
    summary: 'Cancel an agent',
    tag: 'agent',
    params: idParams,
    responses: { 200: z.object({ success: z.literal(true) }) },
    errors: [400, 404, 409, 503],
  },
];
