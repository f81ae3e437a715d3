// The one line the Temporal UI shows as a browser session's current details
// (setCurrentDetails): its state, how long its ttl has left, when it was last
// used. Workflow code imports this file, so it is pure. The line is written at
// every change of the session, so times are given as clock times next to the
// time left when it was written.
import { durationText } from '../../../platform/duration-text.ts';
import type { SessionState } from '../protocol/definitions.ts';

/** 14:32:10 UTC */
function clock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)} UTC`;
}

function executes(s: SessionState): string {
  const done = `${s.executes} ${s.executes === 1 ? 'execute' : 'executes'}`;
  return s.executing > 0 ? `${done}, ${s.executing} running` : done;
}

export function sessionDetails(s: SessionState, idleMs: number, nowMs: number): string {
  if (s.endReason !== null) return `${s.status === 'active' ? 'closing' : s.status} (${s.endReason}) · ${executes(s)}`;
  if (s.status === 'starting') return `starting: launching the browser${s.hostId ? ` on host ${s.hostId}` : ''} · ttl ends ${clock(s.expiresAtMs)}`;
  const left = Math.max(0, s.expiresAtMs - nowMs);
  return [
    `${s.status}${s.hostId ? ` on host ${s.hostId}` : ''}`,
    `ttl: ${durationText(left)} left at ${clock(nowMs)}, ends ${clock(s.expiresAtMs)}`,
    `last used ${clock(s.lastActivityMs)}, ends idle at ${clock(s.lastActivityMs + idleMs)}`,
    executes(s),
  ].join(' · ');
}
