// The crawl start is two steps, the committed row and then its workflow; a gateway
// killed with SIGKILL between them leaves a row the worker's reconciler starts.
// A TCP proxy between the spawned gateway and Temporal stalls the start at the
// chosen point, so the kill lands exactly there. Each case has a harness (team and
// task queue) of its own, so no reconciler of an earlier case is still running.
import { WorkflowNotFoundError } from '@temporalio/client';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, expect, it } from 'vitest';
import { createActivities } from '../../activities/index.ts';
import { newJobWorkflowId } from '../../src/jobs/definitions.ts';
import { crawlRequestSchema } from '../../src/jobs/crawl-request.ts';
import { startJobWorkflow } from '../../src/jobs/job-workflow-start.ts';
import { createLogger } from '../../src/platform/log.ts';
import { heartbeatIntervalMs, heartbeatWhile } from '../../src/platform/temporal/heartbeat-while.ts';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import { startTcpProxy, type HoldDirections, type TcpProxy } from '../support/tcp-proxy.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

const PAGES = 8;
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const h: Harness = await startHarness();
  cleanups.push(() => h.stop());
  const site: FixtureSite = await startFixtureSite(treeSite(PAGES));
  cleanups.push(() => site.close());
  return { h, site };
}

const describeWorkflow = (h: Harness, id: string) => h.temporal.workflow.getHandle(newJobWorkflowId('crawl', id)).describe();
const crawlRow = (h: Harness, id: string) => h.db.job.findUniqueOrThrow({ where: { id } });

/** Every run of the crawl's workflow id, once visibility shows one as finished. */
async function finishedRuns(h: Harness, id: string) {
  return waitFor(
    `a finished run of ${newJobWorkflowId('crawl', id)} in visibility`,
    async () => {
      const runs: { runId: string; status: string }[] = [];
      for await (const wf of h.temporal.workflow.list({ query: `WorkflowId = '${newJobWorkflowId('crawl', id)}'` })) {
        runs.push({ runId: wf.runId, status: wf.status.name });
      }
      return runs.some((r) => r.status !== 'RUNNING') ? runs : undefined;
    },
    60_000,
    500,
  );
}

/** The only run of the crawl's workflow, completed. */
async function expectOneRun(h: Harness, id: string): Promise<string> {
  const runs = await finishedRuns(h, id);
  expect(runs).toEqual([{ runId: expect.any(String), status: 'COMPLETED' }]);
  // describe() reads the latest run from the history service, not from visibility.
  expect((await describeWorkflow(h, id)).runId).toBe(runs[0].runId);
  return runs[0].runId;
}

/** The crawl completed with every page of the site, each fetched once, by one workflow run. */
async function expectCrawledOnce(h: Harness, site: FixtureSite, id: string): Promise<string> {
  const status = await waitForCrawl(h, id, 150_000);
  expect(status.status).toBe('completed');
  expect(status.completed).toBe(PAGES);
  expect(new Set(status.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL)).size).toBe(PAGES);
  for (let i = 0; i < PAGES; i++) expect(site.hits.get(i === 0 ? '/' : `/p/${i}`)).toBe(1);
  return expectOneRun(h, id);
}

/**
 * POST /v2/crawl through a spawned gateway that reaches Temporal through a proxy, which holds
 * the given directions once the gateway is up. Resolves when the crawl row is committed; the
 * answer is left pending (an Error if the gateway dies first or does not answer in time).
 */
async function postThroughStalledGateway(h: Harness, held: HoldDirections, body: object, opts: { env?: Record<string, string>; answerWithinMs?: number } = {}) {
  const proxy = await startTcpProxy(h.config.temporal.address!);
  cleanups.push(() => proxy.close());
  const gateway = await h.spawnGateway({ temporalAddress: proxy.address, env: opts.env });
  proxy.hold(held);
  const answer = fetch(`${gateway.baseUrl}/v2/crawl`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(opts.answerWithinMs ?? 150_000),
  }).then(
    (res) => res.json() as Promise<Record<string, unknown>>,
    (err: Error) => err,
  );
  const row = await waitFor('the crawl row', () => h.db.job.findFirst({ where: { teamId: h.teamId } }).then((r) => r ?? undefined), 30_000, 20);
  return { id: row.id, proxy, gateway, answer };
}

