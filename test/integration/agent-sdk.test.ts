// The agent surface of both official SDKs against the real gateway, worker and browser host,
// the fake model (test/support/fake-llm.ts) scripted per run by a marker in the prompt, a fixture
// site and a webhook receiver: a thread (an extract turn with every request field, then a chat
// turn that reads it), webhook events through the outbox (signed, in order, filtered), threat
// protection and location reaching the tools, the list with its pages, the trace with a live
// browser session, the answer's snapshot, the refusals, and every agent method of
// @mendable/firecrawl-js (answers checked against its types) and of Python firecrawl (answers
// parsed by its pydantic models).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { agentWorkflowId } from '../../src/features/agent/definitions.ts';
import { verifyWebhookSignature } from '../../src/jobs/webhooks/signature.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startFakeLlm, type ChatRequest, type FakeLlm } from '../support/fake-llm.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';
import { runPythonSdk } from '../support/python-sdk.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import {
  agentListResponse,
  agentResponse,
  agentSnapshotResponse,
  agentStatusResponse,
  agentThreadResponse,
  agentTraceResponse,
} from '../support/agent-sdk-types.ts';

const SCHEMA = { type: 'object', required: ['title'], properties: { title: { type: 'string' } } };

type Scenario = (observations: string[], site: string, system: string) => unknown;

const titleOf = (observation: string | undefined) => /"title":"([^"]+)"/.exec(observation ?? '')?.[1] ?? 'unknown';

const scenarios: Record<string, Scenario> = {
  quick: (obs, site) =>
    obs.length === 0
      ? { thought: 'read', action: { tool: 'scrape', input: { url: `${site}/widgets` } } }
      : { thought: 'done', action: { finish: { title: titleOf(obs[0]) } } },
  // A chat turn: it answers from what the thread's first turn found, which its system prompt carries.
  followup: (_obs, _site, system) => {
    const earlier = /^Turn 1 answered: (.+)$/m.exec(system)?.[1];
    const title = earlier ? (JSON.parse(earlier) as { title?: string }).title : undefined;
    return { thought: 'from the conversation', action: { finish: `Earlier I found: ${title ?? 'nothing'}` } };
  },
  slowloop: (_obs, site) => ({ thought: 'slowly', action: { tool: 'scrape', input: { url: `${site}/slow` } } }),
  spend: (_obs, site) => ({ thought: 'again', action: { tool: 'scrape', input: { url: `${site}/widgets` } } }),
  // A browser that stays open a few seconds, so its live view can be found in the trace.
  browserwait: (obs, site) =>
    obs.length === 0
      ? {
          thought: 'look',
          action: {
            tool: 'browser_execute',
            input: { url: `${site}/widgets`, code: 'await new Promise((r) => setTimeout(r, 4000)); console.log(await page.title());' },
          },
        }
      : { thought: 'done', action: { finish: { title: /"stdout":"([^"\\]+)/.exec(obs[0] ?? '')?.[1] ?? 'unknown' } } },
};

function agentReply(req: ChatRequest, site: string): string | undefined {
  const system = req.messages[0]?.content ?? '';
  const name = /\[agent:(\w+)\]/.exec(system)?.[1];
  if (!system.startsWith('You are a research agent') || !name || !scenarios[name]) return undefined;
  const observations = req.messages.filter((m) => m.role === 'user' && m.content.startsWith('Observation of step')).map((m) => m.content);
  return JSON.stringify(scenarios[name](observations, site, system));
}

let h: Harness;
let llm: FakeLlm;
let site: FixtureSite;
let receiver: WebhookReceiver;
const recorded: RecordedResponse[] = [];

async function waitForAgent(id: string, key = h.apiKey) {
  return waitFor(
    `agent ${id} to end`,
    async () => {
      const body = await (await h.api(`/v2/agent/${id}`, { key })).json();
      return body.status !== 'processing' ? body : undefined;
    },
    120_000,
    200,
  );
}

