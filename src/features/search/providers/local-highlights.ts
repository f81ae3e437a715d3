// `highlights: true` over the local index: each result's description (a news item's
// snippet) becomes the passages of the page's stored markdown that hold the query's
// words, as upstream replaces provider snippets with query-relevant highlights of the
// pages it has indexed. ts_headline picks them in the configuration the page was
// indexed with, from a window around the first place the page says one of the words:
// finding that place is a few scans of the text (about 3 ms for 100,000 characters),
// where ts_headline over the whole of a long page takes about 30 ms (the window, 1).
import type { Tx } from '../../../platform/db/prisma.ts';
import type { SearchQuery } from '../search-query.ts';
import { includedQuery, queryConfigs } from './ts-query.ts';

/** How much of a page's markdown is looked through (as much as the index reads of its body). */
export const HIGHLIGHT_TEXT_CHARS = 100_000;
/** A larger stored document (large html or screenshot formats beside the markdown) keeps its description. */
export const HIGHLIGHT_MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;
/** The window ts_headline reads, starting this far before the first place one of the query's words is said. */
const WINDOW_CHARS = 2400;
const WINDOW_LEAD_CHARS = 600;
/** Marks of the matching words in ts_headline's answer: characters of Unicode's private use area, which no text shows. */
const [MATCH_START, MATCH_END] = ['\uE000', '\uE001'];
const HEADLINE_OPTIONS = `MaxFragments=3, MaxWords=30, MinWords=12, ShortWord=2, FragmentDelimiter=" … ", StartSel=${MATCH_START}, StopSel=${MATCH_END}`;

/**
 * ts_headline's passages as plain text, or undefined when no word of the query is among them (it
 * then answers the window's first words, which say less than the page's description): markdown's
 * link targets and images dropped, whitespace collapsed.
 */
export function highlightPassages(headline: string): string | undefined {
  if (!headline.includes(MATCH_START)) return undefined;
  const text = headline
    .replaceAll(MATCH_START, '')
    .replaceAll(MATCH_END, '')
    .replace(/!\[([^\]\n]{0,500})\]\([^)\s]{0,2000}\)/g, '$1')
    .replace(/\[([^\]\n]{0,500})\]\([^)\s]{0,2000}\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  return text || undefined;
}

/** Where a result's page is stored (job_page), and the configuration its text was indexed with. */
export interface HighlightedPage {
  crawl_id: string;
  url_key: string;
  ts_config: string;
}

/** The words of the query's included terms (a phrase's words too), as the user wrote them. */
const queryWords = (q: SearchQuery) => [...new Set(q.terms.include.flatMap((t) => t.text.toLowerCase().split(/\s+/)).filter(Boolean))];

/** What comes before a word in markdown: a space or line break, or markdown's own marks and brackets. */
const WORD_STARTS = [' ', '\n', '\t', '(', '[', '*', '_', '"', "'", '#', '>', '/', '`'];

/**
 * The highlights of pages by `${crawl_id} ${url_key}`. The first place a word is said is where the
 * lower-cased text has, after one of WORD_STARTS (or at its start), the word itself or one of its
 * stems (the index's lexemes are mostly prefixes of the words they stand for: "lighthous"), of
 * which only the shortest prefixes are looked for. A page that says none keeps its description.
 */
export async function highlightsOf(tx: Tx, q: SearchQuery, rows: HighlightedPage[]): Promise<Map<string, string>> {
  const tsq = includedQuery(q);
  const found = new Map<string, string>();
  if (!tsq || rows.length === 0) return found;
  const unique = [...new Map(rows.map((r) => [`${r.crawl_id} ${r.url_key}`, r])).values()];
  const headlines = await tx.$queryRaw<{ crawl_id: string; url_key: string; headline: string }[]>`
    WITH variants AS (
      SELECT DISTINCT w
      FROM unnest(${queryWords(q)}::text[]) AS r(word),
        LATERAL unnest(ARRAY[r.word] || ARRAY(
          SELECT unnest(tsvector_to_array(to_tsvector(c, r.word))) FROM unnest(${queryConfigs(q)}::regconfig[]) AS c
        )) AS w
      WHERE w <> ''
    ), words AS MATERIALIZED (
      SELECT w FROM variants v WHERE NOT EXISTS (SELECT 1 FROM variants p WHERE p.w <> v.w AND starts_with(v.w, p.w))
    )
    SELECT k.crawl_id::text, k.url_key,
      ts_headline(k.ts_config::regconfig, substr(t.text, greatest(1, a.at - ${WINDOW_LEAD_CHARS}::int), ${WINDOW_CHARS}::int), ${tsq}, ${HEADLINE_OPTIONS}) AS headline
    FROM unnest(${unique.map((r) => r.crawl_id)}::uuid[], ${unique.map((r) => r.url_key)}::text[], ${unique.map((r) => r.ts_config)}::text[]) AS k(crawl_id, url_key, ts_config)
    JOIN job_page cp ON cp.job_id = k.crawl_id AND cp.url_key = k.url_key
    CROSS JOIN LATERAL (SELECT left(cp.document->>'markdown', ${HIGHLIGHT_TEXT_CHARS}::int) AS text) t
    CROSS JOIN LATERAL (SELECT lower(t.text) AS lowered) l
    CROSS JOIN LATERAL (
      SELECT min(CASE WHEN starts_with(l.lowered, words.w) THEN 1 ELSE nullif(strpos(l.lowered, d || words.w), 0) END) AS at
      FROM words, unnest(${WORD_STARTS}::text[]) AS d
    ) a
    WHERE cp.success AND cp.purged_at IS NULL AND cp.size_bytes <= ${HIGHLIGHT_MAX_DOCUMENT_BYTES}::int AND cp.document ? 'markdown' AND a.at IS NOT NULL`;
  for (const h of headlines) {
    const passages = highlightPassages(h.headline);
    if (passages) found.set(`${h.crawl_id} ${h.url_key}`, passages);
  }
  return found;
}
