// The pure decisions of crash recovery, with the database and Temporal replaced by
// recorders: when a worker may judge others (its own heartbeats steady), and what a
// pass does with each attempt of a dead process as Temporal answers, and what an
// attempt records of itself.
import { ActivityNotFoundError, type Client } from '@temporalio/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../../src/platform/db/prisma.ts';
import { createLogger } from '../../../src/platform/log.ts';
import { WORKER_HEARTBEAT_MS, workerLiveness } from '../../../src/platform/process/worker-liveness.ts';
import { failAbandonedAttempts, type AbandonedAttempt } from '../../../src/platform/temporal/abandoned-attempts.ts';
import { attemptHolderPrefix, recordingAttempts } from '../../../src/platform/temporal/attempt-record.ts';
import { MockActivityEnvironment } from '@temporalio/testing';

const log = createLogger('error');

/** A Db whose raw statements are recorded (SQL text and values) and answered by `answer`. */
function recordingDb(answer: (sql: string) => unknown = () => 1) {
  const statements: { sql: string; values: unknown[] }[] = [];
  const deleted: unknown[] = [];
  const run = (strings: TemplateStringsArray, ...values: unknown[]) => {
    const sql = strings.join('?').replace(/\s+/g, ' ').trim();
    statements.push({ sql, values });
    return Promise.resolve().then(() => answer(sql));
  };
  const db = {
    $executeRaw: run,
    $queryRaw: run,
    activityAttempt: { deleteMany: async (q: { where: unknown }) => void deleted.push(q.where) },
  } as unknown as Db;
  return { db, statements, deleted };
}

describe('workerLiveness', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('registers at once, beats every 2 s, and deletes its row when stopped', async () => {
    const { db, statements } = recordingDb();
    const liveness = workerLiveness({ db, log }, 'process-a');
    await vi.advanceTimersByTimeAsync(3 * WORKER_HEARTBEAT_MS);
    const beats = statements.filter((s) => s.sql.startsWith('INSERT INTO worker_process'));
    expect(beats).toHaveLength(4);
    expect(beats.every((b) => b.values[0] === 'process-a')).toBe(true);
    await liveness.stop();
    expect(statements.at(-1)).toEqual({ sql: 'DELETE FROM worker_process WHERE id = ?', values: ['process-a'] });
  });

  it('is steady only once its beats have succeeded for the whole span asked', async () => {
    let reachable = true;
    const { db } = recordingDb(() => {
      if (!reachable) throw new Error('connection refused');
      return 1;
    });
    const liveness = workerLiveness({ db, log }, 'process-b');
    await vi.advanceTimersByTimeAsync(0);
    expect(liveness.steadyFor(10_000)).toBe(true);
    reachable = false;
    await vi.advanceTimersByTimeAsync(WORKER_HEARTBEAT_MS);
    expect(liveness.steadyFor(10_000)).toBe(false);
    reachable = true;
    await vi.advanceTimersByTimeAsync(8_000);
    expect(liveness.steadyFor(10_000)).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(liveness.steadyFor(10_000)).toBe(true);
    await liveness.stop();
  });
});

describe('failAbandonedAttempts', () => {
  const attempt = (activityId: string, slotHolderPrefix: string | null): AbandonedAttempt => ({
    workflowId: 'crawl-1',
    runId: 'run-1',
    activityId,
    attempt: 1,
    taskToken: new TextEncoder().encode(`token-${activityId}`),
    workerProcess: 'dead',
    slotHolderPrefix,
    silentMs: 12_000,
  });

  it('fails each attempt by its token, frees its slots and host turns and forgets it; an ended attempt is forgotten too, a refused call is tried again', async () => {
    const rows = [attempt('ok', 'run-1:0:1:'), attempt('ended', 'run-1:1:1:'), attempt('refused', 'run-1:2:1:')];
    const { db, statements, deleted } = recordingDb((sql) => (sql.startsWith('SELECT') ? rows : 1));
    const tokens: string[] = [];
    const temporal = {
      activity: {
        fail: async (token: Uint8Array, err: Error) => {
          const name = new TextDecoder().decode(token);
          tokens.push(`${name}: ${err.message}`);
          if (name === 'token-ended') throw new ActivityNotFoundError('not found');
          if (name === 'token-refused') throw new Error('unavailable');
        },
      },
    } as unknown as Client;

    const alsoReleased: string[] = [];
    const releaseHeld = async (prefix: string) => void alsoReleased.push(prefix);
    expect(await failAbandonedAttempts({ db, temporal, log, releaseHeld }, { self: 'me', deadAfterMs: 10_000 })).toBe(1);
    expect(tokens).toEqual([
      'token-ok: worker process dead stopped heartbeating 12 s ago',
      'token-ended: worker process dead stopped heartbeating 12 s ago',
      'token-refused: worker process dead stopped heartbeating 12 s ago',
    ]);
    // The query never judges this process itself.
    expect(statements[0]!.values).toContain('me');
    const released = statements.filter((s) => s.sql.startsWith('UPDATE team_slot')).map((s) => s.values[0]);
    expect(released).toEqual(['run-1:0:1:', 'run-1:1:1:']);
    // What else the caller leases under the attempt's prefix (host turns) is freed with the slots.
    expect(alsoReleased).toEqual(['run-1:0:1:', 'run-1:1:1:']);
    expect(deleted.map((w) => (w as { activityId: string }).activityId)).toEqual(['ok', 'ended']);
  });
});

describe('recordingAttempts', () => {
  it("records each attempt with its own holder prefix, which the activity leases under (a dead attempt's host turns are freed by it)", async () => {
    const { db, statements } = recordingDb();
    const seen: string[] = [];
    const activities = recordingAttempts({ db, log }, { mapSite: async () => void seen.push(attemptHolderPrefix()) });
    const env = new MockActivityEnvironment({
      attempt: 3,
      activityId: '7',
      isLocal: false,
      workflowExecution: { workflowId: 'map-1', runId: 'run-1' },
      taskToken: new Uint8Array([1]),
    });
    await env.run(activities.mapSite);
    expect(seen).toEqual(['map-1:7:3']);
    const recorded = statements.find((s) => s.sql.startsWith('INSERT INTO activity_attempt'));
    // The prefix ends where the holder's own part begins: attempt 3's never covers attempt 30's.
    expect(recorded?.values.at(-1)).toBe('map-1:7:3:');
  });
});