async function startAgent(json: Record<string, unknown>, key = h.apiKey) {
  const res = await h.api('/v2/agent', { method: 'POST', json, key });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; threadId: string; threadTurn: number };
}

/** The receiver's acknowledged deliveries for one run, in the order they arrived. */
const deliveriesOf = (id: string) => receiver.acknowledged().filter((d) => d.payload.id === id);

beforeAll(async () => {
  llm = await startFakeLlm();
  site = await startFixtureSite(
    {
      '/': page('Shop', '<main><h1>Shop</h1><a href="/widgets">widgets</a></main>'),
      '/widgets': page('Widget catalogue', '<main><h1>Widget catalogue</h1><p>Blue widgets cost five euros.</p></main>'),
      '/slow': page('Slow page', '<main><h1>Slow page</h1></main>'),
    },
    { delayMs: (path) => (path === '/slow' ? 1500 : 0) },
  );
  llm.script = (req) => agentReply(req, site.url);
  receiver = await startWebhookReceiver();
  h = await startHarness({ llm: { baseUrl: llm.url, model: 'fake-agent', smallModel: 'fake-small', timeoutMs: 5000 }, recordResponses: recorded });
  await h.startWorker();
  await h.startBrowserHost();
});

afterAll(async () => {
  await h?.stop();
  await receiver?.close();
  await site?.close();
  await llm?.close();
});

