import { describe, expect, it } from 'vitest';
import { localUrl } from '../../../src/entry/start/children.ts';
import { MAX_RESTARTS_PER_MINUTE, noteRestart } from '../../../src/entry/start/launch-child.ts';
import { readyBanner } from '../../../src/entry/start/ready-banner.ts';

describe('npm start', () => {
  it('counts a child’s restarts over the last minute only', () => {
    let restarts: number[] = [];
    for (let i = 0; i < MAX_RESTARTS_PER_MINUTE + 1; i++) restarts = noteRestart(restarts, 1_000 * i);
    expect(restarts.length).toBeGreaterThan(MAX_RESTARTS_PER_MINUTE);
    // A minute after the first, the first no longer counts.
    expect(noteRestart(restarts, 60_000)).toEqual([1_000, 2_000, 3_000, 4_000, 5_000, 60_000]);
    expect(noteRestart(restarts, 200_000)).toEqual([200_000]);
  });

  it('reaches any-address binds on loopback and brackets IPv6 hosts', () => {
    expect(localUrl('0.0.0.0', 3002)).toBe('http://127.0.0.1:3002');
    expect(localUrl('::', 3002)).toBe('http://127.0.0.1:3002');
    expect(localUrl('::1', 3002)).toBe('http://[::1]:3002');
    expect(localUrl('localhost', 9)).toBe('http://localhost:9');
  });

  it('shows a new key once, and where to get one otherwise', () => {
    const facts = {
      apiBase: 'http://localhost:3002',
      temporalUiUrl: undefined,
      metrics: { gateway: 'http://g/metrics', worker: 'http://w/metrics', browserHost: 'http://b/metrics' },
      newKey: 'fc-new',
      readyIn: '4.2 s',
      dataDir: '/data',
    };
    const withKey = readyBanner(facts);
    expect(withKey).toContain('  API:          http://localhost:3002/v2   (health: http://localhost:3002/health)\n');
    expect(withKey).toContain('(external Temporal: see your cluster UI)');
    expect(withKey).toContain('                browser host http://b/metrics\n');
    expect(withKey).toContain('  API key:      fc-new\n');
    expect(withKey.endsWith('  ready in 4.2 s. Ctrl-C stops everything; data stays in /data.\n\n')).toBe(true);
    const without = readyBanner({ ...facts, newKey: undefined, temporalUiUrl: 'http://localhost:8233' });
    expect(without).not.toContain('fc-new');
    expect(without).toContain('npm run cli -- key create --team default');
    expect(without).toContain('  Temporal UI:  http://localhost:8233\n');
  });
});
