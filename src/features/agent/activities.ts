// The agent's activities, on the control queue. Each step is two: agentDecide
// asks the model (its decision and its tokens are written in one transaction,
// keyed by the step, so a retried call neither asks again nor counts twice), then
// agentAct runs the chosen tool and stores what it answered (a tool that fails
// or refuses is an observation for the model, not a failed run). Answers,
// failures and budgets end the row here; agentEnd ends it for the workflow
// (step budget, cancellation). Every write checks the row is still processing,
// and the webhook events go with the writes that make them true (agent-events.ts).
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { FeatureActivityDeps } from '../../platform/feature.ts';
import { storableJson, storableText } from '../../platform/db/storable.ts';
import type { Tx } from '../../platform/db/prisma.ts';
import { LlmError } from '../../platform/llm/chat-completion.ts';
import { structuredCompletion } from '../../platform/llm/structured-output.ts';
import { chargeOnce } from '../../platform/usage/credits.ts';
import { DomainError } from '../../platform/domain-error.ts';
import { jobModel } from '../../jobs/job-model.ts';
import { clipPageText } from '../../page/model-formats/page-as-data.ts';
import type { AgentRequest } from './agent-request.ts';
import { actionLabel, agentMessages, answerSchemaOf, decisionSchema, type EarlierTurn, type PastStep } from './agent-messages.ts';
import { AGENT_RETRY, type AgentDecision, type AgentEnded, type AgentObservation, type AgentStatus, type AgentStopReason } from './definitions.ts';
import { terminalEvent, writeAgentEvent, type AgentWebhook } from './agent-events.ts';
import { threatPolicy, threatRefusal } from '../../page/threat-policy.ts';
import { allowedUnder } from './url-constraint.ts';
import { toolCallId } from './tool-call-id.ts';
import type { AgentFeatureSettings } from './config.ts';

/** The stored request: the validated body, the budget and model it was given (older rows lack the newer fields). */
type StoredRequest = AgentRequest & { servedModel?: string; webhook?: AgentWebhook };

type Decision = { thought: string; action: { tool: string; input: Record<string, unknown> } | { finish: unknown } };

/** Most time between two heartbeats of a running tool (the scrape and map tools wait on workflows). */
const HEARTBEAT_INTERVAL_MS = 5_000;

function lastAttempt(): boolean {
  return Context.current().info.attempt >= (AGENT_RETRY.maximumAttempts ?? Infinity);
}