describe('a thread of agent runs', () => {
  let first: { id: string; threadId: string; threadTurn: number };
  let second: { id: string; threadId: string; threadTurn: number };

  it('runs an extract turn with every request field: model, effort, location, webhook, threat protection, audit metadata, the exchange off', async () => {
    first = await startAgent({
      prompt: '[agent:quick] Name the widget page',
      urls: [`${site.url}/widgets`],
      schema: SCHEMA,
      model: 'spark-1-mini',
      effort: 'low',
      mode: 'extract',
      location: { country: 'DE', languages: ['de-DE'] },
      webhook: { url: receiver.url, metadata: { run: 'one' }, headers: { 'x-test': 'yes' } },
      threatProtection: { mode: 'manual-only', blacklist: ['*.blocked.example'], blockedTlds: ['zip'] },
      auditMetadata: { username: 'alice' },
      exchange: { enabled: false, onTermsRequired: 'skip' },
      maxCredits: 20,
    });
    expect(first.threadTurn).toBe(1);
    const done = await waitForAgent(first.id);
    expect(done).toMatchObject({
      success: true,
      status: 'completed',
      data: { title: 'Widget catalogue' },
      model: 'spark-1-mini',
      effort: 'low',
      mode: 'extract',
      threadId: first.threadId,
      threadTurn: 1,
      creditsUsed: 1,
      exchange: { enabled: false, paidCalls: 0, creditsUsed: 0 },
    });
    // spark-1-mini ran on the small model; effort low gave a quarter of AGENT_MAX_STEPS.
    const calls = llm.requests.filter((r) => r.messages[0]?.content.includes('[agent:quick] Name the widget page'));
    expect(calls.map((c) => c.model)).toEqual(['fake-small', 'fake-small']);
    expect(calls[0]!.messages[0]!.content).toContain(`at most ${Math.ceil(h.config.agent.maxSteps / 4)}`);
    // The scrape read the page as a German browser would.
    expect(String(site.headers.get('/widgets')?.['accept-language'])).toMatch(/^de-DE/);
    const row = await h.db.agentJob.findUniqueOrThrow({ where: { id: first.id } });
    expect(row.options).toMatchObject({ auditMetadata: { username: 'alice' } });
  });

  it('delivers the run’s webhook events through the outbox: signed, in order, with the metadata and headers', async () => {
    const secret = (await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } })).webhookSigningSecret!;
    await waitFor('agent.completed to be delivered', () => deliveriesOf(first.id).some((d) => d.payload.type === 'agent.completed'));
    const delivered = deliveriesOf(first.id);
    expect(delivered.map((d) => d.payload.type)).toEqual(['agent.started', 'agent.action', 'agent.completed']);
    for (const d of delivered) {
      expect(verifyWebhookSignature(d.raw, d.headers['x-service-signature'] as string, secret)).toBe(true);
      expect(d.headers['x-test']).toBe('yes');
      expect(d.payload).toMatchObject({ id: first.id, metadata: { run: 'one' } });
    }
    expect(delivered[0]!.payload).toMatchObject({ success: true, data: [] });
    expect(delivered[1]!.payload).toMatchObject({ success: true, data: [{ creditsUsed: 1, action: 'scrape', input: { url: `${site.url}/widgets` } }] });
    expect(delivered[2]!.payload).toMatchObject({ success: true, data: [{ creditsUsed: 1, data: { title: 'Widget catalogue' } }] });
    // The last delivery is recorded just after its receiver answered.
    await waitFor('every event recorded delivered', async () => {
      const events = await h.db.webhookEvent.findMany({ where: { agentId: first.id } });
      return events.length === 3 && events.every((e) => e.state === 'delivered');
    });
    // The run and its deliveries replay (the histories the determinism guard keeps come from here).
    for (const [workflowId, file] of [
      [agentWorkflowId(first.id), 'agent-with-webhook.json'],
      [`agent-webhooks-${first.id}`, 'agent-webhooks.json'],
    ] as const) {
      const handle = h.temporal.workflow.getHandle(workflowId);
      await handle.result();
      const history = await handle.fetchHistory();
      await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history, workflowId);
      if (process.env.RECORD_HISTORY_DIR) {
        mkdirSync(process.env.RECORD_HISTORY_DIR, { recursive: true });
        writeFileSync(join(process.env.RECORD_HISTORY_DIR, file), historyToJSON(history));
      }
    }
  });

  it('continues the thread in chat mode: the follow-up reads the earlier turn and answers in message', async () => {
    second = await startAgent({ prompt: '[agent:followup] What did you find?', threadId: first.threadId, mode: 'chat' });
    expect(second).toMatchObject({ threadId: first.threadId, threadTurn: 2 });
    const done = await waitForAgent(second.id);
    expect(done).toMatchObject({ status: 'completed', mode: 'chat', message: 'Earlier I found: Widget catalogue', threadTurn: 2, model: 'fake-agent' });
    expect(done).not.toHaveProperty('data');
    const system = llm.requests.find((r) => r.messages[0]?.content.includes('[agent:followup]'))!.messages[0]!.content;
    expect(system).toContain('Turn 1 (extract) asked: [agent:quick] Name the widget page');
  });

  it('answers the thread with its runs, oldest first, their data with includeData', async () => {
    const thread = await (await h.api(`/v2/agent/threads/${first.threadId}?includeData=true`)).json();
    expect(thread).toMatchObject({ success: true, thread: { id: first.threadId, status: 'idle' } });
    expect(thread.thread.runs.map((r: Record<string, unknown>) => [r.turn, r.mode, r.status, r.data, r.message])).toEqual([
      [1, 'extract', 'succeeded', { title: 'Widget catalogue' }, null],
      [2, 'chat', 'succeeded', undefined, 'Earlier I found: Widget catalogue'],
    ]);
    const plain = await (await h.api(`/v2/agent/threads/${first.threadId}`)).json();
    expect(plain.thread.runs[0]).not.toHaveProperty('data');
  });

  it('takes one turn at a time, and keeps threads to their team', async () => {
    const third = await startAgent({ prompt: '[agent:slowloop] Read slowly', threadId: first.threadId });
    expect(third.threadTurn).toBe(3);
    expect((await (await h.api(`/v2/agent/threads/${first.threadId}`)).json()).thread.status).toBe('running');
    const busy = await h.api('/v2/agent', { method: 'POST', json: { prompt: 'next', threadId: first.threadId } });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toMatchObject({ code: 'THREAD_BUSY' });
    expect((await h.api(`/v2/agent/${third.id}`, { method: 'DELETE' })).status).toBe(200);
    const { apiKey: key } = await h.newTeam();
    expect((await h.api(`/v2/agent/threads/${first.threadId}`, { key })).status).toBe(404);
    expect((await h.api('/v2/agent', { method: 'POST', key, json: { prompt: 'x', threadId: first.threadId } })).status).toBe(404);
    expect((await h.api(`/v2/agent/threads/${uuidv7()}`)).status).toBe(404);
    expect((await h.api('/v2/agent/threads/not-a-uuid')).status).toBe(400);
  });

  it('traces the run in the SDK’s event schema, and serves the answer’s snapshot', async () => {
    const trace = await (await h.api(`/v2/agent/${first.id}/trace`)).json();
    expect(trace).toMatchObject({ success: true, id: first.id, creditsUsed: 1 });
    expect(trace.events.map((e: { type: string }) => e.type)).toEqual([
      'run.started',
      'agent.started',
      'reasoning.summary',
      'progress.reported',
      'tool_call.started',
      'tool_call.finished',
      'reasoning.summary',
      'progress.reported',
      'artifact.updated',
      'agent.finished',
      'run.finished',
    ]);
    expect(trace.events[5].result.output).toMatchObject({ title: 'Widget catalogue', statusCode: 200 });
    const artifact = trace.events[8].artifact;
    const snapshot = await (await h.api(`/v2/agent/${first.id}/snapshots/${artifact.snapshotId}`)).json();
    expect(snapshot).toEqual({ success: true, id: first.id, snapshotId: artifact.snapshotId, snapshot: JSON.stringify({ title: 'Widget catalogue' }) });
    expect((await h.api(`/v2/agent/${first.id}/snapshots/${uuidv7()}`)).status).toBe(404);
    expect(agentTraceResponse.safeParse(trace).error).toBeUndefined();
  });
});

