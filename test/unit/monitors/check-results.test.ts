// What a check records per target and the status it ends with.
import { describe, expect, it } from 'vitest';
import {
  checkStatus,
  committedTargetResults,
  searchPages,
  searchRecorded,
  withMatches,
  type TargetResult,
} from '../../../src/features/monitors/check-results.ts';
import type { SearchTargetResult } from '../../../src/features/monitors/search-targets.ts';

const JOB = '00000000-0000-4000-8000-000000000001';

function searched(targetId: string, extra: Partial<SearchTargetResult> = {}): SearchTargetResult {
  return {
    targetId,
    type: 'search',
    searchCompleted: true,
    resultCount: 2,
    searchCredits: 2,
    judgeDegraded: false,
    degradedReason: null,
    resultUrls: ['http://a/1', 'http://a/2'],
    ...extra,
  };
}

describe('committedTargetResults', () => {
  it('names the crawl of a crawl target, the job of a scrape target, and an unsearched search target', () => {
    expect(
      committedTargetResults([
        { targetId: 'c', type: 'crawl', jobId: JOB },
        { targetId: 's', type: 'scrape', jobId: JOB },
        { targetId: 'q', type: 'search' },
      ]),
    ).toEqual([
      { targetId: 'c', type: 'crawl', crawlId: JOB },
      { targetId: 's', type: 'scrape', expectedJobs: [JOB] },
      {
        targetId: 'q',
        type: 'search',
        searchCompleted: false,
        resultCount: 0,
        searchCredits: 0,
        judgeDegraded: false,
        degradedReason: null,
        resultUrls: [],
      },
    ]);
  });
});

describe('searchRecorded', () => {
  it('skips a target that searched or could not, and runs one only committed', () => {
    const results: TargetResult[] = [
      ...committedTargetResults([{ targetId: 'pending', type: 'search' }]),
      searched('done'),
      searched('refused', { searchCompleted: false, degradedReason: 'no credits', resultUrls: [] }),
    ];
    expect(searchRecorded(results, 'done')).toBe(true);
    expect(searchRecorded(results, 'refused')).toBe(true);
    expect(searchRecorded(results, 'pending')).toBe(false);
    expect(searchRecorded(results, 'absent')).toBe(false);
  });
});

describe('searchPages', () => {
  it('makes each result URL a successful page of its target, marked a search result', () => {
    expect(searchPages([searched('q', { resultUrls: ['http://a/1'] }), searched('r', { resultUrls: [] })])).toEqual([
      { targetId: 'q', urlKey: 'http://a/1', url: 'http://a/1', success: true, statusCode: null, error: null, searchResult: true },
    ]);
  });
});

describe('withMatches', () => {
  it("counts each search target's new pages and leaves job targets as they were", () => {
    const results: TargetResult[] = [{ targetId: 'c', type: 'crawl', crawlId: JOB }, searched('q'), searched('r')];
    const rows = [
      { targetId: 'q', status: 'new' as const },
      { targetId: 'q', status: 'new' as const },
      { targetId: 'q', status: 'same' as const },
      { targetId: 'c', status: 'new' as const },
    ];
    expect(withMatches(results, rows)).toEqual([
      { targetId: 'c', type: 'crawl', crawlId: JOB },
      { ...searched('q'), matches: 2 },
      { ...searched('r'), matches: 0 },
    ]);
  });
});

describe('checkStatus', () => {
  it('is failed when refused, partial when a job or a search did not complete, else completed', () => {
    expect(checkStatus(['completed', 'completed'], 0, undefined)).toBe('completed');
    expect(checkStatus([], 0, undefined)).toBe('completed');
    expect(checkStatus(['completed', 'failed'], 0, undefined)).toBe('partial');
    expect(checkStatus(['cancelled'], 0, undefined)).toBe('partial');
    expect(checkStatus(['completed'], 1, undefined)).toBe('partial');
    expect(checkStatus(['completed'], 0, 'out of credits')).toBe('failed');
    expect(checkStatus([], 0, '')).toBe('failed');
  });
});
