// The local index's pages of one site, for POST /v2/map: the team's (and, with
// SEARCH_SHARE_PUBLIC_PAGES, everyone's shareable) indexed pages on the host and
// optionally its subdomains, with their titles and descriptions; with a search
// term, only those matching it, most relevant first.
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../platform/db/prisma.ts';

export interface SitePage {
  url: string;
  title: string;
  description: string;
}

export interface SitePagesQuery {
  teamId: string;
  sharePublicPages: boolean;
  host: string;
  includeSubdomains: boolean;
  search?: string;
  limit: number;
}

export async function indexedSitePages(db: Db, q: SitePagesQuery): Promise<SitePage[]> {
  const host = q.host.toLowerCase().replace(/^www\./, '');
  const visible = q.sharePublicPages ? Prisma.sql`(p.team_id = ${q.teamId}::uuid OR p.shareable)` : Prisma.sql`p.team_id = ${q.teamId}::uuid`;
  const onSite = q.includeSubdomains
    ? Prisma.sql`(p.host = ${host} OR p.host LIKE ${`%.${host.replace(/[\\%_]/g, (c) => `\\${c}`)}`})`
    : Prisma.sql`p.host = ${host}`;
  const search = q.search?.trim().replace(/[\u0000-\u001f]/g, ' ');
  if (!search) {
    return db.$queryRaw<SitePage[]>`
      SELECT DISTINCT ON (p.url_key) p.url, p.title, p.description FROM search_page p
      WHERE ${visible} AND ${onSite} ORDER BY p.url_key LIMIT ${q.limit}`;
  }
  const tsq = Prisma.sql`(plainto_tsquery('simple', ${search}) || plainto_tsquery('english', ${search}))`;
  return db.$queryRaw<SitePage[]>`
    SELECT url, title, description FROM (
      SELECT DISTINCT ON (p.url_key) p.url, p.title, p.description, ts_rank_cd(p.tsv, ${tsq}, 32) AS rank FROM search_page p
      WHERE ${visible} AND ${onSite} AND p.tsv @@ ${tsq} ORDER BY p.url_key, p.team_id = ${q.teamId}::uuid DESC
    ) m ORDER BY rank DESC, url LIMIT ${q.limit}`;
}
