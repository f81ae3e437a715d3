// The request as one SearchQuery: the query text's terms and operators, the
// request's domains, time filter, sources, categories, limit and locale.
import type { SearchQuery, SearchCategory, SearchSource } from '../search-query.ts';
import { CATEGORIES, categoryName, SOURCES, sourceName, type SearchRequest } from '../search-request.ts';
import { parseQueryText } from './parse-query.ts';
import { parseTbs } from './parse-tbs.ts';

export function searchQueryOf(req: SearchRequest, now: Date): SearchQuery {
  const text = parseQueryText(req.query);
  const webSource = req.sources.find((s) => typeof s !== 'string' && s.type === 'web');
  const tbs = (typeof webSource === 'object' && 'tbs' in webSource && webSource.tbs) || req.tbs;
  const country = req.country ?? (req.location ? undefined : 'US');
  return {
    raw: req.query,
    ...text,
    domains: { include: req.includeDomains ?? [], exclude: req.excludeDomains ?? [] },
    time: parseTbs(tbs, now),
    // The cloud sources and categories never reach a provider (search-service.ts answers or refuses them).
    sources: req.sources.map(sourceName).filter((s): s is SearchSource => (SOURCES as readonly string[]).includes(s)),
    categories: [...new Set(req.categories.map(categoryName))].filter((c): c is SearchCategory => (CATEGORIES as readonly string[]).includes(c)),
    limit: req.limit,
    ...(country && { country: country.toUpperCase() }),
    ...(req.location && { location: req.location }),
    language: req.lang.toLowerCase().split(/[-_]/)[0],
    highlights: req.highlights === true,
  };
}
