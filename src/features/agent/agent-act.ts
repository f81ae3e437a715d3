// The second half of an agent step: the tool the model chose is run and what it
// answered is stored for the model to read. A tool that fails or refuses is an
// observation for the model, not a failed run; the run ends at its credit budget.
import { Context } from '@temporalio/activity';
import type { AgentJob, AgentStep } from '../../generated/prisma/client.ts';
import { storableText } from '../../platform/db/storable.ts';
import { clipPageText } from '../../page/model-formats/page-as-data.ts';
import type { AgentObservation } from './definitions.ts';
import { writeAgentEvent } from './agent-events.ts';
import { agentRow, endAgent, endAgentNow, endedAs, type StoredRequest } from './agent-row.ts';
import type { AgentDeps } from './agent-decide.ts';
import { checkedToolCall } from './agent-tool-call.ts';
import { toolCallId } from './tool-call-id.ts';

/** Most time between two heartbeats of a running tool (the scrape and map tools wait on workflows). */
const HEARTBEAT_INTERVAL_MS = 5_000;

interface Observed {
  observation: { output: unknown } | { error: string };
  credits: number;
}

/** Runs the step's tool call for the run's team, heartbeating while it runs; a cancelled activity stops here. */
async function runTool({ toolList }: AgentDeps, job: AgentJob, row: AgentStep): Promise<Observed> {
  const req = job.options as unknown as StoredRequest;
  const context = Context.current();
  // Well within the heartbeat timeout, or a healthy worker's long tool run would count as dead.
  const interval = Math.min(HEARTBEAT_INTERVAL_MS, (context.info.heartbeatTimeoutMs ?? HEARTBEAT_INTERVAL_MS * 3) / 3);
  const beat = setInterval(() => context.heartbeat(`step ${row.step}: ${row.tool}`), interval);
  try {
    const call = checkedToolCall(toolList, row.tool, row.input, req);
    const result = await call.tool.run(call.input, {
      teamId: job.teamId,
      apiKeyId: job.apiKeyId,
      zeroDataRetention: req.zeroDataRetention,
      ...(req.location && { location: req.location }),
      callId: toolCallId(job.id, row.step),
      signal: context.cancellationSignal,
      heartbeat: (detail) => context.heartbeat(detail),
    });
    return { observation: { output: result.output }, credits: result.credits };
  } catch (err) {
    if (context.cancellationSignal.aborted) throw err;
    return { observation: { error: (err as Error).message }, credits: 0 };
  } finally {
    clearInterval(beat);
  }
}

/** Stores the step's observation once, adds its credits to the run and tells its webhook; ends the run at its credit budget. */
async function recordObservation(
  deps: AgentDeps,
  job: AgentJob,
  row: AgentStep,
  maxCredits: number,
  { observation, credits }: Observed,
): Promise<AgentObservation> {
  const { id: agentId } = job;
  const { step } = row;
  // Stored as the model reads it: a page's markdown can be megabytes, the model reads its start.
  const clipped = storableText(clipPageText(JSON.stringify(observation), deps.config.agent.maxObservationChars));
  return deps.db.$transaction(async (tx): Promise<AgentObservation> => {
    const { count } = await tx.agentStep.updateMany({ where: { agentId, step, ranAt: null }, data: { observation: clipped, credits, ranAt: new Date() } });
    // A step that finishes after the run ended (a cancel landing mid-tool) is kept but not added: the run's
    // credits stay what its final event already said.
    if (count > 0) await tx.agentJob.updateMany({ where: { id: agentId, status: 'processing' }, data: { credits: { increment: credits } } });
    const updated = await tx.agentJob.findUniqueOrThrow({ where: { id: agentId } });
    if (updated.status !== 'processing') return endedAs(updated.status);
    if (count > 0) {
      const error = 'error' in observation ? observation.error : undefined;
      await writeAgentEvent(tx, agentId, (job.options as unknown as StoredRequest).webhook, {
        name: 'action',
        itemKey: `step-${step}`,
        success: error === undefined,
        data: [{ creditsUsed: credits, action: row.tool, input: row.input }],
        ...(error !== undefined && { error }),
      });
    }
    if (updated.credits >= maxCredits) {
      await endAgent(deps, tx, agentId, 'failed', {
        error: `The agent reached its credit budget (maxCredits ${maxCredits}, ${updated.credits} credits used) without an answer.`,
        stopReason: 'credit_limit_reached',
      });
      return { kind: 'ended' };
    }
    return { kind: 'observed', credits: updated.credits };
  });
}

/** Runs the tool step `step` decided, unless it ran already, the run ended or its credits are spent. */
export async function runAgentStep(deps: AgentDeps, agentId: string, step: number, maxCredits: number): Promise<AgentObservation> {
  const job = await agentRow(deps, agentId);
  if (job.status !== 'processing') return endedAs(job.status);
  const row = await deps.db.agentStep.findUniqueOrThrow({ where: { agentId_step: { agentId, step } } });
  if (row.ranAt !== null) return { kind: 'observed', credits: job.credits };
  if (job.credits >= maxCredits) {
    await endAgentNow(deps, agentId, 'failed', {
      error: `The agent reached its credit budget (maxCredits ${maxCredits}) without an answer.`,
      stopReason: 'credit_limit_reached',
    });
    return { kind: 'ended' };
  }
  return recordObservation(deps, job, row, maxCredits, await runTool(deps, job, row));
}
