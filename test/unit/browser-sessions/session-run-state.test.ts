// The browser session workflow's decisions without Temporal: which executes are admitted,
// how executes and leases hold the idle clock, when the session ends (failure, DELETE, ttl,
// idle) or continues as new, and how it is recorded when it ends.
import { describe, expect, it } from 'vitest';
import { CONTINUE_AS_NEW_EVENTS, type RunHistory, SessionRunState } from '../../../src/features/browser-sessions/workflow/session-run-state.ts';
import type { SessionInput } from '../../../src/features/browser-sessions/protocol/definitions.ts';

const CREATED = 1_000_000;
const HOST = { hostId: 'h1', taskQueue: 'q-host-h1' };
// ttl 600 s, idle after 60 s.
const INPUT: SessionInput = { sessionId: 's1', teamId: 't1', apiKeyId: null, ttlSeconds: 600, activityTtlSeconds: 60, createdAtMs: CREATED };

function newSession(input: Partial<SessionInput> = {}) {
  const history: RunHistory = { historyLength: 10, continueAsNewSuggested: false };
  return { session: new SessionRunState({ ...INPUT, ...input }, () => history), history };
}

/** A session whose browser came up on HOST. */
function activeSession(input: Partial<SessionInput> = {}) {
  const made = newSession(input);
  made.session.host = HOST;
  made.session.status = 'active';
  return made;
}

const at = (seconds: number) => CREATED + seconds * 1000;

describe('SessionRunState: starting', () => {
  it('waits for its start, then answers ready with the opening’s warning', () => {
    const { session } = newSession();
    expect(session.started()).toBe(false);
    expect(session.state()).toEqual({
      status: 'starting',
      hostId: null,
      lastActivityMs: CREATED,
      expiresAtMs: at(600),
      executes: 0,
      executing: 0,
      endReason: null,
    });
    session.host = HOST;
    session.openingWarning = 'the page answered 404';
    session.status = 'active';
    expect(session.started()).toBe(true);
    expect(session.ready()).toEqual({ status: 'active', reason: null, openingWarning: 'the page answered 404' });
  });

  it('ends `error` and unbilled when its browser did not start', () => {
    const { session } = newSession();
    session.launchFailed('browser host h1 stopped responding');
    const step = session.nextStep(at(1));
    expect(step).toEqual({ kind: 'end', reason: 'the browser did not start: browser host h1 stopped responding' });
    expect(session.end((step as { reason: string }).reason)).toEqual({
      failed: true,
      unbilled: true,
      answersFailedStartFirst: true,
      saveProfile: false,
      final: 'error',
    });
    expect(session.state().endReason).toBe('the browser did not start: browser host h1 stopped responding');
  });

  it('continues a previous run on its host, with its clock and its count', () => {
    const { session } = newSession({ running: { ...HOST, lastActivityMs: at(30), executes: 4 } });
    expect(session.state()).toMatchObject({ status: 'active', hostId: 'h1', lastActivityMs: at(30), executes: 4 });
    expect(session.nextStep(at(31))).toEqual({ kind: 'wait', timeoutMs: 59_000 });
  });
});

describe('SessionRunState: executes', () => {
  it('refuses executes before its browser is up and once it is ending', () => {
    const { session } = newSession();
    expect(session.admit('e1', 1_000, at(1))).toBeUndefined();
    expect(session.executeStarted(at(1))).toBeUndefined();
    session.host = HOST;
    session.status = 'active';
    session.end('deleted');
    expect(session.admit('e1', 1_000, at(2))).toBeUndefined();
    expect(session.executeStarted(at(2))).toBeUndefined();
    expect(session.state().executes).toBe(0);
  });

  it('admits a repeated execute once, and its end lets go of the idle clock', () => {
    const { session } = activeSession();
    expect(session.admit('e1', 30_000, at(10))).toEqual(HOST);
    expect(session.admit('e1', 30_000, at(11))).toEqual(HOST);
    expect(session.state()).toMatchObject({ executes: 1, executing: 1, lastActivityMs: at(11) });
    // Held past the idle timeout while it runs: the loop sleeps until the lease's deadline.
    expect(session.nextStep(at(20))).toEqual({ kind: 'wait', timeoutMs: 20_000 });
    expect(session.wakes()).toBe(false);
    expect(session.executeEnded('e1', at(25))).toBe(true);
    expect(session.wakes()).toBe(true);
    expect(session.executeEnded('e1', at(26))).toBe(false);
    expect(session.state()).toMatchObject({ executing: 0, lastActivityMs: at(25) });
    expect(session.nextStep(at(26))).toEqual({ kind: 'wait', timeoutMs: 59_000 });
    expect(session.nextStep(at(85))).toEqual({ kind: 'end', reason: 'idle' });
  });

  it('lets a lease whose end never came go at its deadline, as if the execute ended then', () => {
    const { session } = activeSession();
    session.admit('e1', 30_000, at(10));
    // The lease ended at 40 s: idle at 100 s, not at 70 s from the admission.
    expect(session.nextStep(at(70))).toEqual({ kind: 'wait', timeoutMs: 30_000 });
    expect(session.state()).toMatchObject({ executing: 0, lastActivityMs: at(40) });
    expect(session.nextStep(at(100))).toEqual({ kind: 'end', reason: 'idle' });
  });

  it('holds the idle clock while an execute runs as an activity, and sleeps until the ttl then', () => {
    const { session } = activeSession();
    expect(session.executeStarted(at(10))).toEqual(HOST);
    expect(session.nextStep(at(200))).toEqual({ kind: 'wait', timeoutMs: 400_000 });
    session.executeFinished(at(210));
    expect(session.state()).toMatchObject({ executes: 1, executing: 0, lastActivityMs: at(210) });
    expect(session.nextStep(at(269))).toMatchObject({ kind: 'wait' });
    expect(session.nextStep(at(270))).toEqual({ kind: 'end', reason: 'idle' });
  });

  it('is kept from going idle by touches, never moved back by a late one', () => {
    const { session } = activeSession();
    session.touched(at(50));
    session.touched(at(40));
    expect(session.state().lastActivityMs).toBe(at(50));
    expect(session.nextStep(at(109))).toEqual({ kind: 'wait', timeoutMs: 1_000 });
    expect(session.nextStep(at(110))).toEqual({ kind: 'end', reason: 'idle' });
  });
});

