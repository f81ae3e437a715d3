// A tool call made again under the same callId (what a caller's retried activity does after a
// crash or a redeploy) finds the first call's job or charge: one scrape job, one map, one search
// charge, one browser session, each billed once, also when both calls run at the same time.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FEATURES } from '../../src/features/index.ts';
import { createLogger } from '../../src/platform/log.ts';
import { toolRegistry, type ToolContext, type ToolName, type ToolRegistry } from '../../src/platform/tools/tool.ts';
import { createSessionSchema } from '../../src/features/browser-sessions/gateway/session-request.ts';
import { startSession } from '../../src/features/browser-sessions/gateway/start-session.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
let site: FixtureSite;
let tools: ToolRegistry;
let apiKeyId: string;

beforeAll(async () => {
  h = await startHarness();
  await h.startWorker();
  await h.startBrowserHost();
  site = await startFixtureSite({
    '/': page('Repeat home', '<main><h1>Repeat home</h1><a href="/quokkas">quokkas</a></main>'),
    '/quokkas': page('Quokka facts', '<main><h1>Quokka facts</h1><p>Quokkas live on Rottnest Island.</p></main>'),
  });
  tools = toolRegistry(
    FEATURES.flatMap((f) => f.tools?.({ db: h.db, config: h.config, log: createLogger('warn', { process: 'test' }), temporal: h.temporal }) ?? []),
  );
  apiKeyId = (await h.db.apiKey.findFirstOrThrow({ where: { teamId: h.teamId } })).id;
});

afterAll(async () => {
  await h?.stop();
  await site?.close();
});

function call(tool: ToolName, input: unknown, callId: string) {
  const ctx: ToolContext = {
    teamId: h.teamId,
    apiKeyId,
    zeroDataRetention: false,
    callId,
    signal: new AbortController().signal,
    heartbeat: () => undefined,
  };
  const t = tools.get(tool)!;
  return t.run(t.input.parse(input), ctx);
}

const charges = (jobId: string) => h.db.usageEntry.findMany({ where: { jobId } });

it('scrape: the repeated call reads the first call’s job, fetched and charged once', async () => {
  const callId = randomUUID();
  const first = await call('scrape', { url: `${site.url}/quokkas` }, callId);
  const again = await call('scrape', { url: `${site.url}/quokkas` }, callId);
  expect(again).toEqual(first);
  expect((first.output as { title: string }).title).toBe('Quokka facts');
  expect(await h.db.job.count({ where: { id: callId } })).toBe(1);
  expect(site.hits.get('/quokkas')).toBe(1);
  expect((await charges(callId)).map((c) => c.credits)).toEqual([1]);

  const together = randomUUID();
  const both = await Promise.all([call('scrape', { url: `${site.url}/` }, together), call('scrape', { url: `${site.url}/` }, together)]);
  expect(both[1]).toEqual(both[0]);
  expect(site.hits.get('/')).toBe(1);
  expect((await charges(together)).map((c) => c.credits)).toEqual([1]);
});

it('map: the repeated call answers the first call’s links, one map charged once', async () => {
  const callId = randomUUID();
  const first = await call('map', { url: `${site.url}/` }, callId);
  const again = await call('map', { url: `${site.url}/` }, callId);
  expect(again).toEqual(first);
  expect((first.output as { links: unknown[] }).links.length).toBeGreaterThan(0);
  expect(await h.db.mapJob.count({ where: { id: callId } })).toBe(1);
  expect((await charges(callId)).map((c) => c.credits)).toEqual([1]);

  const together = randomUUID();
  const both = await Promise.all([call('map', { url: `${site.url}/` }, together), call('map', { url: `${site.url}/` }, together)]);
  expect(both[1].credits).toBe(both[0].credits);
  expect((await charges(together)).map((c) => c.credits)).toEqual([1]);
});

it('search: the repeated call is charged once', async () => {
  const callId = randomUUID();
  const first = await call('search', { query: 'quokkas rottnest' }, callId);
  expect((first.output as { results: unknown[] }).results.length).toBeGreaterThan(0);
  expect(first.credits).toBeGreaterThan(0);
  const again = await call('search', { query: 'quokkas rottnest' }, callId);
  expect(again.credits).toBe(first.credits);
  expect((await charges(callId)).map((c) => c.credits)).toEqual([first.credits]);
});

it('browser_execute: a repeated call ends the first call’s session, billed once, and says its output was lost', async () => {
  const callId = randomUUID();
  const first = await call('browser_execute', { code: 'console.log(40 + 2);' }, callId);
  expect((first.output as { stdout: string }).stdout.trim()).toBe('42');
  const again = await call('browser_execute', { code: 'console.log(40 + 2);' }, callId);
  expect((again.output as { error: string }).error).toMatch(/interrupted/);
  expect(again.credits).toBe(first.credits);
  expect(await h.db.browserSession.count({ where: { id: callId } })).toBe(1);
  expect(await h.db.browserSession.count({ where: { teamId: h.teamId, status: { in: ['starting', 'active'] } } })).toBe(0);
});

it('browser_execute: a call repeated while the first one’s session still runs (its worker died) ends that session, billed once', async () => {
  const callId = randomUUID();
  const team = await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } });
  // What the first attempt left: its session, started and never ended.
  await startSession(h, team, apiKeyId, createSessionSchema.parse({ ttl: 180, activityTtl: 120 }), () => undefined, { id: callId });
  const again = await call('browser_execute', { code: 'console.log(1);' }, callId);
  expect((again.output as { error: string }).error).toMatch(/interrupted/);
  const session = await h.db.browserSession.findUniqueOrThrow({ where: { id: callId } });
  expect(session.status).toBe('destroyed');
  expect(again.credits).toBe(session.creditsBilled);
  expect(await h.db.browserSession.count({ where: { teamId: h.teamId, status: { in: ['starting', 'active'] } } })).toBe(0);
});
