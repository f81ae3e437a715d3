// A browser host killed while it launches a session's browser: the launch heartbeats, so the
// session's start fails within the heartbeat timeout (15 s), and the create request hears it
// before the close on the lost host has waited out its pick-up timeout.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import protos from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { chromium } from 'playwright';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';
import { exited } from '../support/npm-start.ts';

const { EventType } = protos.temporal.api.enums.v1;

let h: Harness | undefined;
let dir: string | undefined;

afterEach(async () => {
  await h?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  h = dir = undefined;
});

describe('a browser host lost during a launch', () => {
  it('end `error` within seconds when their browser host is killed while it launches the browser', async () => {
    h = await startHarness();
    await h.startWorker();
    // Chromium for the host's start check, but a session's Chromium (the one with a DevTools port)
    // never prints its DevTools URL: the launch runs until the host dies.
    dir = mkdtempSync(join(tmpdir(), 'never-ready-chromium-'));
    const fake = join(dir, 'chromium');
    const real = process.env.CHROMIUM_PATH ?? chromium.executablePath();
    writeFileSync(fake, `#!/bin/sh\ncase " $* " in *" --remote-debugging-port=0 "*) exec sleep 120;; esac\nexec '${real}' "$@"\n`);
    chmodSync(dir, 0o755);
    chmodSync(fake, 0o755);
    const host = await h.spawnBrowserHost({ env: { CHROMIUM_PATH: fake } });
    const creating = h
      .api('/v2/browser', { method: 'POST', json: { ttl: 600 } })
      .then(async (r) => ({ status: r.status, body: await r.json(), at: Date.now() }));
    const row = await waitFor('the session row', async () => h!.db.browserSession.findFirst({ where: { teamId: h!.teamId } }));
    const handle = h.temporal.workflow.getHandle(`browser-${row.id}`);
    await waitFor('the launch to run on the host', async () =>
      (await handle.describe()).raw.pendingActivities?.some((a) => a.activityType?.name === 'launchBrowserSession' && a.lastStartedTime),
    );

    host.kill('SIGKILL');
    const killedAt = Date.now();
    await exited(host);
    const answered = await creating;
    expect(answered.status).toBe(500);
    expect(answered.body).toMatchObject({ code: 'SESSION_START_FAILED' });
    expect(answered.body.error).toMatch(/the browser did not start: browser host \S+ stopped responding/);
    // The launch's heartbeat timeout (15 s), not its start-to-close timeout (90 s), nor the close's
    // pick-up timeout on the lost host after it (10 s).
    console.log(`browser host killed during a launch: the session's start failed ${((answered.at - killedAt) / 1000).toFixed(1)} s after the kill`);
    expect(answered.at - killedAt).toBeLessThan(30_000);
    expect(await handle.result()).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/^the browser did not start: browser host \S+ stopped responding$/),
    });
    const ended = await h.db.browserSession.findUniqueOrThrow({ where: { id: row.id } });
    expect(ended.status).toBe('error');
    // Its history (the start's failure answered before the close: 'failed-start-answers-first')
    // replays; RECORD_HISTORY_DIR=<dir> keeps it as a fixture for test/unit/workflow-replay.test.ts.
    const history = await handle.fetchHistory();
    const types = history.events!.map((e) => e.eventType);
    // The caller heard before the close on the lost host timed out.
    expect(types.indexOf(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED)).toBeGreaterThan(-1);
    expect(types.indexOf(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED)).toBeLessThan(
      types.lastIndexOf(EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT),
    );
    await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history, handle.workflowId);
    if (process.env.RECORD_HISTORY_DIR) {
      mkdirSync(process.env.RECORD_HISTORY_DIR, { recursive: true });
      writeFileSync(join(process.env.RECORD_HISTORY_DIR, 'browser-session-launch-host-lost.json'), historyToJSON(history));
    }
  }, 120_000);
});