/** In the kill cases the gateway must not give up on the start by itself before it is killed. */
const PATIENT_GATEWAY = { CRAWL_START_TIMEOUT_MS: '600000' };

/** The row is committed, the start is on the wire (`onTheWire`): SIGKILL. Returns what the caller got. */
async function killGatewayMidStart(h: Harness, held: HoldDirections, body: object, onTheWire: (proxy: TcpProxy, id: string) => Promise<boolean>) {
  const { id, proxy, gateway, answer } = await postThroughStalledGateway(h, held, body, { env: PATIENT_GATEWAY });
  await waitFor('the workflow start on the wire', () => onTheWire(proxy, id), 30_000, 20);
  const exited = new Promise((resolve) => gateway.child.once('exit', resolve));
  gateway.child.kill('SIGKILL');
  await exited;
  return { id, answer: await answer };
}

/** Cases that spawn processes: on a loaded machine a spawned worker alone took 27 s to be ready. */
const SPAWNING_TIMEOUT_MS = 300_000;
const heldRequest = { toServer: true, toClient: true };
const requestSent = async (proxy: TcpProxy) => proxy.heldBytes().toServer > 0;

it(
  'starts the crawl of a gateway killed before its workflow start reached Temporal, once',
  async () => {
    const { h, site } = await setup();
    const { id, answer } = await killGatewayMidStart(h, heldRequest, { url: `${site.url}/`, limit: 100 }, requestSent);
    expect(answer).toBeInstanceOf(Error);
    expect(await crawlRow(h, id)).toMatchObject({ status: 'scraping', workflowStartedAt: null });
    await expect(describeWorkflow(h, id)).rejects.toBeInstanceOf(WorkflowNotFoundError);

    // The API shows a committed crawl as running, whether or not its workflow exists yet.
    const status = await (await h.api(`/v2/crawl/${id}`)).json();
    expect(status).toMatchObject({
      success: true,
      status: 'scraping',
      completed: 0,
      total: 0,
      data: [],
      next: expect.stringContaining(`/v2/crawl/${id}?skip=0`),
    });
    const active = await (await h.api('/v2/crawl/active')).json();
    expect(active.crawls.map((c: { id: string }) => c.id)).toEqual([id]);

    await h.startWorker({ services: true });
    await expectCrawledOnce(h, site, id);
    expect((await crawlRow(h, id)).workflowStartedAt).toBeInstanceOf(Date);
  },
  SPAWNING_TIMEOUT_MS,
);

it(
  'keeps the workflow a killed gateway started without hearing back, and only marks the row',
  async () => {
    const { h, site } = await setup();
    const { id, answer } = await killGatewayMidStart(h, { toServer: false, toClient: true }, { url: `${site.url}/`, limit: 100 }, async (proxy, crawlId) => {
      if (proxy.heldBytes().toClient === 0) return false;
      return describeWorkflow(h, crawlId).then(
        () => true,
        () => false,
      );
    });
    expect(answer).toBeInstanceOf(Error);
    expect(await crawlRow(h, id)).toMatchObject({ status: 'scraping', workflowStartedAt: null });
    const { runId } = await describeWorkflow(h, id);

    await h.spawnWorker();
    expect(await expectCrawledOnce(h, site, id)).toBe(runId);
    await waitFor('the reconciler to mark the row', async () => (await crawlRow(h, id)).workflowStartedAt !== null, 120_000);
  },
  SPAWNING_TIMEOUT_MS,
);

it(
  'answers a start Temporal does not confirm with success, and the reconciler runs the crawl once',
  async () => {
    const { h, site } = await setup();
    // Bounded by CRAWL_START_TIMEOUT_MS (default 5 s) plus the gateway's own work; without the bound it took minutes.
    const answerWithinMs = h.config.crawl.startTimeoutMs + 15_000;
    const { id, answer } = await postThroughStalledGateway(h, heldRequest, { url: `${site.url}/`, limit: 100 }, { answerWithinMs });
    const answered = await answer;
    expect(answered).toMatchObject({ success: true, id });
    expect(await crawlRow(h, id)).toMatchObject({ status: 'scraping', workflowStartedAt: null });

    await h.startWorker({ services: true });
    await expectCrawledOnce(h, site, id);
    expect((await crawlRow(h, id)).workflowStartedAt).toBeInstanceOf(Date);
  },
  SPAWNING_TIMEOUT_MS,
);

