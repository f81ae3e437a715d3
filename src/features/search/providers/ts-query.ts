// The local index's text queries: the query's words as tsqueries, stemmed in the
// configurations a request's words are looked up with.
import { Prisma } from '../../../generated/prisma/client.ts';
import { textSearchConfig } from '../../../page/index-entry/languages.ts';
import type { SearchQuery, TextTerm } from '../search-query.ts';

/** Configurations a query's words are stemmed with: words as written, English, and the request's language. */
export function queryConfigs(q: SearchQuery): string[] {
  return [...new Set(['simple', 'english', textSearchConfig(q.language)])];
}

export function termQuery(term: TextTerm, configs: string[], relaxed = false): Prisma.Sql {
  const fn = Prisma.raw(term.kind === 'phrase' && !relaxed ? 'phraseto_tsquery' : 'plainto_tsquery');
  return Prisma.sql`(${Prisma.join(
    configs.map((c) => Prisma.sql`${fn}(${c}::regconfig, ${term.text})`),
    ' || ',
  )})`;
}

/**
 * The tsquery every included term must match, or undefined when the query has none. Relaxed, a
 * phrase is only its words: checking word positions means reading each page's whole tsvector.
 */
export function includedQuery(q: SearchQuery, relaxed = false): Prisma.Sql | undefined {
  if (q.terms.include.length === 0) return undefined;
  const configs = queryConfigs(q);
  return Prisma.sql`(${Prisma.join(
    q.terms.include.map((t) => termQuery(t, configs, relaxed)),
    ' && ',
  )})`;
}
