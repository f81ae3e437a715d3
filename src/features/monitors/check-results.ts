// What a check records per target (its targetResults) and the status it ends with,
// from what its jobs and searches did. Pure.
import type { TargetRun } from './definitions.ts';
import type { CheckPageRow, CurrentPage } from './page-statuses.ts';
import type { SearchTargetResult } from './search-targets.ts';

/** A check's record of a target: a search target's results, or the job of a scrape or crawl target. */
export type TargetResult = SearchTargetResult | { targetId: string; type: 'scrape' | 'crawl'; crawlId?: string; expectedJobs?: (string | undefined)[] };

/** The targets' records once their jobs are committed: a search target has not searched yet. */
export function committedTargetResults(runs: TargetRun[]): TargetResult[] {
  return runs.map((r) =>
    r.type === 'crawl'
      ? { targetId: r.targetId, type: r.type, crawlId: r.jobId }
      : r.type === 'scrape'
        ? { targetId: r.targetId, type: r.type, expectedJobs: [r.jobId] }
        : {
            targetId: r.targetId,
            type: 'search',
            searchCompleted: false,
            resultCount: 0,
            searchCredits: 0,
            judgeDegraded: false,
            degradedReason: null,
            resultUrls: [],
          },
  );
}

/** Whether a search target's run is recorded (it searched, or could not), so a retry skips it. */
export function searchRecorded(results: TargetResult[], targetId: string): boolean {
  return results.some((r) => r.targetId === targetId && r.type === 'search' && (r.searchCompleted || r.degradedReason !== null));
}

/** The result URLs of the check's search targets, as pages of those targets. */
export function searchPages(results: SearchTargetResult[]): CurrentPage[] {
  return results.flatMap((r) =>
    r.resultUrls.map((url) => ({ targetId: r.targetId, urlKey: url, url, success: true, statusCode: null, error: null, searchResult: true })),
  );
}

/** Each search target's record with its matches: the pages it found that the previous check did not. */
export function withMatches(results: TargetResult[], rows: Pick<CheckPageRow, 'targetId' | 'status'>[]): TargetResult[] {
  const matches = (targetId: string) => rows.filter((r) => r.targetId === targetId && r.status === 'new').length;
  return results.map((r) => (r.type === 'search' ? { ...r, matches: matches(r.targetId) } : r));
}

/**
 * The check's status: failed when its jobs were refused, partial when a job did not complete or a
 * search did not (its pages are unknown), else completed.
 */
export function checkStatus(jobStatuses: string[], unknownSearches: number, refused: string | undefined): 'completed' | 'partial' | 'failed' {
  if (refused !== undefined) return 'failed';
  return jobStatuses.some((s) => s !== 'completed') || unknownSearches > 0 ? 'partial' : 'completed';
}
