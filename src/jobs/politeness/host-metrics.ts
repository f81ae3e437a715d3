// The host budget's series: waits for a host's turn, throttled answers, and the
// hosts that are throttled now (read from PostgreSQL, so any process reports the
// whole deployment's).
import { counter, DURATION_BUCKETS, histogram } from '../../platform/metrics/registry.ts';
import { sharedGauge } from '../../platform/metrics/shared-gauges.ts';
import type { WaitReason } from './host-leases.ts';

const waits = counter({
  name: 'host_waits_total',
  help: 'Requests that waited for their host budget, by why they first waited (paused, interval, busy, share)',
  labelNames: ['reason'],
});

const waited = histogram({
  name: 'host_wait_duration_seconds',
  help: 'How long requests that waited for their host budget waited',
  buckets: DURATION_BUCKETS,
});

const turns = counter({
  name: 'host_turns_total',
  help: 'Host turns requests took: from the database (host_acquire), or handed on in the worker while the host was wide open',
  labelNames: ['via'],
});

const answers = counter({
  name: 'host_throttled_answers_total',
  help: 'Answers that made a host slow down: 429 and 503 (throttled), slow (slower than HOST_SLOW_RESPONSE_MS)',
  labelNames: ['answer'],
});

const givenUp = counter({
  name: 'pages_throttled_out_total',
  help: 'Pages that failed because their host kept throttling them (HOST_THROTTLE_MAX_RETRIES)',
});

sharedGauge({
  name: 'hosts_throttled',
  help: 'Hosts paused now or throttled in the last minute, across the deployment',
  async query(db) {
    const [row] = await db.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM host_budget WHERE paused_until > now() OR throttled_at > now() - interval '1 minute'`;
    return [{ value: Number(row?.n ?? 0) }];
  },
});

export function countHostWait(reason: WaitReason, ms: number): void {
  waits.inc({ reason });
  waited.observe(ms / 1000);
}

export function countHostTurn(via: 'database' | 'handed_on'): void {
  turns.inc({ via });
}

export function countHostAnswer(answer: '429' | '503' | 'slow'): void {
  answers.inc({ answer });
}

export function countThrottledOut(): void {
  givenUp.inc();
}