describe('webhooks, threat protection and live views', () => {
  it('sends only the events asked for, and the final one of a cancelled and of a failed run', async () => {
    const cancelled = await startAgent({ prompt: '[agent:slowloop] Cancel me', webhook: { url: receiver.url, events: ['cancelled', 'failed'] } });
    await waitFor('a step to run', async () => (await h.db.agentStep.count({ where: { agentId: cancelled.id, ranAt: { not: null } } })) >= 1);
    await h.api(`/v2/agent/${cancelled.id}`, { method: 'DELETE' });
    const failed = await startAgent({ prompt: '[agent:spend] Spend', maxCredits: 1, webhook: receiver.url });
    expect(await waitForAgent(failed.id)).toMatchObject({ status: 'failed', stopReason: 'credit_limit_reached' });
    await waitFor('both final events', () => deliveriesOf(cancelled.id).length === 1 && deliveriesOf(failed.id).some((d) => d.payload.type === 'agent.failed'));
    // A step may still finish after the cancel on a loaded machine: the run's credits stay what its final event said.
    const run = await h.db.agentJob.findUniqueOrThrow({ where: { id: cancelled.id } });
    expect(run.credits).toBeGreaterThanOrEqual(1);
    expect(deliveriesOf(cancelled.id).map((d) => d.payload)).toMatchObject([{ type: 'agent.cancelled', success: false, data: [{ creditsUsed: run.credits }] }]);
    expect((await (await h.api(`/v2/agent/${cancelled.id}`)).json()).creditsUsed).toBe(run.credits);
    expect(deliveriesOf(failed.id).map((d) => d.payload.type)).toEqual(['agent.started', 'agent.action', 'agent.failed']);
    expect(deliveriesOf(failed.id)[2]!.payload).toMatchObject({ success: false, error: expect.stringContaining('credit budget') });
    const trace = await (await h.api(`/v2/agent/${cancelled.id}/trace`)).json();
    expect(trace.events.slice(-3).map((e: { type: string }) => e.type)).toEqual(['run.cancel_requested', 'agent.finished', 'run.finished']);
    expect(trace.events.at(-1)).toMatchObject({ outcome: 'cancelled', error: { code: 'cancelled' } });
    // The workflow of a cancelled run's deliveries ends once its outbox is drained.
    await h.temporal.workflow.getHandle(`agent-webhooks-${cancelled.id}`).result();
  });

  it('refuses, as an observation, a URL the threat protection blacklists', async () => {
    const host = new URL(site.url).hostname;
    const { id } = await startAgent({ prompt: '[agent:quick] Blocked', threatProtection: { blacklist: [host] } });
    expect(await waitForAgent(id)).toMatchObject({ status: 'completed', data: { title: 'unknown' }, creditsUsed: 0 });
    const [step] = await h.db.agentStep.findMany({ where: { agentId: id }, orderBy: { step: 'asc' } });
    expect(JSON.parse(String(step!.observation))).toEqual({
      error: expect.stringMatching(
        new RegExp(`is blocked by threat protection \\(rule: blacklist: threatProtection\\.blacklist lists "${host.replaceAll('.', '\\.')}"\\)`),
      ),
    });
  });

  it('lists a running browser_execute session with its live view in the trace', async () => {
    const { id } = await startAgent({ prompt: '[agent:browserwait] Watch it' });
    const live = await waitFor(
      'the live session in the trace',
      async () => {
        const trace = await (await h.api(`/v2/agent/${id}/trace?liveView=true`)).json();
        return trace.activeBrowserSessions?.length ? trace : undefined;
      },
      60_000,
      200,
    );
    const [session] = live.activeBrowserSessions;
    expect(session.liveViewUrl).toMatch(new RegExp(`^${h.baseUrl}/v2/browser/${session.id}/live\\?token=`));
    expect(session.viewport).toEqual({ width: 1280, height: 720 });
    expect((await fetch(session.liveViewUrl)).status).toBe(200);
    expect(await waitForAgent(id)).toMatchObject({ status: 'completed', data: { title: 'Widget catalogue' } });
    const trace = await (await h.api(`/v2/agent/${id}/trace?liveView=true`)).json();
    expect(trace.activeBrowserSessions).toEqual([]);
    expect(trace.events.filter((e: { type: string }) => e.type.startsWith('browser.session')).map((e: { sessionId: string }) => e.sessionId)).toEqual([
      session.id,
      session.id,
    ]);
  });

  it('refuses what it cannot honour with a 400 naming the field', async () => {
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ exchange: { enabled: true } }, /^exchange\.enabled: the exchange .* is not offered by this service/],
      [{ mode: 'chat', schema: SCHEMA }, /^schema: a chat-mode run answers text/],
      [{ model: 'gpt-4o' }, /^model: model must be one of spark-1-pro, spark-1-mini, spark-2/],
    ];
    for (const [fields, message] of refusals) {
      const res = await h.api('/v2/agent', { method: 'POST', json: { prompt: 'x', ...fields } });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(message);
    }
    expect((await h.api('/v2/agent?before=yesterday')).status).toBe(400);
  });
});

