import { describe, expect, it } from 'vitest';
import { compare, comparePeriods, processFigures, requestKind, type Period } from '../../../bench/soak-figures.ts';

describe('the soak figures', () => {
  it('names a request by method and path, ids and query left out, other than 2xx answers apart', () => {
    expect(requestKind('GET', '/v2/crawl/019aa2b4-7f3e-7c15-8a42-5d1e9b3c6f70?limit=1', 200)).toBe('GET /v2/crawl/:id');
    expect(requestKind('POST', '/v2/browser/019aa2b4-7f3e-7c15-8a42-5d1e9b3c6f70/execute', 200)).toBe('POST /v2/browser/:id/execute');
    expect(requestKind('POST', '/v2/browser', 429)).toBe('POST /v2/browser 429');
    expect(requestKind('POST', '/v2/batch/scrape', 200)).toBe('POST /v2/batch/scrape');
  });

  it('calls a figure flat within 10 % either way', () => {
    expect(compare('x', 100, 110)).toMatchObject({ ratio: 1.1, flat: true });
    expect(compare('x', 100, 111).flat).toBe(false);
    expect(compare('x', 100, 89).flat).toBe(false);
    expect(compare('x', 0, 0)).toMatchObject({ ratio: 1, flat: true });
    expect(compare('x', 0, 3)).toMatchObject({ ratio: Infinity, flat: false });
  });

  it('compares the medians of the first and last periods, per process and per request kind both have', () => {
    const period = (rss: number[], p95: Record<string, number>): Period => ({
      index: 1,
      startMinute: 0,
      endMinute: 1,
      processes: { worker: processFigures(rss.map((r) => ({ rss: r * 1024 * 1024, fds: 10, procs: 1 }))) },
      latency: Object.fromEntries(Object.entries(p95).map(([k, v]) => [k, { count: k === 'GET /few' ? 5 : 20, p50: v, p95: v }])),
      jobs: {},
      incorrect: [],
      logged: {},
    });
    const rows = comparePeriods(
      period([100, 300, 200], { 'GET /a': 10, 'GET /b': 5, 'GET /few': 1 }),
      period([250, 210, 190], { 'GET /a': 20, 'GET /few': 9 }),
    );
    expect(rows.map((r) => [r.what, r.first, r.last, r.flat, r.notJudged])).toEqual([
      ['worker rss MB', 200, 210, true, undefined],
      ['worker fds', 10, 10, true, undefined],
      ['p95 ms GET /a', 10, 20, false, undefined],
      ['p95 ms GET /few', 1, 9, false, 'fewer than 20 answers'],
    ]);
  });

  it('judges PostgreSQL by its own memory and shows its shared buffers filling apart', () => {
    const postgres = (own: number, shared: number): Period => ({
      index: 1,
      startMinute: 0,
      endMinute: 1,
      processes: { postgres: processFigures([{ rss: own * 1024 * 1024, sharedMemory: shared * 1024 * 1024, fds: 100, procs: 30 }]) },
      latency: {},
      jobs: {},
      incorrect: [],
      logged: {},
    });
    expect(comparePeriods(postgres(60, 70), postgres(63, 128)).map((r) => [r.what, r.first, r.last, r.flat, r.notJudged])).toEqual([
      ['postgres rss MB', 60, 63, true, undefined],
      ['postgres shared memory MB', 70, 128, false, 'buffers filling, bounded by shared_buffers'],
      ['postgres fds', 100, 100, true, undefined],
    ]);
  });
});
