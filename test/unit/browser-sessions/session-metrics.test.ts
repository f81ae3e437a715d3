// How sessions' starts, ends and executes are counted: the outcome of a start
// from what it threw, a few kinds of end from the reasons the session workflow
// gives, and an execute's outcome from how its run ended.
import type { MetricValueWithName } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/platform/domain-error.ts';
import { registry } from '../../../src/platform/metrics/registry.ts';
import { endReasonClass, recordSessionEnd } from '../../../src/features/browser-sessions/shared/session-metrics.ts';
import { countedStart } from '../../../src/features/browser-sessions/gateway/start-metrics.ts';
import { measuredExecute } from '../../../src/features/browser-sessions/sandbox/execute-metrics.ts';
import type { ExecuteOutcome } from '../../../src/features/browser-sessions/sandbox/sandbox.ts';

async function values(name: string): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric(name)!.get();
  return Object.fromEntries(metric.values.map((v) => [Object.values(v.labels).join(' '), v.value]));
}

describe('countedStart', () => {
  it('counts started, refused, no_host and failed', async () => {
    await countedStart(async () => 'row');
    const attempts = [
      new DomainError('limit-reached', 'concurrency', 'CONCURRENCY_LIMIT'),
      new DomainError('payment-required', 'credits', 'PAYMENT_REQUIRED'),
      new DomainError('unavailable', 'Failed to create browser session: no browser host', 'NO_BROWSER_HOST'),
      new DomainError('job-failed', 'Failed to create browser session.', 'SESSION_START_FAILED'),
      new Error('connection refused'),
    ];
    for (const err of attempts) await expect(countedStart(() => Promise.reject(err))).rejects.toBe(err);
    expect(await values('crawl_service_browser_session_starts_total')).toEqual({ started: 1, refused: 2, no_host: 1, failed: 2 });
  });
});

describe('endReasonClass', () => {
  it('keeps the reasons of a destroyed session and sorts errors into a few kinds', () => {
    expect(['deleted', 'ttl', 'idle'].map((r) => endReasonClass('destroyed', r))).toEqual(['deleted', 'ttl', 'idle']);
    expect(endReasonClass('error', 'the browser did not start: no browser host is running with room for session x')).toBe('start_failed');
    expect(endReasonClass('error', 'browser host 1f0c stopped responding')).toBe('host_lost');
    expect(endReasonClass('error', 'browser host 1f0c timed out (START_TO_CLOSE)')).toBe('host_lost');
    expect(endReasonClass('error', 'the browser exited with code 1')).toBe('browser_exited');
    expect(endReasonClass('error', 'the browser was killed (SIGKILL)')).toBe('browser_exited');
    expect(endReasonClass('error', 'session 1 is not running on this browser host')).toBe('error');
  });

  it('records an end once under its kind, with its duration', async () => {
    recordSessionEnd('destroyed', 'deleted', 12_000);
    recordSessionEnd('error', 'browser host 1f0c stopped responding', 400_000);
    expect(await values('crawl_service_browser_session_ends_total')).toEqual({ deleted: 1, host_lost: 1 });
    const text = await registry.getSingleMetricAsString('crawl_service_browser_session_duration_seconds');
    expect(text).toContain('crawl_service_browser_session_duration_seconds_bucket{le="15"} 1\n');
    expect(text).toContain('crawl_service_browser_session_duration_seconds_bucket{le="600"} 2\n');
    expect(text).toMatch(/crawl_service_browser_session_duration_seconds_count 2$/m);
  });
});

describe('measuredExecute', () => {
  const run = (exitCode: number, killed = false): ExecuteOutcome => ({ stdout: '', stderr: '', result: null, error: null, exitCode, killed });

  it('counts ok, error, timeout and refused by language, and times the runs that happened', async () => {
    await measuredExecute('node', async () => run(0));
    await measuredExecute('node', async () => run(1));
    await measuredExecute('bash', async () => run(137, true));
    await expect(measuredExecute('python', () => Promise.reject(new Error('no python')))).rejects.toThrow('no python');
    expect(await values('crawl_service_browser_executes_total')).toEqual({ 'node ok': 1, 'node error': 1, 'bash timeout': 1, 'python refused': 1 });
    const counts = (await registry.getSingleMetric('crawl_service_browser_execute_duration_seconds')!.get()).values.filter((v) =>
      (v as MetricValueWithName<string>).metricName?.endsWith('_count'),
    );
    expect(Object.fromEntries(counts.map((v) => [v.labels.language, v.value]))).toEqual({ node: 2, bash: 1 });
  });
});