describe('the run list', () => {
  it('pages 20 runs at a time, newest first, never splitting runs of the same millisecond', async () => {
    const team = await h.newTeam();
    const apiKeyId = (await h.db.apiKey.findFirstOrThrow({ where: { teamId: team.teamId } })).id;
    const t0 = Date.now() - 60_000;
    // Runs 19, 20 and 21 (newest first) started in the same millisecond.
    const at = (i: number) => new Date(t0 - (i >= 19 && i <= 21 ? 19 : i) * 1000);
    const ids = Array.from({ length: 25 }, (_, i) => ({ id: uuidv7(), createdAt: at(i) }));
    await h.db.agentJob.createMany({
      data: ids.map(({ id, createdAt }, i) => ({ id, teamId: team.teamId, apiKeyId, prompt: `run ${i}`, options: { servedModel: 'fake-agent' }, createdAt })),
    });
    // An expired run is not listed.
    await h.db.agentJob.create({
      data: { id: uuidv7(), teamId: team.teamId, apiKeyId, prompt: 'old', options: {}, status: 'completed', expiresAt: new Date(Date.now() - 1000) },
    });
    const one = await (await h.api('/v2/agent', { key: team.apiKey })).json();
    expect(one.agents).toHaveLength(22);
    expect(one.agents.slice(0, 19).map((a: { id: string }) => a.id)).toEqual(ids.slice(0, 19).map((r) => r.id));
    expect(one.next).toBe(`${h.baseUrl}/v2/agent?before=${at(19).getTime()}`);
    const two = await (await h.api(`/v2/agent?${new URL(one.next).search.slice(1)}`, { key: team.apiKey })).json();
    expect(two.agents.map((a: { id: string }) => a.id)).toEqual(ids.slice(22).map((r) => r.id));
    expect(two).not.toHaveProperty('next');
    expect(new Set([...one.agents, ...two.agents].map((a: { id: string }) => a.id)).size).toBe(25);
    expect(one.agents[0]).toEqual({
      id: ids[0]!.id,
      createdAt: at(0).toISOString(),
      targetHint: 'run 0',
      origin: 'api',
      settings: { hidden: false, starred: false },
      status: 'processing',
      options: { prompt: 'run 0', model: 'fake-agent' },
    });
  });
});

