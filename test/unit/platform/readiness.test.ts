import { describe, expect, it } from 'vitest';
import { cachedReadiness, probe } from '../../../src/platform/process/readiness.ts';
import { pollingCheck } from '../../../src/platform/temporal/polling-check.ts';

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
