// The agent types of @mendable/firecrawl-js 4.42 (dist/index.d.ts: AgentResponse,
// AgentStatusResponse, AgentListResponse, AgentTraceResponse, AgentSnapshotResponse,
// AgentThreadResponse), transcribed field by field as strict zod schemas, so a test
// can check at run time that what the SDK returned is what its types promise: a
// field the types do not declare, or one of another type, fails the parse.
import { z } from 'zod';

const mode = z.enum(['extract', 'chat']);
const effort = z.enum(['low', 'medium', 'high']);

export const agentResponse = z.strictObject({
  success: z.boolean(),
  id: z.string(),
  error: z.string().optional(),
  threadId: z.string().optional(),
  threadTurn: z.number().optional(),
});

const exchangeSummary = z.strictObject({
  enabled: z.boolean(),
  toolkits: z.array(z.string()).optional(),
  requireApproval: z.boolean().optional(),
  onTermsRequired: z.enum(['skip', 'ask']).optional(),
  paidCalls: z.number(),
  creditsUsed: z.number().nullable(),
});

export const agentStatusResponse = z.strictObject({
  success: z.boolean(),
  status: z.enum(['processing', 'completed', 'failed']),
  error: z.string().optional(),
  data: z.unknown().optional(),
  model: z.string().optional(),
  effort: effort.optional(),
  expiresAt: z.string(),
  creditsUsed: z.number().optional(),
  threadId: z.string().optional(),
  threadTurn: z.number().optional(),
  mode: mode.optional(),
  message: z.string().optional(),
  exchange: exchangeSummary.optional(),
  // Not in the JS type (TypeScript lets them pass); Python's AgentResponse declares them.
  id: z.string().optional(),
  stopReason: z.string().optional(),
});

export const agentListResponse = z.strictObject({
  success: z.boolean(),
  agents: z
    .array(
      z.strictObject({
        id: z.string(),
        createdAt: z.string(),
        targetHint: z.string(),
        origin: z.string(),
        integration: z.string().optional(),
        settings: z.strictObject({ hidden: z.boolean(), starred: z.boolean(), label: z.string().optional() }),
        status: z.enum(['processing', 'completed', 'failed']),
        options: z
          .strictObject({
            urls: z.array(z.string()).optional(),
            prompt: z.string(),
            schema: z.unknown().optional(),
            model: z.string(),
            effort: effort.optional(),
          })
          .optional(),
      }),
    )
    .optional(),
  next: z.string().optional(),
  error: z.string().optional(),
});

const traceError = z.strictObject({
  code: z.enum(['cancelled', 'credit_limit_reached', 'parent_finished', 'refused', 'internal']),
  source: z.enum(['agent', 'tool', 'billing', 'system']),
  retryable: z.boolean(),
  message: z.string(),
});

const eventBase = {
  schemaVersion: z.literal(1),
  eventId: z.string(),
  runId: z.string(),
  occurredAt: z.string(),
  producerSequence: z.number(),
  agent: z.strictObject({ id: z.string(), role: z.enum(['orchestrator', 'subagent', 'browser', 'system']), name: z.string(), parentId: z.string().optional() }),
};

export const agentTraceEvent = z.discriminatedUnion('type', [
  z.strictObject({ ...eventBase, type: z.literal('run.started') }),
  z.strictObject({ ...eventBase, type: z.literal('run.cancel_requested'), reason: z.literal('user') }),
  z.strictObject({
    ...eventBase,
    type: z.literal('run.finished'),
    outcome: z.enum(['succeeded', 'failed', 'cancelled', 'refused', 'credit_limit_reached']),
    error: traceError.nullable().optional(),
  }),
  z.strictObject({ ...eventBase, type: z.literal('agent.started') }),
  z.strictObject({
    ...eventBase,
    type: z.literal('agent.finished'),
    outcome: z.enum(['succeeded', 'failed', 'cancelled', 'refused']),
    durationMs: z.number(),
    error: traceError.nullable().optional(),
  }),
  z.strictObject({ ...eventBase, type: z.literal('browser.session.started'), sessionId: z.string() }),
  z.strictObject({ ...eventBase, type: z.literal('browser.session.finished'), sessionId: z.string(), durationMs: z.number() }),
  z.strictObject({ ...eventBase, type: z.literal('progress.reported'), phase: z.enum(['planning', 'working', 'finalizing']), message: z.string() }),
  z.strictObject({ ...eventBase, type: z.literal('reasoning.summary'), text: z.string() }),
  z.strictObject({ ...eventBase, type: z.literal('tool_call.started'), toolCallId: z.string(), toolName: z.string(), parameters: z.unknown() }),
  z.strictObject({ ...eventBase, type: z.literal('tool_call.finished'), toolCallId: z.string(), toolName: z.string(), result: z.unknown() }),
  z.strictObject({
    ...eventBase,
    type: z.literal('artifact.updated'),
    artifact: z.strictObject({
      kind: z.enum(['json', 'markdown', 'html', 'screenshot', 'text']),
      artifactId: z.string(),
      path: z.string().optional(),
      snapshotId: z.string(),
      change: z.enum(['init', 'partial', 'append', 'modify', 'update']),
      changedFields: z.array(z.string()).optional(),
      itemCount: z.number().optional(),
      sourceToolCallId: z.string().optional(),
    }),
  }),
  z.strictObject({ ...eventBase, type: z.literal('error.occurred'), error: traceError }),
]);

export const agentTraceResponse = z.strictObject({
  success: z.boolean(),
  id: z.string().optional(),
  events: z.array(agentTraceEvent).optional(),
  creditsUsed: z.number().optional(),
  activeBrowserSessions: z
    .array(z.strictObject({ id: z.string(), liveViewUrl: z.string(), viewport: z.strictObject({ width: z.number(), height: z.number() }) }))
    .optional(),
  error: z.string().optional(),
  // Not in the JS type; Python's AgentTraceResponse declares it.
  zeroDataRetention: z.boolean().optional(),
});

export const agentSnapshotResponse = z.strictObject({
  success: z.boolean(),
  id: z.string().optional(),
  snapshotId: z.string().optional(),
  snapshot: z.string().optional(),
  error: z.string().optional(),
});

export const agentThreadResponse = z.strictObject({
  success: z.boolean(),
  thread: z
    .strictObject({
      id: z.string(),
      createdAt: z.string(),
      updatedAt: z.string(),
      status: z.enum(['idle', 'running']),
      runs: z.array(
        z.strictObject({
          id: z.string(),
          turn: z.number(),
          mode,
          prompt: z.string(),
          urls: z.array(z.string()).optional(),
          schema: z.unknown().optional(),
          effort: effort.optional(),
          status: z.enum(['processing', 'succeeded', 'failed', 'cancelled', 'refused', 'credit_limit_reached']),
          createdAt: z.string(),
          finishedAt: z.string().nullable(),
          creditsUsed: z.number().nullable(),
          message: z.string().nullable(),
          data: z.unknown().optional(),
        }),
      ),
    })
    .optional(),
  error: z.string().optional(),
});
