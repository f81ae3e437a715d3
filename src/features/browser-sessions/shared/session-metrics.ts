// Browser sessions as an operator counts them: rows by state across the
// deployment (read by the workers) and ends by reason with their duration
// (counted by the worker that recorded the end); creations by outcome are the
// gateway's (gateway/start-metrics.ts).
import { counter, histogram } from '../../../platform/metrics/registry.ts';
import { sharedGauge } from '../../../platform/metrics/shared-gauges.ts';
import type { SessionStatus } from '../protocol/definitions.ts';

const STATES: SessionStatus[] = ['starting', 'active', 'destroyed', 'error'];

sharedGauge({
  name: 'browser_sessions',
  help: 'Browser sessions by state: starting and active are live now; destroyed and error count every session that has ended',
  labelNames: ['state'],
  async query(db) {
    const rows = await db.$queryRaw<{ status: string; n: bigint }[]>`SELECT status, count(*) AS n FROM browser_session GROUP BY status`;
    const counts = new Map<string, number>(STATES.map((s) => [s, 0]));
    for (const r of rows) counts.set(r.status, Number(r.n));
    return [...counts].map(([state, value]) => ({ labels: { state }, value }));
  },
});

const ends = counter({
  name: 'browser_session_ends_total',
  help: 'Sessions whose end was recorded, by reason: deleted, ttl, idle, start_failed, host_lost, browser_exited, error',
  labelNames: ['reason'],
});

const duration = histogram({
  name: 'browser_session_duration_seconds',
  help: 'How long ended sessions lasted, from creation to end (what they are billed for)',
  buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 2700, 3600],
});

/** The few kinds of end an operator tells apart; the full reason (an error's text) stays on the row. */
export function endReasonClass(status: 'destroyed' | 'error', reason: string): string {
  if (status === 'destroyed') return ['deleted', 'ttl', 'idle'].includes(reason) ? reason : 'error';
  if (reason.startsWith('the browser did not start')) return 'start_failed';
  if (/^browser host \S+ (stopped responding|timed out)/.test(reason)) return 'host_lost';
  if (/^the browser (exited|was killed)/.test(reason)) return 'browser_exited';
  return 'error';
}

export function recordSessionEnd(status: 'destroyed' | 'error', reason: string, durationMs: number): void {
  ends.inc({ reason: endReasonClass(status, reason) });
  duration.observe(durationMs / 1000);
}
