// A monitor's search targets: each query through the search tool (POST /v2/search's
// own path, providers and charge), its results recorded on the check; each result URL
// is a page of the target, new when the previous check did not list it, same when
// it did, removed when it is no longer found.
import type { ContractTool, ToolContext } from '../../platform/tools/tool.ts';
import { DomainError } from '../../platform/domain-error.ts';
import { searchCredits } from '../../platform/usage/credits.ts';
import type { MonitorTarget } from './monitor-request.ts';

export type SearchTarget = Extract<MonitorTarget, { type: 'search' }> & { id: string };

/** Results per query when the target names no maxResults (the search endpoint's default). */
export const DEFAULT_SEARCH_RESULTS = 10;

/** The search's time filter for a window: the past hour is the shortest tbs knows. */
export function windowTbs(window: SearchTarget['searchWindow']): string | undefined {
  switch (window) {
    case undefined:
      return undefined;
    case '5m':
    case '15m':
    case '1h':
      return 'qdr:h';
    case '6h':
      return 'qdr:h6';
    case '24h':
      return 'qdr:d';
    case '7d':
      return 'qdr:w';
  }
}

/** What a search target's run recorded on its check (targetResults), its result URLs kept for the check's pages. */
export interface SearchTargetResult {
  targetId: string;
  type: 'search';
  searchCompleted: boolean;
  resultCount: number;
  matches?: number;
  searchCredits: number;
  judgeDegraded: boolean;
  degradedReason: string | null;
  /** Not part of the API's answer (monitor-answers.ts leaves it out). */
  resultUrls: string[];
}

/** Credits one run of the target costs at most. */
export function searchTargetCredits(target: SearchTarget): number {
  return target.queries.length * searchCredits(target.maxResults ?? DEFAULT_SEARCH_RESULTS, false);
}

/** The result of a target that could not search. */
export function searchRefused(target: SearchTarget, reason: string): SearchTargetResult {
  return {
    targetId: target.id,
    type: 'search',
    searchCompleted: false,
    resultCount: 0,
    searchCredits: 0,
    judgeDegraded: false,
    degradedReason: reason,
    resultUrls: [],
  };
}

/**
 * Runs every query of the target; a refused search (a bad domain, no credits) ends the target with
 * its reason. `callIdOf` names the call of each query (its index), the same when the target is run again.
 */
export async function runSearchTarget(
  search: ContractTool<'search'>,
  target: SearchTarget,
  ctx: Omit<ToolContext, 'callId'>,
  callIdOf: (query: number) => string,
): Promise<SearchTargetResult> {
  const urls = new Set<string>();
  let credits = 0;
  let refused: string | null = null;
  for (const [i, query] of target.queries.entries()) {
    try {
      const answer = await search.run(
        {
          query,
          limit: target.maxResults ?? DEFAULT_SEARCH_RESULTS,
          ...(windowTbs(target.searchWindow) && { tbs: windowTbs(target.searchWindow) }),
          ...(target.includeDomains && { includeDomains: target.includeDomains }),
          ...(target.excludeDomains && { excludeDomains: target.excludeDomains }),
        },
        { ...ctx, callId: callIdOf(i) },
      );
      credits += answer.credits;
      for (const result of answer.output.results) urls.add(result.url);
    } catch (err) {
      if (!(err instanceof DomainError) && (err as Error).name !== 'ZodError') throw err;
      refused = `The search for ${JSON.stringify(query)} was refused: ${(err as Error).message}`;
      break;
    }
  }
  if (refused !== null) return { ...searchRefused(target, refused), searchCredits: credits };
  return {
    targetId: target.id,
    type: 'search',
    searchCompleted: true,
    resultCount: urls.size,
    searchCredits: credits,
    judgeDegraded: false,
    degradedReason: null,
    resultUrls: [...urls],
  };
}
