// The pure pieces behind the agent's SDK surface: the request's refusals, threat
// protection's domain rules, the model and effort mapping, the earlier turns a
// follow-up reads, the trace built from rows, the list and thread shapes, and the
// order an agent's outbox is delivered in.
import { describe, expect, it } from 'vitest';
import { agentRequestSchema } from '../../../src/features/agent/agent-request.ts';
import { runPlan } from '../../../src/features/agent/run-plan.ts';
import { earlierTurnsText } from '../../../src/features/agent/agent-messages.ts';
import { answerSnapshotId, traceEvents } from '../../../src/features/agent/agent-trace.ts';
import { agentAnswer, agentListItem, threadRun } from '../../../src/features/agent/agent-answers.ts';
import { toolCallId } from '../../../src/features/agent/tool-call-id.ts';
import { terminalEvent } from '../../../src/features/agent/agent-events.ts';
import { dueInOrder } from '../../../src/jobs/webhooks/outbox-delivery.ts';
import type { Config } from '../../../src/config.ts';
import type { AgentJob } from '../../../src/generated/prisma/client.ts';

const ID = '01a2b3c4-0000-7000-8000-000000000001';
const config = { llm: { model: 'big', smallModel: 'small' }, agent: { maxSteps: 20, resultTtlHours: 24 } } as unknown as Config;

function job(fields: Partial<AgentJob>): AgentJob {
  return {
    id: ID,
    teamId: 't',
    apiKeyId: 'k',
    prompt: 'Find the price',
    options: {},
    status: 'processing',
    data: null,
    error: null,
    credits: 0,
    tokens: 0,
    createdAt: new Date('2026-12-01T10:00:00.000Z'),
    completedAt: null,
    expiresAt: null,
    threadId: null,
    turn: 1,
    mode: 'extract',
    message: null,
    stopReason: null,
    ...fields,
  };
}

