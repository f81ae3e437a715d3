import { describe, expect, it } from 'vitest';
import type { SessionState } from '../../../src/features/browser-sessions/protocol/definitions.ts';
import { sessionDetails } from '../../../src/features/browser-sessions/workflow/session-details.ts';

const T = Date.parse('2026-11-27T14:20:00Z');
const state = (over: Partial<SessionState> = {}): SessionState => ({
  status: 'active',
  hostId: 'h1',
  lastActivityMs: T - 5_000,
  expiresAtMs: T + 600_000,
  executes: 3,
  executing: 0,
  endReason: null,
  ...over,
});

describe('sessionDetails', () => {
  it('gives an active session its host, the time its ttl has left, its last use and its executes', () => {
    expect(sessionDetails(state(), 300_000, T)).toBe(
      'active on host h1 · ttl: 10 min left at 14:20:00 UTC, ends 14:30:00 UTC · last used 14:19:55 UTC, ends idle at 14:24:55 UTC · 3 executes',
    );
    expect(sessionDetails(state({ executes: 1, executing: 1, lastActivityMs: T }), 60_000, T + 90_000)).toBe(
      'active on host h1 · ttl: 8 min 30 s left at 14:21:30 UTC, ends 14:30:00 UTC · last used 14:20:00 UTC, ends idle at 14:21:00 UTC · 1 execute, 1 running',
    );
  });

  it('never shows negative time left', () => {
    expect(sessionDetails(state(), 300_000, T + 700_000)).toContain('ttl: 0 ms left');
  });

  it('says a starting session is launching its browser', () => {
    expect(sessionDetails(state({ status: 'starting', hostId: null }), 300_000, T)).toBe('starting: launching the browser · ttl ends 14:30:00 UTC');
    expect(sessionDetails(state({ status: 'starting' }), 300_000, T)).toBe('starting: launching the browser on host h1 · ttl ends 14:30:00 UTC');
  });

  it('says why a session ended', () => {
    expect(sessionDetails(state({ endReason: 'ttl' }), 300_000, T)).toBe('closing (ttl) · 3 executes');
    expect(sessionDetails(state({ status: 'destroyed', endReason: 'deleted' }), 300_000, T)).toBe('destroyed (deleted) · 3 executes');
    expect(sessionDetails(state({ status: 'error', endReason: 'browser host h1 stopped responding' }), 300_000, T)).toBe(
      'error (browser host h1 stopped responding) · 3 executes',
    );
  });
});
