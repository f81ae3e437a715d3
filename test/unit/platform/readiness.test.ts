import { describe, expect, it } from 'vitest';
import { cachedReadiness, probe } from '../../../src/platform/process/readiness.ts';
import { pollingCheck } from '../../../src/platform/temporal/polling-check.ts';
import { startOpsServer } from '../../../src/platform/process/ops-server.ts';
import { freePort } from '../../../src/platform/process/ports.ts';
import { createLogger } from '../../../src/platform/log.ts';
import { registry } from '../../../src/platform/metrics/registry.ts';
import { parsePrometheusText, sampleOf } from '../../support/prometheus-text.ts';

describe('probe', () => {
  it('is ok when the check answers, and names the error or the timeout when it does not', async () => {
    expect(await probe(() => 'answer', 1000)).toMatchObject({ ok: true });
    expect(await probe(() => Promise.reject(new Error('refused')), 1000)).toEqual({ ok: false, error: 'refused' });
    expect(await probe(() => new Promise(() => undefined), 10)).toEqual({ ok: false, error: 'no answer within 10 ms' });
  });
});

describe('cachedReadiness', () => {
  it('is ready only when every check passes, naming each', async () => {
    const readiness = cachedReadiness({ postgres: () => Promise.reject(new Error('down')), temporal: () => true }, { timeoutMs: 1000, cacheMs: 0 });
    expect(await readiness()).toMatchObject({ ready: false, checks: { postgres: { ok: false, error: 'down' }, temporal: { ok: true } } });
  });

  it('runs the checks once for every caller within the cache window, and again after it', async () => {
    let runs = 0;
    const check = () => runs++;
    const cached = cachedReadiness({ postgres: check }, { timeoutMs: 1000, cacheMs: 60_000 });
    await Promise.all([cached(), cached()]);
    await cached();
    expect(runs).toBe(1);
    const uncached = cachedReadiness({ postgres: check }, { timeoutMs: 1000, cacheMs: 0 });
    await uncached();
    await uncached();
    expect(runs).toBe(3);
  });
});

describe('pollingCheck', () => {
  it('passes while every worker runs and names each one that does not', async () => {
    const states = [
      { taskQueue: 'crawl', state: 'RUNNING' },
      { taskQueue: 'crawl-browser', state: 'RUNNING' },
    ];
    const check = pollingCheck(() => states);
    expect(await probe(check, 1000)).toMatchObject({ ok: true });
    states[1].state = 'DRAINING';
    states.push({ taskQueue: 'crawl-webhooks', state: 'FAILED' });
    expect(await probe(check, 1000)).toEqual({ ok: false, error: 'not polling: crawl-browser (DRAINING), crawl-webhooks (FAILED)' });
  });
});

describe('the readiness gauge', () => {
  it('serves each check of the operations port as 1 or 0 on its /metrics, read from the readiness /ready answers', async () => {
    let postgres = true;
    const readiness = cachedReadiness(
      { postgres: () => (postgres ? true : Promise.reject(new Error('down'))), temporal: () => true },
      { timeoutMs: 1000, cacheMs: 0 },
    );
    const ops = await startOpsServer({ bind: '127.0.0.1', port: await freePort(), log: createLogger('error'), readiness, metrics: () => registry.metrics() });
    try {
      const scrape = async () => parsePrometheusText(await (await fetch(`http://127.0.0.1:${ops!.port}/metrics`)).text());
      const checks = (m: Awaited<ReturnType<typeof scrape>>) =>
        Object.fromEntries(['postgres', 'temporal'].map((check) => [check, sampleOf(m, 'crawl_service_readiness_check_ok', { check })]));
      expect(checks(await scrape())).toEqual({ postgres: 1, temporal: 1 });
      postgres = false;
      expect(checks(await scrape())).toEqual({ postgres: 0, temporal: 1 });
    } finally {
      await ops?.close();
    }
  });
});
