// The request as one SearchQuery: the query text's terms and operators, the
// request's domains, time filter, sources, categories, limit and locale.
import type { SearchQuery, SearchCategory, SearchSource } from '../search-query.ts';
import type { SearchRequest } from '../search-request.ts';
import { parseQueryText } from './parse-query.ts';
import { parseTbs } from './parse-tbs.ts';

export function searchQueryOf(req: SearchRequest, now: Date): SearchQuery {
  const text = parseQueryText(req.query);
  const webSource = req.sources.find((s) => typeof s !== 'string' && s.type === 'web');
  const tbs = (typeof webSource === 'object' && webSource.tbs) || req.tbs;
  const country = req.country ?? (req.location ? undefined : 'US');
  return {
    raw: req.query,
    ...text,
    domains: { include: req.includeDomains ?? [], exclude: req.excludeDomains ?? [] },
    time: parseTbs(tbs, now),
    sources: req.sources.map((s) => (typeof s === 'string' ? s : s.type)) as SearchSource[],
    categories: [...new Set(req.categories.map((c) => (typeof c === 'string' ? c : c.type)))] as SearchCategory[],
    limit: req.limit,
    ...(country && { country: country.toUpperCase() }),
    ...(req.location && { location: req.location }),
    language: req.lang.toLowerCase().split(/[-_]/)[0],
  };
}