it(
  'ends a crawl cancelled before its workflow started without fetching anything, and reports the end',
  async () => {
    const { h, site } = await setup();
    const receiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    const { id } = await killGatewayMidStart(h, heldRequest, { url: `${site.url}/`, limit: 100, webhook: receiver.url }, requestSent);
    expect(await (await h.api(`/v2/crawl/${id}`, { method: 'DELETE' })).json()).toEqual({ success: true, status: 'cancelled' });
    expect((await (await h.api(`/v2/crawl/${id}`)).json()).status).toBe('cancelled');
    expect((await (await h.api('/v2/crawl/active')).json()).crawls).toEqual([]);
    // Cancelled long before a worker came back, and its crawl.completed written only after
    // crawl.started was delivered: the end is still reported (it was lost while the grace
    // for a missing final event counted from the cancel).
    await h.db.job.update({ where: { id }, data: { completedAt: new Date(Date.now() - 10 * 60_000) } });
    const { finishCrawl } = (await createActivities({ db: h.db, config: h.config, log: createLogger('warn', { process: 'test' }), temporal: h.temporal }))
      .control;
    // Heartbeats while it waits, as the real one does: finishCrawl runs under the crawl's heartbeat timeout.
    const finishAfterStarted = (input: Parameters<typeof finishCrawl>[0]) =>
      heartbeatWhile(heartbeatIntervalMs(h.config.crawl.heartbeatTimeoutMs), async () => {
        await waitFor('crawl.started delivered', async () => receiver.acknowledged().length > 0, 60_000);
        await new Promise((r) => setTimeout(r, 1000));
        return finishCrawl(input);
      });

    await h.startWorker({ services: true, replace: { finishCrawl: finishAfterStarted } });
    await expectOneRun(h, id);
    const row = await crawlRow(h, id);
    expect(row).toMatchObject({ status: 'cancelled', workflowStartedAt: expect.any(Date), expiresAt: expect.any(Date) });
    expect(site.hits.size).toBe(0);
    const events = await waitFor(
      'both events delivered',
      async () => {
        const got = receiver.acknowledged().map((d) => ({ type: d.payload.type, data: d.payload.data }));
        return got.length >= 2 ? got.sort((a, b) => a.type.localeCompare(b.type)) : undefined;
      },
      // A delivery round that failed waits out its retry's backoff (up to a minute) before the next one.
      150_000,
    );
    expect(events).toEqual([
      { type: 'crawl.completed', data: [{ status: 'cancelled', completed: 0 }] },
      { type: 'crawl.started', data: [] },
    ]);
  },
  SPAWNING_TIMEOUT_MS,
);

it('starts a workflow once however often and whenever its start is repeated', async () => {
  const { h, site } = await setup();
  const request = crawlRequestSchema.parse({ url: `${site.url}/`, limit: 100 });
  const crawl = await h.db.job.create({
    data: {
      id: uuidv7(),
      teamId: h.teamId,
      apiKeyId: null,
      url: request.url,
      options: request as object,
      status: 'scraping',
      taskQueue: h.config.temporal.taskQueue,
    },
  });
  const start = () => startJobWorkflow(h, { id: crawl.id, teamId: h.teamId, workflowId: null, url: request.url, limit: request.limit });

  // The gateway and a reconciler at the same time.
  await Promise.all([start(), start()]);
  const marked = (await crawlRow(h, crawl.id)).workflowStartedAt;
  expect(marked).toBeInstanceOf(Date);
  const { runId } = await describeWorkflow(h, crawl.id);
  await start();

  await h.startWorker();
  expect(await expectCrawledOnce(h, site, crawl.id)).toBe(runId);
  // After the end: nothing is run again, and the row keeps its first mark.
  await start();
  expect(await expectCrawledOnce(h, site, crawl.id)).toBe(runId);
  expect((await crawlRow(h, crawl.id)).workflowStartedAt).toEqual(marked);
});
