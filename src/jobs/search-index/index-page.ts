// Writes pages' entries (and their images) into the local index, inside the
// transaction that stores the pages, so the index holds exactly the pages stored;
// a page stored again replaces its entry. The tsvector is computed by PostgreSQL
// with the page's text-search configuration: title weighted A, description and
// headings B, body C, the URL's words D.
import type { SqlTx } from '../../platform/db/sql-transactions.ts';
import { storableFields } from '../../platform/db/storable.ts';
import type { PageEntry } from '../../page/index-entry/page-entry.ts';

export interface IndexedPage {
  teamId: string;
  crawlId: string;
  /** Fetched without credentials (see SEARCH_SHARE_PUBLIC_PAGES). */
  shareable: boolean;
  entry: PageEntry;
}

/** The words of a URL (host labels, path segments), for matching plain words against URLs too. */
function urlWords(url: string): string {
  return url
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .slice(0, 2000);
}

/** Writes the entries of several pages (a group of a crawl's pages) in three statements. */
export async function indexPages(tx: SqlTx, pages: IndexedPage[]): Promise<void> {
  if (pages.length === 0) return;
  // Page text, clipped by UTF-16 index too, may hold what PostgreSQL refuses.
  const rows = pages.map((page) => ({ page, e: storableFields(page.entry) }));
  const column = <T>(get: (row: (typeof rows)[number]) => T) => rows.map(get);
  await tx.$executeRaw`
    INSERT INTO search_page (team_id, url_key, url, host, path, ext, content_type, title, description, lang, ts_config, tsv,
                             published_at, outbound_domains, category, news, image_url, shareable, score, crawl_id, indexed_at)
    SELECT p.team_id, p.url_key, p.url, p.host, p.path, p.ext, p.content_type, p.title, p.description, p.lang, p.ts_config,
           setweight(to_tsvector(p.ts_config::regconfig, p.title), 'A') ||
           setweight(to_tsvector(p.ts_config::regconfig, p.description || ' ' || p.headings), 'B') ||
           setweight(to_tsvector(p.ts_config::regconfig, p.body), 'C') ||
           setweight(to_tsvector('simple', p.url_words), 'D'),
           p.published_at, ARRAY(SELECT jsonb_array_elements_text(p.outbound::jsonb)), p.category, p.news, p.image_url, p.shareable, p.score, p.crawl_id, now()
    FROM unnest(
      ${column((r) => r.page.teamId)}::uuid[], ${column((r) => r.e.urlKey)}::text[], ${column((r) => r.e.url)}::text[], ${column((r) => r.e.host)}::text[],
      ${column((r) => r.e.path)}::text[], ${column((r) => r.e.ext)}::text[], ${column((r) => r.e.contentType)}::text[], ${column((r) => r.e.title)}::text[],
      ${column((r) => r.e.description)}::text[], ${column((r) => r.e.headings)}::text[], ${column((r) => r.e.body)}::text[], ${column((r) => r.e.lang)}::text[],
      ${column((r) => r.e.tsConfig)}::text[], ${column((r) => urlWords(r.e.url))}::text[], ${column((r) => r.e.publishedAt?.toISOString() ?? null)}::timestamptz[],
      ${column((r) => JSON.stringify(r.e.outboundDomains))}::text[], ${column((r) => r.e.category)}::text[], ${column((r) => r.e.news)}::boolean[],
      ${column((r) => r.e.imageUrl)}::text[], ${column((r) => r.page.shareable)}::boolean[], ${column((r) => r.e.score)}::real[], ${column((r) => r.page.crawlId)}::uuid[]
    ) AS p(team_id, url_key, url, host, path, ext, content_type, title, description, headings, body, lang, ts_config, url_words, published_at,
           outbound, category, news, image_url, shareable, score, crawl_id)
    ON CONFLICT (team_id, url_key) DO UPDATE SET
      url = EXCLUDED.url, host = EXCLUDED.host, path = EXCLUDED.path, ext = EXCLUDED.ext, content_type = EXCLUDED.content_type,
      title = EXCLUDED.title, description = EXCLUDED.description, lang = EXCLUDED.lang, ts_config = EXCLUDED.ts_config, tsv = EXCLUDED.tsv,
      published_at = EXCLUDED.published_at, outbound_domains = EXCLUDED.outbound_domains, category = EXCLUDED.category, news = EXCLUDED.news,
      image_url = EXCLUDED.image_url, shareable = EXCLUDED.shareable, score = EXCLUDED.score, crawl_id = EXCLUDED.crawl_id, indexed_at = now()`;
  await tx.$executeRaw`
    DELETE FROM search_image s USING unnest(${column((r) => r.page.teamId)}::uuid[], ${column((r) => r.e.urlKey)}::text[]) AS p(team_id, url_key)
    WHERE s.team_id = p.team_id AND s.page_url_key = p.url_key`;
  const images = rows.flatMap(({ page, e }) => e.images.map((image) => ({ page, e, image })));
  if (images.length === 0) return;
  const each = <T>(get: (row: (typeof images)[number]) => T) => images.map(get);
  await tx.$executeRaw`
    INSERT INTO search_image (team_id, page_url_key, src, page_url, title, alt, width, height, tsv, shareable, score)
    SELECT i.team_id, i.page_url_key, i.src, i.page_url, i.title, i.alt, i.width, i.height,
           setweight(to_tsvector(i.ts_config::regconfig, i.alt), 'A') ||
           setweight(to_tsvector(i.ts_config::regconfig, i.context), 'B') ||
           setweight(to_tsvector(i.ts_config::regconfig, i.title), 'C'),
           i.shareable, i.score
    FROM unnest(
      ${each((r) => r.page.teamId)}::uuid[], ${each((r) => r.e.urlKey)}::text[], ${each((r) => r.image.src)}::text[], ${each((r) => r.e.url)}::text[],
      ${each((r) => r.e.title)}::text[], ${each((r) => r.image.alt)}::text[], ${each((r) => r.image.context)}::text[], ${each((r) => r.image.width ?? null)}::int[],
      ${each((r) => r.image.height ?? null)}::int[], ${each((r) => r.e.tsConfig)}::text[], ${each((r) => r.page.shareable)}::boolean[], ${each((r) => r.e.score)}::real[]
    ) AS i(team_id, page_url_key, src, page_url, title, alt, context, width, height, ts_config, shareable, score)
    ON CONFLICT DO NOTHING`;
}
