// Searches as the gateway that runs them counts them: by kind (the sources asked
// for) and outcome with their latency, and each provider's answers, so a slow
// or failing engine shows apart from the searches it slows down.
import { DomainError } from '../../platform/domain-error.ts';
import { counter, DURATION_BUCKETS, histogram } from '../../platform/metrics/registry.ts';
import { SOURCES, type SearchRequest } from './search-request.ts';

const searches = counter({
  name: 'searches_total',
  help: 'POST /v2/search by kind (the sources asked for: web, news, images, or several joined by +) and outcome: ok, provider_error (no provider answered), refused (credits, ZDR, no provider configured), error',
  labelNames: ['kind', 'outcome'],
});

const duration = histogram({
  name: 'search_duration_seconds',
  help: 'Time searches that answered took, providers, merging and scraping of results included, by kind',
  labelNames: ['kind'],
  buckets: DURATION_BUCKETS,
});

const providerAnswers = counter({
  name: 'search_provider_requests_total',
  help: 'Questions to a search provider (local, searxng) by outcome: ok, error, timeout (the request’s timeout passed first)',
  labelNames: ['provider', 'outcome'],
});

const providerDuration = histogram({
  name: 'search_provider_duration_seconds',
  help: 'Time a search provider took to answer or fail, by provider',
  labelNames: ['provider'],
  buckets: DURATION_BUCKETS,
});

/** The sources a search asks for, in one fixed order and each once: `web`, `news`, `web+images`, ... */
export function searchKind(sources: SearchRequest['sources']): string {
  const asked = new Set(sources.map((s) => (typeof s === 'string' ? s : s.type)));
  return SOURCES.filter((s) => asked.has(s)).join('+');
}

function outcomeOf(err: unknown): string {
  if (!(err instanceof DomainError)) return 'error';
  return err.code === 'SEARCH_UNAVAILABLE' ? 'provider_error' : 'refused';
}

/** Runs one search, counting it whatever happens. */
export async function measuredSearch<T>(kind: string, search: () => Promise<T>): Promise<T> {
  const stop = duration.startTimer({ kind });
  try {
    const answer = await search();
    stop();
    searches.inc({ kind, outcome: 'ok' });
    return answer;
  } catch (err) {
    searches.inc({ kind, outcome: outcomeOf(err) });
    throw err;
  }
}

/** Passes one provider's answer (or 'timeout') through, counting how it ended and how long it took. */
export async function measuredAnswer<T>(provider: string, answer: Promise<T | 'timeout'>): Promise<T | 'timeout'> {
  const stop = providerDuration.startTimer({ provider });
  let outcome: 'ok' | 'error' | 'timeout' = 'error';
  try {
    const hits = await answer;
    outcome = hits === 'timeout' ? 'timeout' : 'ok';
    return hits;
  } finally {
    stop();
    providerAnswers.inc({ provider, outcome });
  }
}
