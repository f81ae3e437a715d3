// The contract of the agent routes (routes.ts): the SDKs' shapes, field by field.
import { z } from 'zod';
import type { RouteDoc } from '../../platform/http/route-doc.ts';
import { AGENT_EFFORTS, AGENT_MODES, agentRequestSchema } from './agent-request.ts';
import { AGENT_LIST_PAGE } from './agent-reads.ts';

const idParams = z.object({ id: z.uuid().describe('The agent id.') });
const effort = z.enum(AGENT_EFFORTS);
const mode = z.enum(AGENT_MODES);
const runOutcome = z.enum(['processing', 'succeeded', 'failed', 'cancelled', 'credit_limit_reached']);

export const agentStartedSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  threadId: z.string().describe('The thread the run is a turn of: pass it back as threadId to continue.'),
  threadTurn: z.number().int().describe('The run’s turn in its thread, from 1.'),
});

export const agentStatusSchema = z.object({
  success: z.boolean().describe('false when the run failed'),
  id: z.string(),
  status: z.enum(['processing', 'completed', 'failed']).describe('A cancelled run answers failed, with an error saying it was cancelled.'),
  data: z.unknown().optional().describe('The answer of an extract-mode run, once completed: JSON matching the request’s schema when it gave one.'),
  message: z.string().optional().describe('The answer of a chat-mode run, once completed.'),
  error: z.string().optional(),
  stopReason: z.string().optional().describe('Why it ended without an answer: cancelled, credit_limit_reached, step_limit_reached, model_error, failed.'),
  model: z.string().describe('The model the request named, else the served model (LLM_MODEL).'),
  effort: effort.optional(),
  expiresAt: z.string(),
  creditsUsed: z.number(),
  threadId: z.string().optional(),
  threadTurn: z.number().int().optional(),
  mode,
  exchange: z
    .object({ enabled: z.literal(false), paidCalls: z.literal(0), creditsUsed: z.literal(0) })
    .optional()
    .describe('Present when the request named an exchange: it is not offered here.'),
});

const listItemSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  targetHint: z.string().describe('The first of urls, else the start of the prompt.'),
  origin: z.string(),
  integration: z.string().optional(),
  settings: z.object({ hidden: z.boolean(), starred: z.boolean() }),
  status: z.enum(['processing', 'completed', 'failed']),
  options: z.object({ urls: z.array(z.string()).optional(), prompt: z.string(), schema: z.unknown().optional(), model: z.string(), effort: effort.optional() }),
});

const agentListSchema = z.object({
  success: z.literal(true),
  agents: z.array(listItemSchema),
  next: z.string().optional().describe('The next page (its before parameter), when there are more runs.'),
});

const traceError = z.object({
  code: z.enum(['cancelled', 'credit_limit_reached', 'internal']),
  source: z.enum(['agent', 'billing', 'system']),
  retryable: z.boolean(),
  message: z.string(),
});

const traceEventSchema = z
  .object({
    schemaVersion: z.literal(1),
    eventId: z.string(),
    runId: z.string(),
    occurredAt: z.string(),
    producerSequence: z.number().int(),
    agent: z.object({ id: z.string(), role: z.enum(['orchestrator', 'system']), name: z.string() }),
    type: z.enum([
      'run.started',
      'run.cancel_requested',
      'run.finished',
      'agent.started',
      'agent.finished',
      'browser.session.started',
      'browser.session.finished',
      'progress.reported',
      'reasoning.summary',
      'tool_call.started',
      'tool_call.finished',
      'artifact.updated',
    ]),
    reason: z.literal('user').optional(),
    outcome: runOutcome.exclude(['processing']).optional(),
    error: traceError.nullable().optional(),
    durationMs: z.number().int().optional(),
    sessionId: z.string().optional(),
    phase: z.enum(['planning', 'working', 'finalizing']).optional(),
    message: z.string().optional(),
    text: z.string().optional(),
    toolCallId: z.string().optional(),
    toolName: z.string().optional(),
    parameters: z.unknown().optional(),
    result: z.unknown().optional(),
    artifact: z.object({ kind: z.enum(['json', 'text']), artifactId: z.string(), snapshotId: z.string(), change: z.literal('init') }).optional(),
  })
  .describe('One event of the SDKs’ AgentTraceEvent union (schemaVersion 1); the fields beside the base are those of its type.');

const agentTraceSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  events: z.array(traceEventSchema),
  creditsUsed: z.number(),
  zeroDataRetention: z.literal(true).optional().describe('Tool results are withheld (null).'),
  activeBrowserSessions: z
    .array(z.object({ id: z.string(), liveViewUrl: z.string(), viewport: z.object({ width: z.number(), height: z.number() }) }))
    .optional()
    .describe('With liveView=true: the run’s browser sessions that are live now.'),
});

const agentSnapshotSchema = z.object({ success: z.literal(true), id: z.string(), snapshotId: z.string(), snapshot: z.string() });

const threadRunSchema = z.object({
  id: z.string(),
  turn: z.number().int(),
  mode,
  prompt: z.string(),
  urls: z.array(z.string()).optional(),
  schema: z.unknown().optional(),
  effort: effort.optional(),
  status: runOutcome,
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  creditsUsed: z.number().nullable(),
  message: z.string().nullable(),
  data: z.unknown().optional().describe('With includeData=true, on a succeeded extract-mode run.'),
});

const agentThreadSchema = z.object({
  success: z.literal(true),
  thread: z.object({ id: z.string(), createdAt: z.string(), updatedAt: z.string(), status: z.enum(['idle', 'running']), runs: z.array(threadRunSchema) }),
});

const flagQuery = z.enum(['true', 'false']).optional();

export const agentRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/v2/agent',
    operationId: 'startAgent',
    summary: 'Start an agent (a new thread, or the next turn of one) that answers with the service’s own tools (search, scrape, map, browser_execute)',
    tag: 'agent',
    body: agentRequestSchema,
    responses: { 200: agentStartedSchema },
    errors: [402, 403, 404, 409, 503],
  },
  {
    method: 'get',
    path: '/v2/agent',
    operationId: 'listAgents',
    summary: `The team’s agent runs, newest first, ${AGENT_LIST_PAGE} a page`,
    tag: 'agent',
    query: z.object({ before: z.string().optional().describe('Only runs started before this unix time in milliseconds (from next).') }),
    responses: { 200: agentListSchema },
    errors: [400],
  },
  {
    method: 'get',
    path: '/v2/agent/threads/:threadId',
    operationId: 'getAgentThread',
    summary: 'A thread and its runs, oldest turn first',
    tag: 'agent',
    params: z.object({ threadId: z.uuid().describe('The thread id.') }),
    query: z.object({ includeData: flagQuery.describe('Inline each succeeded extract run’s data.') }),
    responses: { 200: agentThreadSchema },
    errors: [400, 404],
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
    method: 'get',
    path: '/v2/agent/:id/trace',
    operationId: 'getAgentTrace',
    summary: 'The events of an agent run (the SDKs’ AgentTraceEvent, schemaVersion 1)',
    tag: 'agent',
    params: idParams,
    query: z.object({ liveView: flagQuery.describe('Also list the run’s live browser sessions.') }),
    responses: { 200: agentTraceSchema },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/v2/agent/:id/snapshots/:snapshotId',
    operationId: 'getAgentSnapshot',
    summary: 'The content of an artifact snapshot named by an artifact.updated trace event (a run’s answer)',
    tag: 'agent',
    params: z.object({ id: z.uuid().describe('The agent id.'), snapshotId: z.string().describe('From an artifact.updated event.') }),
    responses: { 200: agentSnapshotSchema },
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
