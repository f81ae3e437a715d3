// Health of every process: the worker's and the browser host's operations port and
// the gateway's /health/live and /health/ready. PostgreSQL and Temporal are reached
// through TCP proxies, so holding a proxy's traffic is that server stopping
// answering for these processes only (the suite's shared servers keep running).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inject } from 'vitest';
import { onFreePort } from '../support/on-free-port.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import type { ChildProcess } from 'node:child_process';

let h: Harness;
let proxy: TcpProxy;
let temporalProxy: TcpProxy;
let worker: ChildProcess;
let site: FixtureSite;
const ready: Record<string, string> = {};
const live: Record<string, string> = {};

beforeAll(async () => {
  h = await startHarness();
  const url = new URL(inject('databaseUrl'));
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  url.host = proxy.address;
  const DATABASE_URL = url.toString();
  temporalProxy = await startTcpProxy(inject('temporalAddress'));
  const TEMPORAL_ADDRESS = temporalProxy.address;
  const spawned = await onFreePort((port, output) =>
    h.spawnWorker({ env: { DATABASE_URL, TEMPORAL_ADDRESS, WORKER_OPS_PORT: String(port), WORKER_SHUTDOWN_GRACE_MS: '60000' }, output }),
  );
  worker = spawned.started;
  const workerPort = spawned.port;
  const { port: hostPort } = await onFreePort((port, output) =>
    h.spawnBrowserHost({ env: { DATABASE_URL, TEMPORAL_ADDRESS, BROWSER_HOST_OPS_PORT: String(port) }, output }),
  );
  const gateway = await h.spawnGateway({ env: { DATABASE_URL }, temporalAddress: TEMPORAL_ADDRESS });
  Object.assign(live, { worker: `http://127.0.0.1:${workerPort}/live`, host: `http://127.0.0.1:${hostPort}/live`, gateway: `${gateway.baseUrl}/health/live` });
  Object.assign(ready, {
    worker: `http://127.0.0.1:${workerPort}/ready`,
    host: `http://127.0.0.1:${hostPort}/ready`,
    gateway: `${gateway.baseUrl}/health/ready`,
  });
});

afterAll(async () => {
  proxy?.release();
  temporalProxy?.release();
  await h?.stop();
  await site?.close();
  await proxy?.close();
  await temporalProxy?.close();
});

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as any };
};

/** Every process's /ready once it answers `status`. */
const readyAll = (status: number) =>
  Promise.all(
    Object.entries(ready).map(([name, url]) =>
      waitFor(`${name} ready ${status}`, async () => {
        const answer = await get(url);
        return answer.status === status && answer.body;
      }),
    ),
  );

it('answers /live and /ready with 200 once every process is started', async () => {
  for (const url of Object.values(live)) expect(await get(url)).toEqual({ status: 200, body: { live: true } });
  const [worker, host, gateway] = await readyAll(200);
  for (const body of [worker, host]) {
    expect(body.ready).toBe(true);
    expect(Object.keys(body.checks).sort()).toEqual(['postgres', 'temporal', 'workers']);
    for (const check of Object.values(body.checks)) expect(check).toMatchObject({ ok: true });
  }
  expect(gateway).toMatchObject({ ready: true, checks: { postgres: { ok: true }, temporal: { ok: true } } });
});

it('is not ready, naming PostgreSQL, while PostgreSQL does not answer, and ready again when it does', async () => {
  await readyAll(200);
  proxy.hold();
  const answers = await readyAll(503);
  for (const body of answers) {
    expect(body.ready).toBe(false);
    expect(body.checks.postgres).toMatchObject({ ok: false, error: expect.stringContaining('no answer') });
    expect(body.checks.temporal).toMatchObject({ ok: true });
  }
  for (const url of Object.values(live)) expect((await get(url)).status).toBe(200);
  proxy.release();
  await readyAll(200);
});

it('is not ready, naming Temporal, while Temporal does not answer, and ready again when it does', async () => {
  await readyAll(200);
  temporalProxy.hold();
  const answers = await readyAll(503);
  for (const body of answers) {
    expect(body.ready).toBe(false);
    expect(body.checks.temporal).toMatchObject({ ok: false, error: expect.stringContaining('no answer') });
    expect(body.checks.postgres).toMatchObject({ ok: true });
  }
  temporalProxy.release();
  await readyAll(200);
});

it('answers 404 on the operations port for anything but /live, /ready and /metrics', async () => {
  expect((await get(ready.worker.replace('/ready', '/metricz'))).status).toBe(404);
});

// Last: it stops the worker.
it('takes a draining worker out of rotation, naming its task queues, while it finishes the page it loads', async () => {
  await readyAll(200);
  site = await startFixtureSite({ '/': page('slow', 'answered after 20 s') }, { delayMs: (path) => (path === '/' ? 20_000 : 0) });
  const started = await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, limit: 1, sitemap: 'skip' } });
  expect(started.status).toBe(200);
  await waitFor('the batch loads the slow page', () => site.hits.has('/'));
  worker.kill('SIGTERM');
  const draining = await waitFor('the worker is not ready', async () => {
    const answer = await get(ready.worker);
    return answer.status === 503 && answer.body;
  });
  expect(draining.checks).toMatchObject({
    postgres: { ok: true },
    temporal: { ok: true },
    workers: { ok: false, error: expect.stringMatching(/^not polling: /) },
  });
  expect(draining.checks.workers.error).toContain(h.config.temporal.taskQueue);
  expect((await get(live.worker)).status).toBe(200);
});
