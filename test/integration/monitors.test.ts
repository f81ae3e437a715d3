// Monitors through the official JS SDK's eight monitor calls, against a fixture site
// whose pages change between checks (same, changed, new, removed, erroring), with
// each monitor's Temporal Schedule seen through the `temporal` CLI, pause and resume
// reflected in it, the reconciler rebuilding a deleted schedule, the webhook events,
// credits, caps, and a check whose worker is killed with SIGKILL halfway.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { promisify } from 'node:util';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { page, startFixtureSite, type FixtureResponse, type FixtureSite } from '../support/fixture-site.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { killTestStage } from '../support/kill-test-stage.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { verifyWebhookSignature } from '../../src/jobs/webhooks/signature.ts';
import { reconcileMonitors } from '../../src/features/monitors/monitor-reconciler.ts';
import { createLogger } from '../../src/platform/log.ts';
import { manualCheckWorkflowId } from '../../src/features/monitors/definitions.ts';

const run = promisify(execFile);

/** `temporal schedule describe` of the monitor's schedule, as JSON, through the CLI binary. */
async function describeSchedule(monitorId: string): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.env.TEMPORAL_CLI_PATH!, [
    'schedule',
    'describe',
    '--schedule-id',
    `monitor-${monitorId}`,
    '--address',
    inject('temporalAddress'),
    '--namespace',
    'default',
    '--output',
    'json',
  ]);
  return JSON.parse(stdout) as Record<string, unknown>;
}

type Payload = { data: string };
/** A payload of the CLI's JSON: base64 of JSON. */
const decode = (p: Payload) => JSON.parse(Buffer.from(p.data, 'base64').toString('utf8')) as unknown;

// Scheduled runs never come during the test (1 January, 03:00): every check here is started by runMonitor.
const YEARLY = { cron: '0 3 1 1 *', timezone: 'UTC' };

let h: Harness;
let site: FixtureSite;
let receiver: WebhookReceiver;
let client: Firecrawl;
const recorded: RecordedResponse[] = [];

/** The fixture site, changed by the tests between checks. */
const text: Record<string, string> = {
  '/site/a': 'Page A.',
  '/site/b': 'Page B, first version.',
  '/site/gone': 'Soon gone.',
  '/site/new': 'Brand new.',
  '/site/err': 'Fine for now.',
  '/solo': 'A lone page.',
};
let links = ['/site/a', '/site/b', '/site/gone', '/site/err'];
let errStatus = 200;

function sitePage(path: string): FixtureResponse {
  return { status: path === '/site/err' ? errStatus : 200, body: page(path, `<main><h1>${path}</h1><p>${text[path]}</p></main>`) };
}

async function waitForCheck(monitorId: string, checkId: string, sdk = client) {
  return waitFor(
    `check ${checkId} to end`,
    async () => {
      const checks = await sdk.listMonitorChecks(monitorId);
      const check = checks.find((c) => c.id === checkId);
      return check && ['completed', 'partial', 'failed'].includes(check.status) ? check : undefined;
    },
    120_000,
    250,
  );
}

beforeAll(async () => {
  h = await startHarness({ recordResponses: recorded });
  await h.startWorker();
  receiver = await startWebhookReceiver();
  site = await startFixtureSite({
    '/site': () => ({ body: page('Site', `<main><h1>Site</h1>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main>`) }),
    ...Object.fromEntries(Object.keys(text).map((path) => [path, () => sitePage(path)])),
  });
  client = new Firecrawl({ apiKey: h.apiKey, apiUrl: h.baseUrl });
});

afterAll(async () => {
  await receiver?.close();
  await site?.close();
  await h?.stop();
});

