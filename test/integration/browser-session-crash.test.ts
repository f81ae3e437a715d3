// A session outlives its worker and its gateway: kill -9 of both, and the same
// cdpUrl works again once a gateway is back (no worker needed for CDP); executes
// resume with the worker. kill -9 of the browser host ends its sessions `error`
// with the reason in the API and in the workflow, leaves no browser behind, and
// never hangs a caller.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { chromium } from 'playwright';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../src/platform/process/ports.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { exited } from '../support/npm-start.ts';

let h: Harness | undefined;
let site: FixtureSite | undefined;

afterEach(async () => {
  await h?.stop();
  await site?.close();
  h = site = undefined;
});

function browsersOf(hostId: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', `browser-host-${hostId}`], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Sends the request again after a 503 with Retry-After, as a client does: the new gateway refuses a
 * request before running it when PostgreSQL gives it no answer within a second, which the full
 * suite's load can cause just after the restart (a fresh-clone run saw it once in two).
 */
async function sentUntilServed(send: () => Promise<Response>, attempts = 3): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const res = await send();
    if (res.status !== 503 || attempt === attempts) return res;
    await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after') ?? 1) * 1000));
  }
}

describe('browser sessions and crashes', () => {
  it('survive kill -9 of the worker and of the gateway: the same cdpUrl works again, executes resume', async () => {
    h = await startHarness();
    site = await startFixtureSite({ '/': page('Crash home', '<p>home</p>'), '/after': page('After the crash', '<p>after</p>') });
    await h.startBrowserHost();
    const worker = await h.spawnWorker();
    const port = await freePort();
    let gateway = await h.spawnGateway({ env: { PORT: String(port) } });
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${gateway.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${h!.apiKey}`, 'content-type': 'application/json', ...init.headers } });

    const created = await (await api('/v2/browser', { method: 'POST', body: JSON.stringify({ ttl: 600, activityTtl: 300 }) })).json();
    expect(created.success, JSON.stringify(created)).toBe(true);
    const client = await chromium.connectOverCDP(created.cdpUrl);
    await client.contexts()[0].pages()[0].goto(`${site.url}/`);

    worker.kill('SIGKILL');
    gateway.child.kill('SIGKILL');
    await Promise.all([exited(worker), exited(gateway.child)]);
    await client.close().catch(() => undefined);

    // Only a gateway is back: CDP goes gateway -> host, the workflow is not needed for it.
    gateway = await h.spawnGateway({ env: { PORT: String(port) } });
    const again = await chromium.connectOverCDP(created.cdpUrl);
    const tab = again.contexts()[0].pages()[0];
    expect(tab.url()).toBe(`${site.url}/`);
    await tab.goto(`${site.url}/after`);
    await again.close();

    // The harness stops what it spawned.
    await h.spawnWorker();
    const exec = await (
      await sentUntilServed(() => api(`/v2/browser/${created.id}/execute`, { method: 'POST', body: JSON.stringify({ code: 'await page.title()' }) }))
    ).json();
    expect(exec).toMatchObject({ success: true, result: 'After the crash', error: null });
    const del = await (await api(`/v2/browser/${created.id}`, { method: 'DELETE' })).json();
    expect(del).toMatchObject({ success: true, creditsBilled: 2 });
    const row = await h.db.browserSession.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({ status: 'destroyed', endReason: 'deleted' });
  }, 240_000);

  it('end `error` with the reason when their browser host is killed, leaving no browser behind', async () => {
    h = await startHarness();
    await h.startWorker();
    const host = await h.spawnBrowserHost();
    const created = await (await h.api('/v2/browser', { method: 'POST', json: { ttl: 600, activityTtl: 300 } })).json();
    expect(created.success, JSON.stringify(created)).toBe(true);
    const { hostId } = await h.db.browserSession.findUniqueOrThrow({ where: { id: created.id } });
    expect(browsersOf(hostId!).length).toBeGreaterThan(0);

    // An execute in flight when the host dies: the gateway's connection to the host's relay
    // drops, and the caller hears at once that the host stopped responding (not after the code's
    // timeout, nor after the session's end).
    const running = await (await h.api(`/v2/browser/${created.id}/execute`, { method: 'POST', json: { code: 'console.log(1)', timeout: 5 } })).json();
    expect(running.stdout).toContain('1');
    const before = (await h.db.browserSession.findUniqueOrThrow({ where: { id: created.id } })).lastActivityAt;
    const inFlight = h
      .api(`/v2/browser/${created.id}/execute`, { method: 'POST', json: { code: 'await new Promise((r) => setTimeout(r, 200_000));', timeout: 240 } })
      .then(async (r) => ({ status: r.status, body: await r.json(), at: Date.now() }));
    await waitFor(
      'the execute to reach the host',
      async () => (await h!.db.browserSession.findUniqueOrThrow({ where: { id: created.id } })).lastActivityAt > before,
    );
    await new Promise((r) => setTimeout(r, 1000));

    host.kill('SIGKILL');
    const killedAt = Date.now();
    await exited(host);
    await waitFor('the browser of the killed host to go', async () => browsersOf(hostId!).length === 0, 20_000);

    const ended = await waitFor(
      'the session to end',
      async () => {
        const r = await h!.db.browserSession.findUniqueOrThrow({ where: { id: created.id } });
        return r.status !== 'active' && r;
      },
      90_000,
    );
    expect(ended.status).toBe('error');
    expect(ended.endReason).toBe(`browser host ${hostId} stopped responding`);
    const view = await (await h.api(`/v2/browser/${created.id}`)).json();
    expect(view).toMatchObject({ status: 'error', endReason: `browser host ${hostId} stopped responding` });
    const exec = await h.api(`/v2/browser/${created.id}/execute`, { method: 'POST', json: { code: '1' } });
    expect(exec.status).toBe(410);
    const answered = await inFlight;
    expect(answered).toMatchObject({ status: 500, body: { code: 'EXECUTE_FAILED' } });
    expect(answered.body.error).toContain(`browser host ${hostId} stopped responding`);
    // Answered when the connection dropped, before the session ended (the host's heartbeat timeout, 15 s).
    expect(answered.at - killedAt).toBeLessThan(10_000);
    const handle = h.temporal.workflow.getHandle(`browser-${created.id}`);
    expect(await handle.result()).toMatchObject({ status: 'error', reason: `browser host ${hostId} stopped responding` });
    // Its history (the in-flight execute cancelled: 'executes-end-with-session') replays;
    // RECORD_HISTORY_DIR=<dir> keeps it as a fixture for test/unit/workflow-replay.test.ts.
    const history = await handle.fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history, handle.workflowId);
    if (process.env.RECORD_HISTORY_DIR) {
      mkdirSync(process.env.RECORD_HISTORY_DIR, { recursive: true });
      writeFileSync(join(process.env.RECORD_HISTORY_DIR, 'browser-session-host-lost.json'), historyToJSON(history));
    }
  }, 240_000);
});
