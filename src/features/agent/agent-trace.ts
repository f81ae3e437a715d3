// GET /v2/agent/{id}/trace: a run's trace as the SDKs' AgentTraceEvent list
// (schemaVersion 1), built from what the workflow's activities recorded: the row
// (run.started, run.cancel_requested, agent.finished, run.finished), each step's
// decision (reasoning.summary, progress.reported, tool_call.started) and tool run
// (tool_call.finished), the browser sessions of browser_execute steps, and the
// answer as an artifact (artifact.updated; its content is the run's snapshot).
// Event ids derive from the run and the event, so every read gives the same ids.
import { v5 as uuidv5 } from 'uuid';
import type { AgentJob } from '../../generated/prisma/client.ts';
import { actionLabel } from './agent-messages.ts';
import { CANCELLED_MESSAGE, runOutcome } from './agent-answers.ts';
import { toolCallId } from './tool-call-id.ts';

const EVENT_NAMESPACE = '5d0c7f2e-8a41-4b6e-9c3d-2f7e1a6b8d40';

/** The snapshot of a run's answer, referenced by its artifact.updated event. */
export function answerSnapshotId(agentId: string): string {
  return uuidv5(`${agentId}/answer`, EVENT_NAMESPACE);
}

export interface TraceStep {
  step: number;
  thought: string | null;
  tool: string | null;
  input: unknown;
  observation: unknown;
  decidedAt: Date;
  ranAt: Date | null;
}

export interface TraceSession {
  id: string;
  createdAt: Date;
  endedAt: Date | null;
  durationMs: number | null;
}

type TraceRun = Pick<AgentJob, 'id' | 'status' | 'stopReason' | 'error' | 'mode' | 'createdAt' | 'completedAt'>;

const ORCHESTRATOR = { id: 'orchestrator', role: 'orchestrator', name: 'agent' } as const;
const SYSTEM = { id: 'system', role: 'system', name: 'service' } as const;

interface TraceError {
  code: 'cancelled' | 'credit_limit_reached' | 'internal';
  source: 'agent' | 'billing' | 'system';
  retryable: false;
  message: string;
}

function runError(run: TraceRun): TraceError | null {
  if (run.status === 'completed' || run.status === 'processing') return null;
  if (run.status === 'cancelled') return { code: 'cancelled', source: 'system', retryable: false, message: CANCELLED_MESSAGE };
  const message = run.error ?? 'The agent failed.';
  if (run.stopReason === 'credit_limit_reached') return { code: 'credit_limit_reached', source: 'billing', retryable: false, message };
  const byAgent = run.stopReason === 'step_limit_reached' || run.stopReason === 'model_error';
  return { code: 'internal', source: byAgent ? 'agent' : 'system', retryable: false, message };
}

/** A stored observation as the trace shows it: the JSON the tool answered (clipped, so maybe only its text). */
function resultOf(observation: unknown): unknown {
  if (typeof observation !== 'string') return observation ?? null;
  try {
    return JSON.parse(observation);
  } catch {
    return observation;
  }
}

export function traceEvents(run: TraceRun, steps: TraceStep[], sessions: TraceSession[], opts: { zeroDataRetention: boolean }): Record<string, unknown>[] {
  type Pending = { at: Date; body: Record<string, unknown> };
  const during: Pending[] = [];
  const ending: Pending[] = [];
  let into = during;
  const add = (at: Date, key: string, agent: typeof ORCHESTRATOR | typeof SYSTEM, body: Record<string, unknown>) =>
    into.push({ at, body: { eventId: uuidv5(`${run.id}/${key}`, EVENT_NAMESPACE), agent, ...body } });
  const sessionsById = new Map(sessions.map((s) => [s.id, s]));

  add(run.createdAt, 'run.started', SYSTEM, { type: 'run.started' });
  add(run.createdAt, 'agent.started', ORCHESTRATOR, { type: 'agent.started' });
  for (const step of steps) {
    if (step.thought) add(step.decidedAt, `${step.step}/reasoning`, ORCHESTRATOR, { type: 'reasoning.summary', text: step.thought });
    if (!step.tool) {
      add(step.decidedAt, `${step.step}/progress`, ORCHESTRATOR, { type: 'progress.reported', phase: 'finalizing', message: `step ${step.step}: answering` });
      continue;
    }
    const callId = toolCallId(run.id, step.step);
    const label = actionLabel(step.tool, step.input);
    add(step.decidedAt, `${step.step}/progress`, ORCHESTRATOR, {
      type: 'progress.reported',
      phase: step.step === 1 ? 'planning' : 'working',
      message: `step ${step.step}: ${label}`,
    });
    add(step.decidedAt, `${step.step}/tool.started`, ORCHESTRATOR, {
      type: 'tool_call.started',
      toolCallId: callId,
      toolName: step.tool,
      parameters: step.input ?? null,
    });
    const session = step.tool === 'browser_execute' ? sessionsById.get(callId) : undefined;
    if (session) {
      add(session.createdAt, `${step.step}/browser.started`, ORCHESTRATOR, { type: 'browser.session.started', sessionId: session.id });
      if (session.endedAt)
        add(session.endedAt, `${step.step}/browser.finished`, ORCHESTRATOR, {
          type: 'browser.session.finished',
          sessionId: session.id,
          durationMs: session.durationMs ?? session.endedAt.getTime() - session.createdAt.getTime(),
        });
    }
    if (step.ranAt)
      add(step.ranAt, `${step.step}/tool.finished`, ORCHESTRATOR, {
        type: 'tool_call.finished',
        toolCallId: callId,
        toolName: step.tool,
        // Under zero data retention the pages a tool read are not handed out again.
        result: opts.zeroDataRetention ? null : resultOf(step.observation),
      });
  }
  if (run.completedAt) {
    into = ending;
    const end = run.completedAt;
    const outcome = runOutcome(run);
    const error = runError(run);
    if (run.status === 'cancelled') add(end, 'run.cancel_requested', SYSTEM, { type: 'run.cancel_requested', reason: 'user' });
    if (run.status === 'completed')
      add(end, 'artifact.answer', ORCHESTRATOR, {
        type: 'artifact.updated',
        artifact: { kind: run.mode === 'chat' ? 'text' : 'json', artifactId: 'answer', snapshotId: answerSnapshotId(run.id), change: 'init' },
      });
    add(end, 'agent.finished', ORCHESTRATOR, {
      type: 'agent.finished',
      outcome: outcome === 'credit_limit_reached' ? 'failed' : outcome,
      durationMs: end.getTime() - run.createdAt.getTime(),
      error,
    });
    add(end, 'run.finished', SYSTEM, { type: 'run.finished', outcome, error });
  }
  // Chronological; events of the same moment keep the order they were added in (a stable sort). The end
  // comes last: a tool a DELETE interrupted may have reported a moment after it, and is told before it.
  during.sort((a, b) => a.at.getTime() - b.at.getTime());
  return [...during, ...ending].map(({ at, body }, i) => ({ schemaVersion: 1, runId: run.id, occurredAt: at.toISOString(), producerSequence: i + 1, ...body }));
}