describe('monitors through @mendable/firecrawl-js', () => {
  let monitorId: string;
  const checkIds: string[] = [];

  it('createMonitor makes the monitor and its Temporal Schedule monitor-<id>', async () => {
    const monitor = await client.createMonitor({
      name: 'Site watch',
      schedule: YEARLY,
      targets: [
        { id: 'site', type: 'crawl', url: `${site.url}/site`, crawlOptions: { limit: 20, sitemap: 'skip' } },
        { id: 'solo', type: 'scrape', urls: [`${site.url}/solo`] },
      ],
      webhook: { url: receiver.url, metadata: { watch: 'site' } },
      notification: { email: { enabled: true, recipients: ['ops@example.com'] } },
      retentionDays: 7,
      goal: 'Notice text changes',
      judgeEnabled: true,
    });
    monitorId = monitor.id;
    expect(monitor).toMatchObject({
      name: 'Site watch',
      status: 'active',
      schedule: YEARLY,
      retentionDays: 7,
      goal: 'Notice text changes',
      judgeEnabled: true,
      lastCheckSummary: null,
      currentCheckId: null,
      // One check a year of at most 20 + 1 pages, in an average month.
      estimatedCreditsPerMonth: 2,
    });
    expect(monitor.targets.map((t) => t.id)).toEqual(['site', 'solo']);
    expect(new Date(monitor.nextRunAt!).getUTCMonth()).toBe(0);

    const described = await describeSchedule(monitorId);
    const text = JSON.stringify(described);
    expect(text).toContain('monitorCheckWorkflow');
    expect(text).toContain(`monitor-check-${monitorId}`);
    expect(text).toContain('SCHEDULE_OVERLAP_POLICY_SKIP');
    expect(text).toContain('"catchupWindow":"600s"');
    expect(text).toContain('"jitter":"30s"');
    // The memo and the search attributes name the team and the monitor.
    const schedule = described as { memo: { fields: Record<string, Payload> }; searchAttributes: { indexedFields: Record<string, Payload> } };
    expect(decode(schedule.memo.fields.monitorId)).toBe(monitorId);
    expect(decode(schedule.memo.fields.teamId)).toBe(h.teamId);
    expect(decode(schedule.searchAttributes.indexedFields.MonitorId)).toBe(monitorId);
    expect(decode(schedule.searchAttributes.indexedFields.TeamId)).toBe(h.teamId);
  });

  it('listMonitors and getMonitor answer it', async () => {
    expect((await client.listMonitors()).map((m) => m.id)).toContain(monitorId);
    expect(await client.getMonitor(monitorId)).toMatchObject({ id: monitorId, status: 'active', schedule: YEARLY });
  });

  it('runMonitor: the first check finds every page new', async () => {
    const queued = await client.runMonitor(monitorId);
    expect(queued).toMatchObject({ monitorId, trigger: 'manual', status: 'queued' });
    const check = await waitForCheck(monitorId, queued.id);
    checkIds.push(check.id);
    expect(check.status).toBe('completed');
    expect(check.summary).toEqual({ totalPages: 6, same: 0, changed: 0, new: 6, removed: 0, error: 0 });
    const detail = await client.getMonitorCheck(monitorId, check.id);
    expect(detail.pages.map((p) => [p.targetId, new URL(p.url).pathname, p.status]).sort()).toEqual(
      [
        ['site', '/site', 'new'],
        ['site', '/site/a', 'new'],
        ['site', '/site/b', 'new'],
        ['site', '/site/err', 'new'],
        ['site', '/site/gone', 'new'],
        ['solo', '/solo', 'new'],
      ].sort(),
    );
    expect(check.actualCredits).toBe(6);
    expect(check.billingStatus).toBe('confirmed');
  });

  it('runMonitor after the site changed: same, changed, new, removed and error, with the diff', async () => {
    text['/site/b'] = 'Page B, second version.';
    links = ['/site/a', '/site/b', '/site/new', '/site/err'];
    errStatus = 500;
    const balanceBefore = (await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } })).creditBalance;
    const deliveredBefore = receiver.deliveries.length;
    const queued = await client.runMonitor(monitorId);
    const check = await waitForCheck(monitorId, queued.id);
    checkIds.push(check.id);
    // /site changed too: its links did.
    expect(check.summary).toEqual({ totalPages: 7, same: 2, changed: 2, new: 1, removed: 1, error: 1 });
    // Two pages a request: the SDK follows `next` until it has them all.
    const detail = await client.getMonitorCheck(monitorId, check.id, { limit: 2 });
    const byPath = Object.fromEntries(detail.pages.map((p) => [new URL(p.url).pathname, p]));
    expect(Object.fromEntries(Object.entries(byPath).map(([path, p]) => [path, p.status]))).toEqual({
      '/site': 'changed',
      '/site/a': 'same',
      '/site/b': 'changed',
      '/site/new': 'new',
      '/site/gone': 'removed',
      '/site/err': 'error',
      '/solo': 'same',
    });
    expect(byPath['/site/b'].diff?.text).toContain('-Page B, first version.');
    expect(byPath['/site/b'].diff?.text).toContain('+Page B, second version.');
    expect(byPath['/site/b'].previousScrapeId).toBeTruthy();
    expect(byPath['/site/gone']).toMatchObject({ currentScrapeId: null });
    expect(byPath['/site/err'].statusCode).toBe(500);
    // No model is configured here: the goal and judgeEnabled are kept, and no page has a judgment.
    expect(detail.pages.every((p) => p.judgment === null)).toBe(true);
    // The check's pages were paid for as its jobs' pages: 6 loaded (the removed one was not).
    expect(check.actualCredits).toBe(6);
    expect((await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } })).creditBalance).toBe(balanceBefore - 6);

    const filtered = await client.getMonitorCheck(monitorId, check.id, { status: 'changed' });
    expect(filtered.pages.map((p) => new URL(p.url).pathname).sort()).toEqual(['/site', '/site/b']);

    // Signed webhook events: one monitor.page per page that is not the same, then monitor.check.completed.
    const events = await waitFor('the check events', () => {
      const mine = receiver.deliveries.slice(deliveredBefore).filter((d) => (d.payload as { checkId?: string }).checkId === check.id);
      return mine.some((d) => d.payload.type === 'monitor.check.completed') ? mine : undefined;
    });
    const secret = (await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } })).webhookSigningSecret!;
    for (const d of events) expect(verifyWebhookSignature(d.raw, d.headers['x-service-signature'] as string, secret)).toBe(true);
    expect(events.filter((d) => d.payload.type === 'monitor.page')).toHaveLength(5);
    const completed = events.find((d) => d.payload.type === 'monitor.check.completed')!;
    expect(completed.payload).toMatchObject({ success: true, id: monitorId, metadata: { watch: 'site' } });
    expect(completed.payload.data[0]).toMatchObject({ id: check.id, summary: check.summary });
    const final = (await client.listMonitorChecks(monitorId)).find((c) => c.id === check.id)!;
    expect(final.notificationStatus).toMatchObject({ email: { delivered: false }, webhook: { events: 6, failed: 0 } });

    // The check's history replays; RECORD_HISTORY_DIR=<dir> keeps it as a fixture for test/unit/workflow-replay.test.ts.
    const handle = h.temporal.workflow.getHandle(manualCheckWorkflowId(monitorId, check.id));
    expect(await handle.result()).toEqual({ checkId: check.id, status: 'completed' });
    const history = await handle.fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history, handle.workflowId);
    if (process.env.RECORD_HISTORY_DIR) {
      mkdirSync(process.env.RECORD_HISTORY_DIR, { recursive: true });
      writeFileSync(join(process.env.RECORD_HISTORY_DIR, 'monitor-check.json'), historyToJSON(history));
    }
  });

  it('listMonitorChecks lists the checks newest first; getMonitor has the last summary', async () => {
    expect((await client.listMonitorChecks(monitorId)).map((c) => c.id)).toEqual([...checkIds].reverse());
    expect((await client.listMonitorChecks(monitorId, { limit: 1, offset: 1 })).map((c) => c.id)).toEqual([checkIds[0]]);
    const monitor = await client.getMonitor(monitorId);
    expect(monitor.lastCheckSummary).toMatchObject({ changed: 2, removed: 1 });
    expect(monitor.lastRunAt).toBeTruthy();
  });

  it('a run of the schedule itself (triggered in Temporal) is a scheduled check', async () => {
    await h.temporal.schedule.getHandle(`monitor-${monitorId}`).trigger();
    const check = await waitFor('the scheduled check', async () => {
      const found = (await client.listMonitorChecks(monitorId)).find((c) => c.trigger === 'scheduled');
      return found && ['completed', 'partial', 'failed'].includes(found.status) ? found : undefined;
    });
    // Nothing changed since the last check; the page gone then is not reported again.
    expect(check.summary).toEqual({ totalPages: 6, same: 5, changed: 0, new: 0, removed: 0, error: 1 });
    // The time the schedule's run was due, before its jitter.
    expect(new Date(check.scheduledFor!).getTime()).toBeLessThanOrEqual(new Date(check.startedAt!).getTime());
    const row = await h.db.monitorCheck.findUniqueOrThrow({ where: { id: check.id } });
    expect(row.workflowId.startsWith(`monitor-check-${monitorId}-`)).toBe(true);
    checkIds.push(check.id);
  });

  it('updateMonitor pauses and resumes the schedule; the Temporal schedule says so', async () => {
    const paused = await client.updateMonitor(monitorId, { status: 'paused' });
    expect(paused).toMatchObject({ status: 'paused', nextRunAt: null });
    expect(JSON.stringify(await describeSchedule(monitorId))).toMatch(/"paused":\s*true/);
    const resumed = await client.updateMonitor(monitorId, { status: 'active', name: 'Site watch 2' });
    expect(resumed).toMatchObject({ status: 'active', name: 'Site watch 2' });
    expect(JSON.stringify(await describeSchedule(monitorId))).not.toMatch(/"paused":\s*true/);
  });

  it('a pause made in Temporal (the UI) is what the API reports', async () => {
    await h.temporal.schedule.getHandle(`monitor-${monitorId}`).pause('paused by an operator');
    expect((await client.getMonitor(monitorId)).status).toBe('paused');
    await h.temporal.schedule.getHandle(`monitor-${monitorId}`).unpause();
    expect((await client.getMonitor(monitorId)).status).toBe('active');
  });

  it('the reconciler rebuilds a schedule deleted behind the API, and one left stale', async () => {
    const deps = { db: h.db, temporal: h.temporal, config: h.config, log: createLogger('error') };
    await h.temporal.schedule.getHandle(`monitor-${monitorId}`).delete();
    await expect(describeSchedule(monitorId)).rejects.toThrow();
    // Rows changed in the last few seconds may still be being written by their gateway.
    await h.db.monitor.update({ where: { id: monitorId }, data: { updatedAt: new Date(Date.now() - 60_000) } });
    expect((await reconcileMonitors(deps)).repaired).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(await describeSchedule(monitorId))).toContain('monitorCheckWorkflow');

    // A row whose revision moved on while the schedule was not rewritten (Temporal was unreachable).
    await h.db.monitor.update({ where: { id: monitorId }, data: { status: 'paused', revision: { increment: 1 }, updatedAt: new Date(Date.now() - 60_000) } });
    await reconcileMonitors(deps);
    expect(JSON.stringify(await describeSchedule(monitorId))).toMatch(/"paused":\s*true/);
    expect((await client.getMonitor(monitorId)).status).toBe('paused');
  });

  it('schedule text is normalised to cron and echoed; a text it cannot read is a 400 saying what it understands', async () => {
    const monitor = await client.createMonitor({
      name: 'Text',
      schedule: { text: 'weekdays at 18:30', timezone: 'Europe/Paris' },
      targets: [{ type: 'scrape', urls: [`${site.url}/solo`] }],
    });
    expect(monitor.schedule).toEqual({ cron: '30 18 * * 1-5', text: 'weekdays at 18:30', timezone: 'Europe/Paris' });
    await client.deleteMonitor(monitor.id);
    await expect(describeSchedule(monitor.id)).rejects.toThrow();
    await expect(client.getMonitor(monitor.id)).rejects.toThrow(/Monitor not found/);

    const bad = await h.api('/v2/monitor', {
      method: 'POST',
      json: { name: 'x', schedule: { text: 'now and then' }, targets: [{ type: 'scrape', urls: [`${site.url}/solo`] }] },
    });
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.error).toContain('"now and then" is not understood');
    expect(body.error).toContain('"every N minutes"');
    const often = await h.api('/v2/monitor', {
      method: 'POST',
      json: { name: 'x', schedule: { cron: '* * * * *' }, targets: [{ type: 'scrape', urls: [`${site.url}/solo`] }] },
    });
    expect(often.status).toBe(400);
    expect((await often.json()).code).toBe('SCHEDULE_TOO_FREQUENT');
  });

  it('caps the monitors of a team (MONITOR_MAX_PER_TEAM)', async () => {
    const team = await h.newTeam();
    const other = new Firecrawl({ apiKey: team.apiKey, apiUrl: h.baseUrl });
    const cap = h.config.monitors.maxPerTeam;
    h.config.monitors.maxPerTeam = 1;
    try {
      const first = await other.createMonitor({ name: 'one', schedule: YEARLY, targets: [{ type: 'scrape', urls: [`${site.url}/solo`] }] });
      const refused = await h.api('/v2/monitor', {
        method: 'POST',
        key: team.apiKey,
        json: { name: 'two', schedule: YEARLY, targets: [{ type: 'scrape', urls: [`${site.url}/solo`] }] },
      });
      expect(refused.status).toBe(429);
      expect((await refused.json()).code).toBe('MONITOR_LIMIT');
      // Another team's monitor is not found.
      await expect(client.getMonitor(first.id)).rejects.toThrow(/Monitor not found/);
      expect(await other.deleteMonitor(first.id)).toBe(true);
    } finally {
      h.config.monitors.maxPerTeam = cap;
    }
  });

  it('a team out of credits gets a failed check with the reason', async () => {
    const team = await h.newTeam({ credits: 0 });
    const poor = new Firecrawl({ apiKey: team.apiKey, apiUrl: h.baseUrl });
    const monitor = await poor.createMonitor({ name: 'poor', schedule: YEARLY, targets: [{ type: 'scrape', urls: [`${site.url}/solo`] }] });
    const queued = await poor.runMonitor(monitor.id);
    const check = await waitForCheck(monitor.id, queued.id, poor);
    expect(check).toMatchObject({ status: 'failed', billingStatus: 'failed', actualCredits: 0 });
    expect(check.error).toContain('Insufficient credits');
    await poor.deleteMonitor(monitor.id);
  });

  it('deleteMonitor removes the monitor, its checks and its schedule', async () => {
    expect(await client.deleteMonitor(monitorId)).toBe(true);
    await expect(describeSchedule(monitorId)).rejects.toThrow();
    await expect(client.getMonitor(monitorId)).rejects.toThrow(/Monitor not found/);
    expect(await h.db.monitorCheck.count({ where: { monitorId } })).toBe(0);
  });

  it('answered every call as the OpenAPI document says', async () => {
    expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
  });
});

