// A session's control activities retry within SESSION_CONTROL_RETRY, never forever.
// Each test replaces one of them on the worker with one that always throws a
// retryable error (its own short retry delay keeps the test fast; the attempt limit
// is the policy's) and shows the session ends: a host pick that keeps failing ends
// it `error` like a failed launch, with its row recorded and its profile's writer
// place freed; an end that cannot be recorded fails the workflow, and DELETE then
// closes the row.
import { Context } from '@temporalio/activity';
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionWorkflowId } from '../../src/features/browser-sessions/protocol/definitions.ts';
import { SESSION_CONTROL_RETRY } from '../../src/features/browser-sessions/workflow/retry-policies.ts';
import { createSessionRow, LIVE_STATUSES } from '../../src/features/browser-sessions/gateway/session-store.ts';
import { createSessionControlActivities } from '../../src/features/browser-sessions/workflow/control-activities.ts';
import { sessionCredits } from '../../src/features/browser-sessions/shared/session-credits.ts';
import { createLogger } from '../../src/platform/log.ts';
import { SessionStatusAttribute } from '../../src/platform/temporal/search-attribute-keys.ts';
import { startHarness, type Harness } from '../support/harness.ts';

const UNREACHABLE = "Can't reach database server at 127.0.0.1:1";
const PROFILE = { name: 'retried', saveChanges: true };

let h: Harness | undefined;

afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** An activity that fails every attempt, as one would while the database is unreachable; the attempts it saw. */
function alwaysFailing() {
  const attempts: number[] = [];
  const fn = async () => {
    attempts.push(Context.current().info.attempt);
    throw ApplicationFailure.create({ type: 'DatabaseUnreachable', message: UNREACHABLE, nextRetryDelay: 20 });
  };
  return { attempts, fn };
}

const everyAttempt = () => Array.from({ length: SESSION_CONTROL_RETRY.maximumAttempts! }, (_, i) => i + 1);

async function createdSession(h: Harness) {
  const res = await h.api('/v2/browser', { method: 'POST', json: { ttl: 60, profile: PROFILE } });
  const row = await h.db.browserSession.findFirstOrThrow({ where: { teamId: h.teamId } });
  return { status: res.status, body: await res.json(), row, handle: h.temporal.workflow.getHandle(sessionWorkflowId(row.id)) };
}

async function liveSessions(h: Harness): Promise<number> {
  return h.db.browserSession.count({ where: { teamId: h.teamId, status: { in: LIVE_STATUSES } } });
}

/** The retry policy of every activity the workflow scheduled, by activity type, and how many local activities it recorded. */
async function scheduledPolicies(handle: WorkflowHandle) {
  const { events } = await handle.fetchHistory();
  const scheduled = events!.flatMap((e) => {
    const a = e.activityTaskScheduledEventAttributes;
    return a ? [{ type: a.activityType!.name, maximumAttempts: a.retryPolicy!.maximumAttempts }] : [];
  });
  const local = events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length;
  return { scheduled, local };
}

describe('a session whose control activity keeps failing', () => {
  it('ends `error` after the last attempt to pick a host, recorded, unbilled (its browser never came up) and holding nothing', async () => {
    h = await startHarness();
    const pick = alwaysFailing();
    await h.startWorker({ replace: { pickBrowserHost: pick.fn } });

    const { status, body, row, handle } = await createdSession(h);
    const reason = `the browser did not start: ${UNREACHABLE}`;
    expect(status).toBe(500);
    expect(body).toMatchObject({ success: false, code: 'SESSION_START_FAILED', error: `Failed to create browser session: ${reason}` });
    expect(await handle.result()).toMatchObject({ status: 'error', reason });
    expect(pick.attempts).toEqual(everyAttempt());

    const ended = await h.db.browserSession.findUniqueOrThrow({ where: { id: row.id } });
    expect(ended).toMatchObject({ status: 'error', endReason: reason, hostId: null });
    expect(ended.creditsBilled).toBe(0);
    expect(await liveSessions(h)).toBe(0);
    const profile = await h.db.browserProfile.findUniqueOrThrow({ where: { teamId_name: { teamId: h.teamId, name: PROFILE.name } } });
    expect(profile.writerSessionId).toBeNull();

    expect((await handle.describe()).typedSearchAttributes.get(SessionStatusAttribute)).toBe('error');
    // The end's record is a local activity (patch session-end-local-record): a marker, no scheduled task.
    expect(await scheduledPolicies(handle)).toEqual({
      scheduled: [{ type: 'pickBrowserHost', maximumAttempts: SESSION_CONTROL_RETRY.maximumAttempts }],
      local: 1,
    });
  });

  it('fails the workflow after the last attempt to record the end, and DELETE closes the row unbilled', async () => {
    h = await startHarness();
    const finish = alwaysFailing();
    // No browser host runs for this test's queues: the (real) pick fails at once with NoBrowserHost.
    await h.startWorker({ replace: { finishBrowserSession: finish.fn } });

    const { status, body, row, handle } = await createdSession(h);
    expect(status).toBe(503);
    expect(body).toMatchObject({ success: false, code: 'NO_BROWSER_HOST' });
    const err = await handle.result().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    // A local activity's last failure is the workflow's cause as it was thrown; a scheduled one's is wrapped.
    const cause = (err as WorkflowFailedError).cause;
    expect((cause instanceof ActivityFailure ? cause.cause : cause)?.message).toBe(UNREACHABLE);
    expect(finish.attempts).toEqual(everyAttempt());
    const described = await handle.describe();
    expect(described.status.name).toBe('FAILED');
    expect(described.typedSearchAttributes.get(SessionStatusAttribute)).toBe('error');

    // Nothing recorded the end, so the row still holds its place until the gateway finds no workflow running.
    expect((await h.db.browserSession.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('starting');
    const del = await h.api(`/v2/browser/${row.id}`, { method: 'DELETE' });
    expect(await del.json()).toEqual({ success: true, sessionDurationMs: 0, creditsBilled: 0 });
    expect(await h.db.browserSession.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      status: 'error',
      endReason: 'the session has no running workflow (its start was interrupted, or its end could not be recorded)',
    });
    expect(await liveSessions(h)).toBe(0);
  });

  it('answers what was recorded when the end is recorded again with another duration (a local activity run again by a retried workflow task)', async () => {
    h = await startHarness();
    const team = await h.db.team.findUniqueOrThrow({ where: { id: h.teamId } });
    const row = await createSessionRow(h.db, team, null, { ttl: 60, activityTtl: 30, streamWebView: false }, new Date());
    const { finishBrowserSession } = createSessionControlActivities({ db: h.db, config: h.config, log: createLogger('warn', { process: 'test' }) });
    const end = { sessionId: row.id, status: 'destroyed' as const, reason: 'deleted' };
    const first = await finishBrowserSession({ ...end, sessionDurationMs: 61_000 });
    const again = await finishBrowserSession({ ...end, sessionDurationMs: 65_000 });
    expect(again).toEqual(first);
    expect(first).toEqual({ creditsBilled: sessionCredits(61_000), sessionDurationMs: 61_000 });
    expect(await h.db.browserSession.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ durationMs: 61_000, creditsBilled: first.creditsBilled });
  });
});
