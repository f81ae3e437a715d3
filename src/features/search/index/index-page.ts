// Writes a page's entry (and its images) into the local index, inside the
// transaction that stores the page, so the index holds exactly the pages stored;
// a page stored again replaces its entry. The tsvector is computed by PostgreSQL
// with the page's text-search configuration: title weighted A, description and
// headings B, body C, the URL's words D.
import type { Tx } from '../../../platform/db/prisma.ts';
import { storableFields } from '../../../platform/db/storable.ts';
import type { PageEntry } from './page-entry.ts';

export interface IndexedPage {
  teamId: string;
  crawlId: string;
  /** Fetched without credentials (see SEARCH_SHARE_PUBLIC_PAGES). */
  shareable: boolean;
  entry: PageEntry;
}

/** The words of a URL (host labels, path segments), for matching plain words against URLs too. */
function urlWords(url: string): string {
  return url.replace(/^[a-z]+:\/\//i, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim().slice(0, 2000);
}

export async function indexPage(tx: Tx, page: IndexedPage): Promise<void> {
  // Page text, clipped by UTF-16 index too, may hold what PostgreSQL refuses.
  const e = storableFields(page.entry);
  const published = e.publishedAt?.toISOString() ?? null;
  await tx.$executeRaw`
    INSERT INTO search_page (team_id, url_key, url, host, path, ext, content_type, title, description, lang, ts_config, tsv,
                             published_at, outbound_domains, category, news, image_url, shareable, score, crawl_id, indexed_at)
    VALUES (${page.teamId}::uuid, ${e.urlKey}, ${e.url}, ${e.host}, ${e.path}, ${e.ext}, ${e.contentType}, ${e.title}, ${e.description}, ${e.lang}, ${e.tsConfig},
            setweight(to_tsvector(${e.tsConfig}::regconfig, ${e.title}), 'A') ||
            setweight(to_tsvector(${e.tsConfig}::regconfig, ${`${e.description} ${e.headings}`}), 'B') ||
            setweight(to_tsvector(${e.tsConfig}::regconfig, ${e.body}), 'C') ||
            setweight(to_tsvector('simple', ${urlWords(e.url)}), 'D'),
            ${published}::timestamptz, ${e.outboundDomains}::text[], ${e.category}, ${e.news}, ${e.imageUrl}, ${page.shareable}, ${e.score}, ${page.crawlId}::uuid, now())
    ON CONFLICT (team_id, url_key) DO UPDATE SET
      url = EXCLUDED.url, host = EXCLUDED.host, path = EXCLUDED.path, ext = EXCLUDED.ext, content_type = EXCLUDED.content_type,
      title = EXCLUDED.title, description = EXCLUDED.description, lang = EXCLUDED.lang, ts_config = EXCLUDED.ts_config, tsv = EXCLUDED.tsv,
      published_at = EXCLUDED.published_at, outbound_domains = EXCLUDED.outbound_domains, category = EXCLUDED.category, news = EXCLUDED.news,
      image_url = EXCLUDED.image_url, shareable = EXCLUDED.shareable, score = EXCLUDED.score, crawl_id = EXCLUDED.crawl_id, indexed_at = now()`;
  await tx.$executeRaw`DELETE FROM search_image WHERE team_id = ${page.teamId}::uuid AND page_url_key = ${e.urlKey}`;
  if (e.images.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO search_image (team_id, page_url_key, src, page_url, title, alt, width, height, tsv, shareable, score)
    SELECT ${page.teamId}::uuid, ${e.urlKey}, i.src, ${e.url}, ${e.title}, i.alt, i.width, i.height,
           setweight(to_tsvector(${e.tsConfig}::regconfig, i.alt), 'A') ||
           setweight(to_tsvector(${e.tsConfig}::regconfig, i.context), 'B') ||
           setweight(to_tsvector(${e.tsConfig}::regconfig, ${e.title}), 'C'),
           ${page.shareable}, ${e.score}
    FROM unnest(${e.images.map((i) => i.src)}::text[], ${e.images.map((i) => i.alt)}::text[], ${e.images.map((i) => i.context)}::text[],
                ${e.images.map((i) => i.width ?? null)}::int[], ${e.images.map((i) => i.height ?? null)}::int[]) AS i(src, alt, context, width, height)
    ON CONFLICT DO NOTHING`;
}
