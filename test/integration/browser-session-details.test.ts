// A browser session's current details in the Temporal UI: its state, host, the
// time its ttl has left and when it ends, its last use, its executes, and how
// it ended.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserHost } from '../../src/features/browser-sessions/host/browser-host.ts';
import { sessionWorkflowId, stateQuery } from '../../src/features/browser-sessions/protocol/definitions.ts';
import { page, type FixtureSite } from '../support/fixture-site.ts';
import { waitFor, type Harness } from '../support/harness.ts';
import { startSessionHarness } from '../support/session-harness.ts';
import { currentDetails } from '../support/workflow-ui.ts';

let h: Harness;
let site: FixtureSite;
let host: BrowserHost;

beforeAll(async () => {
  ({ h, site, host } = await startSessionHarness({ '/': page('Details', '<h1>Details</h1>') }));
}, 120_000);

afterAll(async () => {
  await h?.stop();
  await site?.close();
});

const clock = (ms: number) => `${new Date(ms).toISOString().slice(11, 19)} UTC`;

describe('a browser session in the Temporal UI', () => {
  it('shows its state, ttl, last use and executes as current details, and how it ended', async () => {
    const res = await h.api('/v2/browser', { method: 'POST', json: { ttl: 300, activityTtl: 120 } });
    expect(res.status).toBe(200);
    const s = await res.json();
    const handle = h.temporal.workflow.getHandle(sessionWorkflowId(s.id));
    const state = await handle.query(stateQuery);
    expect(state.hostId).toBe(host.hostId);
    const ends = `ends ${clock(state.expiresAtMs)}`;
    const ttl = `ttl: (\\d+ min( \\d+ s)?|[\\d.]+ s) left at \\d\\d:\\d\\d:\\d\\d UTC, ${ends}`;
    expect(await currentDetails(handle)).toMatch(
      new RegExp(
        `^active on host ${host.hostId} · ${ttl} · last used ${clock(state.lastActivityMs)}, ends idle at ${clock(state.lastActivityMs + 120_000)} · 0 executes$`,
      ),
    );

    const exec = await h.api(`/v2/browser/${s.id}/execute`, { method: 'POST', json: { code: 'await page.goto(' + JSON.stringify(`${site.url}/`) + '); 1' } });
    expect(exec.status).toBe(200);
    // The gateway signals the execute's end after answering: the details show its last use once it is heard.
    await waitFor("the execute's end to reach the workflow", async () => (await handle.query(stateQuery)).executing === 0);
    const used = await handle.query(stateQuery);
    expect(used.executes).toBe(1);
    expect(await currentDetails(handle)).toMatch(
      new RegExp(
        `^active on host ${host.hostId} · ${ttl} · last used ${clock(used.lastActivityMs)}, ends idle at ${clock(used.lastActivityMs + 120_000)} · 1 execute$`,
      ),
    );

    expect((await h.api(`/v2/browser/${s.id}`, { method: 'DELETE' })).status).toBe(200);
    await handle.result();
    expect(await currentDetails(handle)).toBe('destroyed (deleted) · 1 execute');
  }, 120_000);
});