export function createAgentActivities({ db, config, log, tools }: FeatureActivityDeps<AgentFeatureSettings>) {
  const toolList = [...tools.values()];

  async function processingJob(agentId: string) {
    const job = await db.agentJob.findUnique({ where: { id: agentId } });
    if (!job) throw ApplicationFailure.nonRetryable(`agent ${agentId} does not exist`, 'AgentNotFound');
    return job;
  }

  function endedAs(status: string): AgentEnded {
    return status === 'cancelled' ? { kind: 'ended', cancelled: true } : { kind: 'ended' };
  }

  /** Ends the row if it is still processing, with its final webhook event; the transaction's other writes go with it. */
  async function end(
    tx: Tx,
    agentId: string,
    status: Exclude<AgentStatus, 'processing'>,
    fields: { data?: unknown; message?: string; error?: string; stopReason?: AgentStopReason },
  ) {
    const now = new Date();
    const { count } = await tx.agentJob.updateMany({
      where: { id: agentId, status: 'processing' },
      data: {
        status,
        ...(fields.data !== undefined && { data: storableJson(fields.data).value as object }),
        ...(fields.message !== undefined && { message: storableText(fields.message) }),
        ...(fields.error !== undefined && { error: storableText(fields.error) }),
        ...(fields.stopReason !== undefined && { stopReason: fields.stopReason }),
        completedAt: now,
        expiresAt: new Date(now.getTime() + config.agent.resultTtlHours * 3_600_000),
      },
    });
    if (count === 0) return;
    const job = await tx.agentJob.findUniqueOrThrow({ where: { id: agentId } });
    await writeAgentEvent(tx, agentId, (job.options as StoredRequest).webhook, terminalEvent(job));
    log.info('agent ended', { agentId, status, ...(fields.error && { error: fields.error }) });
  }

  const endNow = (agentId: string, status: Exclude<AgentStatus, 'processing'>, fields: Parameters<typeof end>[3]) =>
    db.$transaction((tx) => end(tx, agentId, status, fields));

  /** Model tokens on the ledger (once per step) and on the row, with the step's other writes. */
  async function recordTokens(tx: Tx, job: { id: string; teamId: string; apiKeyId: string }, step: number, tokens: number) {
    if (tokens <= 0) return;
    const charged = await chargeOnce(tx, {
      teamId: job.teamId,
      apiKeyId: job.apiKeyId,
      endpoint: 'agent',
      jobId: job.id,
      itemKey: `step-${step}`,
      credits: 0,
      modelTokens: tokens,
    });
    if (charged) await tx.agentJob.update({ where: { id: job.id }, data: { tokens: { increment: tokens } } });
  }

  return {
    async agentDecide(agentId: string, step: number, maxSteps: number): Promise<AgentDecision> {
      const job = await processingJob(agentId);
      if (job.status !== 'processing') return endedAs(job.status);
      const done = await db.agentStep.findUnique({ where: { agentId_step: { agentId, step } } });
      if (done?.tool) return { kind: 'tool', label: actionLabel(done.tool, done.input) };
      const req = job.options as unknown as StoredRequest;
      const llm = jobModel(config.llm, req.zeroDataRetention);
      if (!llm) {
        await endNow(agentId, 'failed', {
          error: 'No model may be used: LLM_BASE_URL is unset, or the run keeps zero data retention and LLM_IS_LOCAL is off.',
          stopReason: 'model_error',
        });
        return { kind: 'ended' };
      }
      const past: PastStep[] = await db.agentStep.findMany({
        where: { agentId, step: { lt: step } },
        orderBy: { step: 'asc' },
        select: { step: true, thought: true, tool: true, input: true, observation: true },
      });
      const earlier: EarlierTurn[] = job.threadId
        ? await db.agentJob.findMany({
            where: { threadId: job.threadId, turn: { lt: job.turn } },
            orderBy: { turn: 'asc' },
            select: { turn: true, mode: true, prompt: true, status: true, data: true, message: true, error: true },
          })
        : [];
      const messages = agentMessages(
        req,
        toolList,
        past,
        step,
        { maxSteps, maxObservationChars: config.agent.maxObservationChars, maxInputChars: llm.maxInputChars ?? config.llm.maxInputChars },
        earlier,
      );
      let decision: Decision;
      let tokens: number;
      try {
        const answer = await structuredCompletion(llm, {
          name: 'agent_step',
          schema: decisionSchema(toolList, answerSchemaOf(req)),
          messages,
          ...(req.servedModel && { model: req.servedModel }),
        });
        decision = answer.value as Decision;
        tokens = answer.usage.promptTokens + answer.usage.completionTokens;
      } catch (err) {
        if (!(err instanceof LlmError)) throw err;
        // An endpoint that failed (no answer, HTTP error) may answer the next attempt; an unusable answer twice ends the run.
        const unusable = err.status === undefined && /after one retry|nested more than/.test(err.message);
        await db.$transaction(async (tx) => {
          await recordTokens(tx, job, step, err.usage.promptTokens + err.usage.completionTokens);
          if (unusable || lastAttempt())
            await end(tx, agentId, 'failed', { error: `The model's step ${step} could not be used: ${err.message}.`, stopReason: 'model_error' });
        });
        if (unusable || lastAttempt()) return { kind: 'ended' };
        throw err;
      }
      const action = decision.action;
      if ('finish' in action) {
        await db.$transaction(async (tx) => {
          await recordTokens(tx, job, step, tokens);
          await tx.agentStep.upsert({
            where: { agentId_step: { agentId, step } },
            create: { agentId, step, thought: storableText(decision.thought), tokens },
            update: {},
          });
          await end(tx, agentId, 'completed', req.mode === 'chat' ? { message: String(action.finish ?? ''), data: null } : { data: action.finish ?? null });
        });
        return { kind: 'ended' };
      }
      const endedMeanwhile = await db.$transaction(async (tx) => {
        await recordTokens(tx, job, step, tokens);
        // A DELETE that came during the model call ended the run: its tokens count, its decision is not taken.
        // The row is locked, so a DELETE after this check waits for the step to be written.
        const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM agent_job WHERE id = ${agentId}::uuid FOR UPDATE`;
        if (row?.status !== 'processing') return row?.status ?? 'failed';
        await tx.agentStep.upsert({
          where: { agentId_step: { agentId, step } },
          create: {
            agentId,
            step,
            thought: storableText(decision.thought),
            tool: action.tool,
            input: storableJson(action.input ?? {}).value as object,
            tokens,
          },
          update: {},
        });
        return undefined;
      });
      if (endedMeanwhile) return endedAs(endedMeanwhile);
      return { kind: 'tool', label: actionLabel(action.tool, action.input) };
    },

    async agentAct(agentId: string, step: number, maxCredits: number): Promise<AgentObservation> {
      const job = await processingJob(agentId);
      if (job.status !== 'processing') return endedAs(job.status);
      const row = await db.agentStep.findUniqueOrThrow({ where: { agentId_step: { agentId, step } } });
      if (row.ranAt !== null) return { kind: 'observed', credits: job.credits };
      if (job.credits >= maxCredits) {
        await endNow(agentId, 'failed', {
          error: `The agent reached its credit budget (maxCredits ${maxCredits}) without an answer.`,
          stopReason: 'credit_limit_reached',
        });
        return { kind: 'ended' };
      }
      const req = job.options as unknown as StoredRequest;
      const context = Context.current();
      // Well within the heartbeat timeout, or a healthy worker's long tool run would count as dead.
      const interval = Math.min(HEARTBEAT_INTERVAL_MS, (context.info.heartbeatTimeoutMs ?? HEARTBEAT_INTERVAL_MS * 3) / 3);
      const beat = setInterval(() => context.heartbeat(`step ${step}: ${row.tool}`), interval);
      let observation: unknown;
      let credits = 0;
      try {
        const tool = toolList.find((t) => t.name === row.tool); // the model's text, any name
        if (!tool) throw new DomainError('invalid', `there is no tool named ${row.tool}; the tools are ${toolList.map((t) => t.name).join(', ')}`);
        const parsed = tool.input.safeParse(row.input);
        if (!parsed.success)
          throw new DomainError(
            'invalid',
            `the input is not valid for ${tool.name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`,
          );
        const urls = tool.urlsOf?.(parsed.data) ?? [];
        if (req.strictConstrainToURLs && req.urls?.length) {
          const allowed = allowedUnder(req.urls);
          const outside = urls.find((url) => !allowed(url));
          if (outside) throw new DomainError('invalid', `${outside} is outside the URLs this run may read (strictConstrainToURLs)`);
        }
        const threat = threatPolicy(req.threatProtection);
        const refusal = urls.map((url) => threatRefusal(url, threat)).find((reason) => reason !== undefined);
        if (refusal) throw new DomainError('invalid', refusal);
        const result = await tool.run(parsed.data, {
          teamId: job.teamId,
          apiKeyId: job.apiKeyId,
          zeroDataRetention: req.zeroDataRetention,
          ...(req.location && { location: req.location }),
          callId: toolCallId(agentId, step),
          signal: context.cancellationSignal,
          heartbeat: (detail) => context.heartbeat(detail),
        });
        observation = { output: result.output };
        credits = result.credits;
      } catch (err) {
        if (context.cancellationSignal.aborted) throw err;
        observation = { error: (err as Error).message };
      } finally {
        clearInterval(beat);
      }
      // Stored as the model reads it: a page's markdown can be megabytes, the model reads its start.
      const clipped = storableText(clipPageText(JSON.stringify(observation), config.agent.maxObservationChars));
      return db.$transaction(async (tx): Promise<AgentObservation> => {
        const { count } = await tx.agentStep.updateMany({
          where: { agentId, step, ranAt: null },
          data: { observation: clipped, credits, ranAt: new Date() },
        });
        // A step that finishes after the run ended (a cancel landing mid-tool) is kept but not added: the run's
        // credits stay what its final event already said.
        if (count > 0) await tx.agentJob.updateMany({ where: { id: agentId, status: 'processing' }, data: { credits: { increment: credits } } });
        const updated = await tx.agentJob.findUniqueOrThrow({ where: { id: agentId } });
        if (updated.status !== 'processing') return endedAs(updated.status);
        if (count > 0) {
          const failed = observation as { error?: string };
          await writeAgentEvent(tx, agentId, req.webhook, {
            name: 'action',
            itemKey: `step-${step}`,
            success: failed.error === undefined,
            data: [{ creditsUsed: credits, action: row.tool, input: row.input }],
            ...(failed.error !== undefined && { error: failed.error }),
          });
        }
        if (updated.credits >= maxCredits) {
          await end(tx, agentId, 'failed', {
            error: `The agent reached its credit budget (maxCredits ${maxCredits}, ${updated.credits} credits used) without an answer.`,
            stopReason: 'credit_limit_reached',
          });
          return { kind: 'ended' };
        }
        return { kind: 'observed', credits: updated.credits };
      });
    },

    async agentEnd(agentId: string, status: 'failed' | 'cancelled', error?: string, stopReason?: AgentStopReason): Promise<void> {
      await endNow(agentId, status, { ...(error !== undefined && { error }), stopReason: stopReason ?? (status === 'cancelled' ? 'cancelled' : 'failed') });
    },
  };
}

export type AgentActivities = ReturnType<typeof createAgentActivities>;