describe('the SDKs', () => {
  it('@mendable/firecrawl-js: every agent method, each answer as its types say', async () => {
    const client = new Firecrawl({ apiKey: h.apiKey, apiUrl: h.baseUrl });
    const started = await client.startAgent({
      prompt: '[agent:quick] Name the widget page',
      urls: [`${site.url}/widgets`],
      schema: SCHEMA,
      maxCredits: 50,
      strictConstrainToURLs: true,
      model: 'spark-2',
      effort: 'high',
      webhook: { url: receiver.url, events: ['completed'] },
      threatProtection: { mode: 'off' },
      auditMetadata: { username: 'carol' },
      mode: 'extract',
      exchange: { enabled: false },
      integration: 'vitest',
    });
    expect(agentResponse.parse(started)).toMatchObject({ success: true, threadTurn: 1 });
    const status = await waitFor('turn 1 to end', async () => {
      const polled = await client.getAgentStatus(started.id);
      return polled.status === 'processing' ? undefined : polled;
    });
    expect(agentStatusResponse.parse(status)).toMatchObject({ status: 'completed', data: { title: 'Widget catalogue' }, model: 'spark-2', effort: 'high' });
    const done = await client.agent({ prompt: '[agent:followup] And?', threadId: started.threadId, mode: 'chat', pollInterval: 1 });
    expect(agentStatusResponse.parse(done)).toMatchObject({ status: 'completed', mode: 'chat', threadTurn: 2, message: 'Earlier I found: Widget catalogue' });
    const thread = await client.getAgentThread(started.threadId!, { includeData: true });
    const runs = agentThreadResponse.parse(thread).thread!.runs;
    expect(runs.map((r) => [r.turn, r.status, r.data ?? r.message])).toEqual([
      [1, 'succeeded', { title: 'Widget catalogue' }],
      [2, 'succeeded', 'Earlier I found: Widget catalogue'],
    ]);
    const list = await client.listAgents();
    expect(
      agentListResponse
        .parse(list)
        .agents!.slice(0, 2)
        .map((a) => a.id),
    ).toEqual([runs[1]!.id, started.id]);
    const before = await client.listAgents({ before: Date.parse(list.agents![0]!.createdAt) });
    expect(agentListResponse.parse(before).agents![0]!.id).toBe(started.id);
    const trace = await client.getAgentTrace(started.id, { liveView: true });
    expect(agentTraceResponse.parse(trace)).toMatchObject({ activeBrowserSessions: [] });
    const artifact = trace.events!.find((e) => e.type === 'artifact.updated');
    if (artifact?.type !== 'artifact.updated') throw new Error('no artifact.updated event');
    const snapshot = await client.getAgentSnapshot(started.id, artifact.artifact.snapshotId);
    expect(JSON.parse(agentSnapshotResponse.parse(snapshot).snapshot!)).toEqual({ title: 'Widget catalogue' });
    const slow = await client.startAgent({ prompt: '[agent:slowloop] Forever' });
    expect(await client.cancelAgent(slow.id)).toBe(true);
    expect(agentStatusResponse.parse(await client.getAgentStatus(slow.id))).toMatchObject({ status: 'failed', stopReason: 'cancelled' });
    await expect(client.startAgent({ prompt: 'x', exchange: { enabled: true } })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/not offered by this service/),
    });
    await expect(client.getAgentThread(uuidv7())).rejects.toMatchObject({ status: 404 });
  });

  it('firecrawl (Python): every agent method, sync and async, each answer parsed by its models', async () => {
    const team = await h.newTeam();
    const out = await runPythonSdk('test/sdk/python_agent_sdk.py', {
      API_URL: h.baseUrl,
      API_KEY: team.apiKey,
      SITE_URL: site.url,
      RECEIVER_URL: receiver.url,
    });
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const result = JSON.parse(out.stdout);
    const { done, follow } = result.ids;
    expect(result.done).toEqual({
      status: 'completed',
      data: { title: 'Widget catalogue' },
      model: 'spark-1-mini',
      effort: 'low',
      mode: 'extract',
      thread_turn: 1,
      credits_used: 1,
      exchange: { enabled: false, paidCalls: 0, creditsUsed: 0 },
    });
    expect(result.chat).toEqual({
      status: 'completed',
      mode: 'chat',
      message: 'Earlier I found: Widget catalogue',
      data: null,
      thread_turn: 2,
      same_thread: true,
    });
    expect(result.trace).toMatchObject({ id: done, credits_used: 1, active_browser_sessions: [] });
    expect(result.trace.types).toContain('artifact.updated');
    expect(result.snapshot).toEqual({ id: done, matches: true, content: { title: 'Widget catalogue' } });
    expect(result.thread).toEqual({
      status: 'idle',
      runs: [
        [1, 'extract', 'succeeded', { title: 'Widget catalogue' }, null],
        [2, 'chat', 'succeeded', null, 'Earlier I found: Widget catalogue'],
      ],
    });
    expect(result.listing.first).toEqual([follow, done]);
    expect(result.listing.first_item).toMatchObject({ id: follow, targetHint: '[agent:followup] What did you find?', status: 'completed' });
    expect(result.listing.older_count).toBe(2);
    expect(result.refused).toMatchObject({ kind: 'BadRequestError', status: 400 });
    expect(result.refused.message).toMatch(/exchange\.enabled: the exchange .* is not offered by this service/);
    expect(result.cancelled).toBe(true);
    expect(result.after).toEqual({ status: 'failed', error: 'The agent was cancelled (DELETE /v2/agent/{id}).' });
    expect(result.async).toEqual({ status: 'completed', trace_types: ['agent.finished', 'run.finished'], snapshot: { title: 'Widget catalogue' } });
    // The Python SDK sends location as the country alone, and the webhook's events as asked.
    const row = await h.db.agentJob.findUniqueOrThrow({ where: { id: done } });
    expect(row.options).toMatchObject({ location: { country: 'DE' }, auditMetadata: { username: 'bob' }, integration: 'pytest' });
    await waitFor('the Python run’s events', () => deliveriesOf(done).length === 2);
    expect(deliveriesOf(done).map((d) => [d.payload.type, d.payload.metadata])).toEqual([
      ['agent.started', { sdk: 'python' }],
      ['agent.completed', { sdk: 'python' }],
    ]);
  });

  it('answered every call as the OpenAPI document says', async () => {
    expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
  });
});