describe('a check whose worker is killed with SIGKILL halfway', () => {
  const PAGES = 12;
  const stage = killTestStage(PAGES);

  it('ends with every page once, on the next worker', async () => {
    const first = await stage.h.spawnWorker();
    const sdk = new Firecrawl({ apiKey: stage.h.apiKey, apiUrl: stage.h.baseUrl });
    const monitor = await sdk.createMonitor({
      name: 'crash',
      schedule: YEARLY,
      targets: [{ id: 'tree', type: 'crawl', url: `${stage.site.url}/`, crawlOptions: { limit: 50, sitemap: 'skip' } }],
    });
    const queued = await sdk.runMonitor(monitor.id);
    const jobId = await waitFor("the check's crawl", async () => {
      const check = await stage.h.db.monitorCheck.findUnique({ where: { id: queued.id } });
      return (check?.targetResults as { crawlId?: string }[] | undefined)?.[0]?.crawlId;
    });
    await waitFor('pages stored while the crawl runs', async () => (await stage.h.db.jobPage.count({ where: { jobId: jobId } })) >= 3, 60_000, 50);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    expect(await stage.h.db.jobPage.count({ where: { jobId: jobId } })).toBeLessThan(PAGES);

    await stage.h.spawnWorker();
    const check = await waitForCheck(monitor.id, queued.id, sdk);
    expect(check.status).toBe('completed');
    expect(check.summary).toEqual({ totalPages: PAGES, same: 0, changed: 0, new: PAGES, removed: 0, error: 0 });
    expect(await stage.h.db.jobPage.count({ where: { jobId: jobId } })).toBe(PAGES);
    expect(await stage.h.db.monitorCheckPage.count({ where: { checkId: check.id } })).toBe(PAGES);
    // One job for the target, whatever the retries: its id is derived from the check.
    expect(await stage.h.db.job.count({ where: { teamId: stage.h.teamId } })).toBe(1);
    expect(check.actualCredits).toBe(PAGES);
    // The killed worker's slots and browser leases are given back: the team holds none once the check ended.
    await waitFor('the team to hold no slot and no browser lease', async () => {
      const slots = await stage.h.db.teamSlot.count({ where: { teamId: stage.h.teamId, holder: { not: null } } });
      const leases = await stage.h.db.browserLease.count({ where: { teamId: stage.h.teamId } });
      return slots === 0 && leases === 0;
    });
  });
});

