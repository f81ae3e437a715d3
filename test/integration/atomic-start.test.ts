// The crawl start is two steps, the committed row and then its workflow; a gateway
// killed with SIGKILL between them leaves a row the worker's reconciler starts.
// A TCP proxy between the spawned gateway and Temporal stalls the start at the
// chosen point, so the kill lands exactly there. Each case has a harness (team and
// task queue) of its own, so no reconciler of an earlier case is still running.
import { WorkflowNotFoundError } from '@temporalio/client';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, expect, it } from 'vitest';
import { crawlWorkflowId } from '../../src/features/crawl/definitions.ts';
import { crawlRequestSchema } from '../../src/features/crawl/crawl-request.ts';
import { startCrawlWorkflow } from '../../src/features/crawl/crawl-workflow-start.ts';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import { startTcpProxy, type HoldDirections, type TcpProxy } from '../support/tcp-proxy.ts';

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

async function proxyToTemporal(h: Harness): Promise<TcpProxy> {
  const proxy = await startTcpProxy(h.config.temporal.address!);
  cleanups.push(() => proxy.close());
  return proxy;
}

const describeWorkflow = (h: Harness, id: string) => h.temporal.workflow.getHandle(crawlWorkflowId(id)).describe();

/** Every run of the crawl's workflow id, once visibility shows one as finished. */
async function finishedRuns(h: Harness, id: string) {
  return waitFor(`a finished run of ${crawlWorkflowId(id)} in visibility`, async () => {
    const runs: { runId: string; status: string }[] = [];
    for await (const wf of h.temporal.workflow.list({ query: `WorkflowId = '${crawlWorkflowId(id)}'` })) {
      runs.push({ runId: wf.runId, status: wf.status.name });
    }
    return runs.some((r) => r.status !== 'RUNNING') ? runs : undefined;
  }, 60_000, 500);
}

async function expectCrawledOnce(h: Harness, site: FixtureSite, id: string) {
  const status = await waitForCrawl(h, id, 150_000);
  expect(status.status).toBe('completed');
  expect(status.completed).toBe(PAGES);
  expect(new Set(status.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL)).size).toBe(PAGES);
  for (let i = 0; i < PAGES; i++) expect(site.hits.get(i === 0 ? '/' : `/p/${i}`)).toBe(1);
  const runs = await finishedRuns(h, id);
  expect(runs).toEqual([{ runId: expect.any(String), status: 'COMPLETED' }]);
  // describe() reads the latest run from the history service, not from visibility.
  expect((await describeWorkflow(h, id)).runId).toBe(runs[0].runId);
  return runs[0].runId;
}

/**
 * POST /v2/crawl through a spawned gateway whose Temporal traffic is held as asked once the
 * gateway is up, then SIGKILL of the gateway as soon as the row is committed and the start is
 * on the wire. Returns the crawl id and what the caller got (an error: it never had an answer).
 */
async function startAndKillGateway(h: Harness, site: FixtureSite, held: HoldDirections, onTheWire: (proxy: TcpProxy, id: string) => Promise<boolean>) {
  const proxy = await proxyToTemporal(h);
  const gateway = await h.spawnGateway({ temporalAddress: proxy.address });
  proxy.hold(held);
  const answer = fetch(`${gateway.baseUrl}/v2/crawl`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${site.url}/`, limit: 100 }),
  }).then((res) => res.json() as Promise<unknown>, (err: Error) => err);
  const row = await waitFor('the crawl row', () => h.db.crawl.findFirst({ where: { teamId: h.teamId } }).then((r) => r ?? undefined), 30_000, 20);
  await waitFor('the workflow start on the wire', () => onTheWire(proxy, row.id), 30_000, 20);
  const exited = new Promise((resolve) => gateway.child.once('exit', resolve));
  gateway.child.kill('SIGKILL');
  await exited;
  return { id: row.id, answer: await answer };
}

it('starts the crawl of a gateway killed before its workflow start reached Temporal, once', async () => {
  const { h, site } = await setup();
  const { id, answer } = await startAndKillGateway(h, site, { toServer: true, toClient: true }, async (proxy) => proxy.heldBytes().toServer > 0);
  expect(answer).toBeInstanceOf(Error);
  const row = await h.db.crawl.findUniqueOrThrow({ where: { id } });
  expect(row).toMatchObject({ status: 'scraping', workflowStartedAt: null });
  await expect(describeWorkflow(h, id)).rejects.toBeInstanceOf(WorkflowNotFoundError);

  // The API shows a committed crawl as running, whether or not its workflow exists yet.
  const status = await (await h.api(`/v2/crawl/${id}`)).json();
  expect(status).toMatchObject({ success: true, status: 'scraping', completed: 0, total: 0, data: [], next: expect.stringContaining(`/v2/crawl/${id}?skip=0`) });
  const active = await (await h.api('/v2/crawl/active')).json();
  expect(active.crawls.map((c: { id: string }) => c.id)).toEqual([id]);

  await h.startWorker({ services: true });
  await expectCrawledOnce(h, site, id);
  expect((await h.db.crawl.findUniqueOrThrow({ where: { id } })).workflowStartedAt).toBeInstanceOf(Date);
});

it('keeps the workflow a killed gateway started without hearing back, and only marks the row', async () => {
  const { h, site } = await setup();
  const { id, answer } = await startAndKillGateway(h, site, { toServer: false, toClient: true }, async (proxy, crawlId) => {
    if (proxy.heldBytes().toClient === 0) return false;
    return describeWorkflow(h, crawlId).then(() => true, () => false);
  });
  expect(answer).toBeInstanceOf(Error);
  expect(await h.db.crawl.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'scraping', workflowStartedAt: null });
  const { runId } = await describeWorkflow(h, id);

  await h.spawnWorker();
  expect(await expectCrawledOnce(h, site, id)).toBe(runId);
  await waitFor('the reconciler to mark the row', async () => (await h.db.crawl.findUniqueOrThrow({ where: { id } })).workflowStartedAt !== null, 30_000);
});

it('starts a workflow once however often and whenever its start is repeated', async () => {
  const { h, site } = await setup();
  const request = crawlRequestSchema.parse({ url: `${site.url}/`, limit: 100 });
  const crawl = await h.db.crawl.create({ data: { id: uuidv7(), teamId: h.teamId, apiKeyId: null, url: request.url, options: request as object, status: 'scraping' } });
  const toStart = { id: crawl.id, teamId: h.teamId, url: request.url, limit: request.limit };
  const start = () => startCrawlWorkflow(h.db, h.temporal, h.config.temporal.taskQueue, toStart);

  // The gateway and a reconciler at the same time.
  await Promise.all([start(), start()]);
  const marked = (await h.db.crawl.findUniqueOrThrow({ where: { id: crawl.id } })).workflowStartedAt;
  expect(marked).toBeInstanceOf(Date);
  const { runId } = await describeWorkflow(h, crawl.id);
  await start();

  await h.startWorker();
  expect(await expectCrawledOnce(h, site, crawl.id)).toBe(runId);
  // After the end: nothing is run again, and the row keeps its first mark.
  await start();
  expect(await expectCrawledOnce(h, site, crawl.id)).toBe(runId);
  expect((await h.db.crawl.findUniqueOrThrow({ where: { id: crawl.id } })).workflowStartedAt).toEqual(marked);
});
