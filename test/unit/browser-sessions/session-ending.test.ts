import { describe, expect, it } from 'vitest';
import { sessionEnding } from '../../../src/features/browser-sessions/workflow/session-ending.ts';

describe('sessionEnding', () => {
  it('bills a session that was up, however it ended', () => {
    expect(sessionEnding({ status: 'active' })).toEqual({ failed: false, unbilled: false });
    expect(sessionEnding({ status: 'active', failure: 'browser host h stopped responding' })).toEqual({ failed: true, unbilled: false });
  });

  it('bills nothing for a session whose browser never came up', () => {
    expect(sessionEnding({ status: 'starting', failure: 'the browser did not start: x' })).toEqual({ failed: true, unbilled: true });
  });

  it('bills nothing for a start nobody heard, even once its browser was up', () => {
    expect(sessionEnding({ status: 'active', startUnanswered: 'Temporal is unavailable' })).toEqual({ failed: true, unbilled: true });
  });
});