describe('SessionRunState: ending', () => {
  it('ends at its ttl even while an execute runs, and bills it', () => {
    const { session } = activeSession({ profile: { name: 'p', saveChanges: true } });
    session.executeStarted(at(590));
    expect(session.nextStep(at(599))).toEqual({ kind: 'wait', timeoutMs: 1_000 });
    expect(session.nextStep(at(600))).toEqual({ kind: 'end', reason: 'ttl' });
    expect(session.end('ttl')).toEqual({ failed: false, unbilled: false, answersFailedStartFirst: false, saveProfile: true, final: 'destroyed' });
  });

  it('ends when deleted, and says why when the gateway could not answer its start', () => {
    const deleted = activeSession().session;
    deleted.destroy(undefined);
    expect(deleted.wakes()).toBe(true);
    expect(deleted.nextStep(at(1))).toEqual({ kind: 'end', reason: 'deleted' });
    expect(deleted.end('deleted')).toMatchObject({ failed: false, final: 'destroyed' });

    const unanswered = activeSession({ profile: { name: 'p', saveChanges: true } }).session;
    unanswered.destroy({ startUnanswered: 'Temporal is unavailable' });
    unanswered.destroy({ startUnanswered: 'a later reason' });
    const step = unanswered.nextStep(at(1));
    expect(step).toEqual({ kind: 'end', reason: 'the start could not be answered: Temporal is unavailable' });
    expect(unanswered.end('x')).toEqual({ failed: true, unbilled: true, answersFailedStartFirst: false, saveProfile: false, final: 'error' });
  });

  it('ends `error`, billed, when its host is lost once it was up; the first reason stays', () => {
    const { session } = activeSession();
    session.hostLost('browser host h1 stopped responding');
    session.hostLost('the browser closed');
    expect(session.wakes()).toBe(true);
    expect(session.nextStep(at(1))).toEqual({ kind: 'end', reason: 'browser host h1 stopped responding' });
    expect(session.end('browser host h1 stopped responding')).toMatchObject({ failed: true, unbilled: false, final: 'error' });
    expect(session.ready()).toEqual({ status: 'active', reason: 'browser host h1 stopped responding' });
  });

  it('a failure wins over a DELETE', () => {
    const { session } = activeSession();
    session.destroy(undefined);
    session.hostLost('the browser closed');
    expect(session.nextStep(at(1))).toEqual({ kind: 'end', reason: 'the browser closed' });
  });

  it('bills from its creation', () => {
    const { session } = activeSession();
    expect(session.durationMs(at(12.5))).toBe(12_500);
    expect(session.durationMs(CREATED - 5)).toBe(0);
  });
});

describe('SessionRunState: continue-as-new', () => {
  it('continues as new once its history is long and no execute holds it, with its host, clock and count', () => {
    const { session, history } = activeSession();
    session.admit('e1', 30_000, at(10));
    history.historyLength = CONTINUE_AS_NEW_EVENTS + 1;
    expect(session.nextStep(at(11))).toMatchObject({ kind: 'wait' });
    expect(session.wakes()).toBe(false);
    session.executeEnded('e1', at(12));
    expect(session.wakes()).toBe(true);
    expect(session.nextStep(at(12))).toEqual({ kind: 'continue-as-new' });
    expect(session.continuedInput()).toEqual({ ...INPUT, running: { ...HOST, lastActivityMs: at(12), executes: 1 } });
  });

  it('continues as new past the history its input sets, and hands that number on; without one, past 5000 events', () => {
    const { session, history } = activeSession({ historyEvents: 200 });
    history.historyLength = 200;
    expect(session.nextStep(at(1))).toMatchObject({ kind: 'wait' });
    history.historyLength = 201;
    expect(session.nextStep(at(1))).toEqual({ kind: 'continue-as-new' });
    expect(session.continuedInput()).toMatchObject({ historyEvents: 200 });
    const older = activeSession();
    older.history.historyLength = 4999;
    expect(older.session.nextStep(at(1))).toMatchObject({ kind: 'wait' });
    older.history.historyLength = 5001;
    expect(older.session.nextStep(at(1))).toEqual({ kind: 'continue-as-new' });
  });

  it('continues as new when Temporal suggests it', () => {
    const { session, history } = activeSession();
    history.continueAsNewSuggested = true;
    expect(session.nextStep(at(1))).toEqual({ kind: 'continue-as-new' });
  });

  it('ends at its ttl rather than continuing as new', () => {
    const { session, history } = activeSession();
    history.continueAsNewSuggested = true;
    expect(session.nextStep(at(600))).toEqual({ kind: 'end', reason: 'ttl' });
  });
});