function issues(body: unknown): string[] {
  const parsed = agentRequestSchema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('the request', () => {
  it('takes every field the SDKs send', () => {
    const parsed = agentRequestSchema.parse({
      prompt: 'x',
      urls: ['https://a.example/'],
      model: 'spark-1-mini',
      effort: 'low',
      mode: 'chat',
      threadId: ID,
      location: { country: 'de' },
      webhook: { url: 'https://hooks.example/x', events: ['completed', 'action'] },
      threatProtection: { mode: 'manual-only', blacklist: ['*.Bad.example'], blockedTlds: ['zip'], riskScoreThreshold: 50, failurePolicy: 'open' },
      auditMetadata: { username: 'alice' },
      exchange: { enabled: false, onTermsRequired: 'skip', maxCalls: 3, requireApproval: true },
      zeroDataRetention: false,
      origin: 'js-sdk',
    });
    expect(parsed.location).toEqual({ country: 'DE' });
    expect(parsed.webhook).toMatchObject({ url: 'https://hooks.example/x', events: ['completed', 'action'], headers: {}, metadata: {} });
    expect(parsed.threatProtection?.blacklist).toEqual(['*.Bad.example']);
    expect(agentRequestSchema.parse({ prompt: 'x', webhook: 'https://hooks.example/y' }).webhook?.events).toEqual([
      'started',
      'action',
      'completed',
      'failed',
      'cancelled',
    ]);
    expect(agentRequestSchema.parse({ prompt: 'x' }).mode).toBe('extract');
  });

  it('refuses what this service cannot honour, by name', () => {
    for (const exchange of [{ enabled: true }, { toolkits: ['maps'] }, { approve: { approvalId: 'a' } }, { decline: { approvalId: 'a' } }]) {
      const [problem] = issues({ prompt: 'x', exchange });
      expect(problem).toMatch(/^exchange\.\w+: the exchange .* is not offered by this service/);
    }
    // Threat protection's scanning modes are decided by failurePolicy, as for every job.
    expect(issues({ prompt: 'x', threatProtection: { mode: 'normal' } })).toEqual([]);
    expect(issues({ prompt: 'x', mode: 'chat', schema: { type: 'object' } })[0]).toMatch(/^schema: a chat-mode run answers text/);
    expect(issues({ prompt: 'x', model: 'gpt-4o' })[0]).toBe('model: model must be one of spark-1-pro, spark-1-mini, spark-2');
    expect(issues({ prompt: 'x', threadId: 'nope' })[0]).toMatch(/^threadId: /);
    expect(issues({ prompt: 'x', webhook: { url: 'https://h.example', events: ['page'] } })).toHaveLength(1);
    expect(issues({ prompt: 'x', auditMetadata: { username: 'a', extra: 1 } })).toHaveLength(1);
  });
});

describe('model and effort', () => {
  it('runs spark-1-mini on the small model and scales the step budget by effort', () => {
    expect(runPlan({}, config)).toEqual({ servedModel: 'big', maxSteps: 20 });
    expect(runPlan({ model: 'spark-1-mini', effort: 'low' }, config)).toEqual({ servedModel: 'small', maxSteps: 5 });
    expect(runPlan({ model: 'spark-2', effort: 'medium' }, config)).toEqual({ servedModel: 'big', maxSteps: 10 });
    expect(runPlan({ model: 'spark-1-mini' }, { ...config, llm: { ...config.llm, smallModel: undefined } })).toMatchObject({ servedModel: 'big' });
    expect(runPlan({ effort: 'low' }, { ...config, agent: { ...config.agent, maxSteps: 1 } }).maxSteps).toBe(1);
  });
});

describe('the earlier turns of a thread', () => {
  const turn = (n: number, fields: Record<string, unknown> = {}) => ({
    turn: n,
    mode: 'extract',
    prompt: `question ${n}`,
    status: 'completed',
    data: { n },
    message: null,
    error: null,
    ...fields,
  });

  it('reads each answer as its mode gave it, and leaves the oldest out past the budget', () => {
    const text = earlierTurnsText([turn(1), turn(2, { mode: 'chat', message: 'hello' }), turn(3, { status: 'failed', error: 'budget' })], 100, 10_000);
    expect(text).toEqual([
      'Turn 1 (extract) asked: question 1\nTurn 1 answered: {"n":1}',
      'Turn 2 (chat) asked: question 2\nTurn 2 answered: hello',
      'Turn 3 (extract) asked: question 3\nTurn 3 answered: (no answer: failed, budget)',
    ]);
    const clipped = earlierTurnsText([turn(1), turn(2), turn(3)], 100, 60);
    expect(clipped).toEqual(['Turns 1 to 2 left out: the conversation passed the input budget.', text[2]!.replace('(no answer: failed, budget)', '{"n":3}')]);
    expect(earlierTurnsText([turn(1), turn(2), turn(3)], 100, 120)[0]).toBe('Turn 1 left out: the conversation passed the input budget.');
  });
});

describe('the trace', () => {
  const at = (s: number) => new Date(Date.parse('2026-12-01T10:00:00.000Z') + s * 1000);
  const steps = [
    { step: 1, thought: 'look', tool: 'browser_execute', input: { code: 'x' }, observation: '{"output":{"stdout":"hi"}}', decidedAt: at(1), ranAt: at(5) },
    { step: 2, thought: 'done', tool: null, input: null, observation: null, decidedAt: at(6), ranAt: null },
  ];
  const session = { id: toolCallId(ID, 1), createdAt: at(2), endedAt: at(4), durationMs: 2000 };

  it('tells a finished run in the SDK’s schemaVersion 1 events, in time order', () => {
    const events = traceEvents(job({ status: 'completed', completedAt: at(7), data: { price: 5 } }), steps, [session], { zeroDataRetention: false });
    expect(events.map((e) => e.type)).toEqual([
      'run.started',
      'agent.started',
      'reasoning.summary',
      'progress.reported',
      'tool_call.started',
      'browser.session.started',
      'browser.session.finished',
      'tool_call.finished',
      'reasoning.summary',
      'progress.reported',
      'artifact.updated',
      'agent.finished',
      'run.finished',
    ]);
    expect(events.map((e) => e.producerSequence)).toEqual(events.map((_, i) => i + 1));
    expect(events.every((e) => e.schemaVersion === 1 && e.runId === ID)).toBe(true);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
    expect(events[4]).toMatchObject({ toolCallId: session.id, toolName: 'browser_execute', parameters: { code: 'x' } });
    expect(events[7]).toMatchObject({ result: { output: { stdout: 'hi' } } });
    expect(events[10]).toMatchObject({ artifact: { kind: 'json', artifactId: 'answer', snapshotId: answerSnapshotId(ID), change: 'init' } });
    expect(events.at(-1)).toMatchObject({ outcome: 'succeeded', error: null, occurredAt: at(7).toISOString() });
    // The same rows give the same ids.
    expect(traceEvents(job({ status: 'completed', completedAt: at(7) }), steps, [session], { zeroDataRetention: false })[3]!.eventId).toBe(events[3]!.eventId);
  });

  it('names cancellations and budgets, and withholds tool results under zero data retention', () => {
    const cancelled = traceEvents(job({ status: 'cancelled', completedAt: at(7) }), steps.slice(0, 1), [], { zeroDataRetention: true });
    expect(cancelled.map((e) => e.type).slice(-3)).toEqual(['run.cancel_requested', 'agent.finished', 'run.finished']);
    expect(cancelled.at(-1)).toMatchObject({ outcome: 'cancelled', error: { code: 'cancelled', source: 'system', retryable: false } });
    expect(cancelled.find((e) => e.type === 'tool_call.finished')).toMatchObject({ result: null });
    const broke = traceEvents(job({ status: 'failed', stopReason: 'credit_limit_reached', error: 'spent', completedAt: at(7) }), [], [], {
      zeroDataRetention: false,
    });
    expect(broke.at(-2)).toMatchObject({ type: 'agent.finished', outcome: 'failed' });
    expect(broke.at(-1)).toMatchObject({ outcome: 'credit_limit_reached', error: { code: 'credit_limit_reached', source: 'billing', message: 'spent' } });
    // A tool the cancel interrupted reported after it: the end still comes last.
    const late = traceEvents(job({ status: 'cancelled', completedAt: at(3) }), steps.slice(0, 1), [], { zeroDataRetention: false });
    expect(late.map((e) => e.type).slice(-4)).toEqual(['tool_call.finished', 'run.cancel_requested', 'agent.finished', 'run.finished']);
    const running = traceEvents(job({}), steps.slice(0, 1), [], { zeroDataRetention: false });
    expect(running.map((e) => e.type).at(-1)).toBe('tool_call.finished');
  });
});

describe('answers', () => {
  it('answers a chat run in message, a cancelled one as failed, and echoes model, effort and the thread', () => {
    const chat = job({
      status: 'completed',
      mode: 'chat',
      message: 'Five euros.',
      threadId: ID,
      turn: 2,
      options: { model: 'spark-1-mini', effort: 'low', servedModel: 'small', exchange: { enabled: false } },
    });
    expect(agentAnswer(chat, config)).toMatchObject({
      success: true,
      status: 'completed',
      message: 'Five euros.',
      model: 'spark-1-mini',
      effort: 'low',
      threadId: ID,
      threadTurn: 2,
      mode: 'chat',
      exchange: { enabled: false, paidCalls: 0, creditsUsed: 0 },
    });
    expect(agentAnswer(chat, config)).not.toHaveProperty('data');
    expect(agentAnswer(job({ status: 'cancelled', stopReason: 'cancelled', options: { servedModel: 'big' } }), config)).toMatchObject({
      success: false,
      status: 'failed',
      model: 'big',
      stopReason: 'cancelled',
    });
  });

  it('lists a run with a target hint, and gives thread runs their outcome', () => {
    expect(agentListItem(job({ options: { urls: ['https://a.example/'], origin: 'js-sdk', servedModel: 'big' } }), config)).toEqual({
      id: ID,
      createdAt: '2026-12-01T10:00:00.000Z',
      targetHint: 'https://a.example/',
      origin: 'js-sdk',
      settings: { hidden: false, starred: false },
      status: 'processing',
      options: { urls: ['https://a.example/'], prompt: 'Find the price', model: 'big' },
    });
    expect(agentListItem(job({}), config)).toMatchObject({ targetHint: 'Find the price', origin: 'api' });
    const done = job({ status: 'completed', data: { a: 1 }, completedAt: new Date('2026-12-01T10:01:00.000Z'), credits: 3 });
    expect(threadRun(done, true)).toMatchObject({ status: 'succeeded', data: { a: 1 }, message: null, creditsUsed: 3, finishedAt: '2026-12-01T10:01:00.000Z' });
    expect(threadRun(done, false)).not.toHaveProperty('data');
    expect(threadRun(job({ status: 'failed', stopReason: 'credit_limit_reached' }), true)).toMatchObject({ status: 'credit_limit_reached', finishedAt: null });
  });

  it('makes the final webhook event of each ending', () => {
    const base = { credits: 2, data: { a: 1 }, message: null, error: null, mode: 'extract' };
    expect(terminalEvent({ ...base, status: 'completed' })).toEqual({ name: 'completed', success: true, data: [{ creditsUsed: 2, data: { a: 1 } }] });
    expect(terminalEvent({ ...base, status: 'completed', mode: 'chat', message: 'hi' })).toMatchObject({ data: [{ creditsUsed: 2, message: 'hi' }] });
    expect(terminalEvent({ ...base, status: 'failed', error: 'x' })).toEqual({ name: 'failed', success: false, data: [{ creditsUsed: 2 }], error: 'x' });
    expect(terminalEvent({ ...base, status: 'cancelled' })).toMatchObject({ name: 'cancelled', success: false });
  });
});

describe('outbox order', () => {
  const event = (type: string, createdAt: number, due = 0) =>
    ({ id: `${type}-${createdAt}`, type, createdAt: new Date(createdAt), nextAttemptAt: new Date(due) }) as never;
  const agent = { startedType: 'agent.started', terminalTypes: ['agent.completed'], inOrder: true };

  it('sends started first, an agent’s actions one at a time in order, and the final event last', () => {
    const now = new Date(100);
    const pick = (events: never[]) => dueInOrder(agent, events, now, 8).map((e: { id: string }) => e.id);
    expect(pick([event('agent.action', 2), event('agent.started', 1)])).toEqual(['agent.started-1']);
    expect(pick([event('agent.completed', 9), event('agent.action', 3), event('agent.action', 2)])).toEqual(['agent.action-2']);
    // The earliest action waits for its retry: the later ones wait with it.
    expect(pick([event('agent.action', 2, 500), event('agent.action', 3)])).toEqual([]);
    expect(pick([event('agent.completed', 9)])).toEqual(['agent.completed-9']);
    const crawl = { startedType: 'crawl.started', terminalTypes: ['crawl.completed'] };
    expect(dueInOrder(crawl, [event('crawl.page', 2), event('crawl.page', 3), event('crawl.completed', 4)], now, 8)).toHaveLength(2);
  });
});