describe('the judge, with a model configured', () => {
  let h3: Harness;
  let llm: FakeLlm;
  let priced: FixtureSite;
  let price = '$9';
  const judgment = {
    meaningful: true,
    confidence: 'high',
    reason: 'The price changed.',
    meaningfulChanges: [{ type: 'changed', before: 'Starter costs $9.', after: 'Starter costs $12.', reason: 'A price' }],
  };

  beforeAll(async () => {
    llm = await startFakeLlm();
    llm.script = (req) => (req.messages[0].content.startsWith('You watch web pages') ? JSON.stringify(judgment) : undefined);
    h3 = await startHarness({ llm: { baseUrl: llm.url, model: 'fake-model' } });
    await h3.startWorker();
    priced = await startFixtureSite({ '/pricing': () => ({ body: page('Pricing', `<main><p>Starter costs ${price}.</p></main>`) }) });
  });

  afterAll(async () => {
    await priced?.close();
    await h3?.stop();
    await llm?.close();
  });

  it('judges a changed page against the goal when judgeEnabled; leaves it unjudged otherwise', async () => {
    const sdk = new Firecrawl({ apiKey: h3.apiKey, apiUrl: h3.baseUrl });
    const target = { id: 'pricing', type: 'scrape' as const, urls: [`${priced.url}/pricing`] };
    const judged = await sdk.createMonitor({ name: 'judged', schedule: YEARLY, targets: [target], goal: 'Tell me when prices change', judgeEnabled: true });
    const unjudged = await sdk.createMonitor({ name: 'unjudged', schedule: YEARLY, targets: [target], goal: 'Tell me when prices change' });
    for (const m of [judged, unjudged]) await waitForCheck(m.id, (await sdk.runMonitor(m.id)).id, sdk);
    price = '$12';
    const second = await Promise.all([judged, unjudged].map(async (m) => waitForCheck(m.id, (await sdk.runMonitor(m.id)).id, sdk)));
    // The judge answers before the check's status is final (docs/api/monitor.md, the judge).
    const withJudge = await sdk.getMonitorCheck(judged.id, second[0].id);
    const without = await sdk.getMonitorCheck(unjudged.id, second[1].id);
    expect(withJudge.pages).toHaveLength(1);
    expect(withJudge.pages[0]).toMatchObject({ status: 'changed', judgment });
    expect(without.pages[0]).toMatchObject({ status: 'changed', judgment: null });
    const asked = llm.requests.filter((r) => r.messages[0].content.startsWith('You watch web pages'));
    expect(asked).toHaveLength(1);
    expect(asked[0].messages[1].content).toContain('Goal: Tell me when prices change');
    expect(asked[0].messages[1].content).toContain('+Starter costs $12.');
    // The model's tokens are on the ledger of the job that loaded the page.
    const entry = await h3.db.usageEntry.findFirstOrThrow({ where: { teamId: h3.teamId, itemKey: { startsWith: 'monitor-judgment:' } } });
    expect(entry).toMatchObject({ credits: 0, tokens: llm.usage.prompt_tokens + llm.usage.completion_tokens, jobId: withJudge.pages[0].currentScrapeId });
  });
});
