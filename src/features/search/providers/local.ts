// The local index as a search provider: a SearchQuery compiled into one SQL
// statement per source over search_page / search_image, with every operator in
// SQL and team visibility in its WHERE clause. Ranking is two-step: matching pages
// are taken in order of their precomputed score up to SEARCH_CANDIDATES, and only
// those are ranked exactly (ts_rank_cd, plus the page score and a language and
// region preference), because ranking every match of a common word is what makes
// full-text search slow (3.3 s for 930k matches, measured).
import { Prisma } from '../../../generated/prisma/client.ts';
import type { Db, Tx } from '../../../platform/db/prisma.ts';
import type { ImageHit, NewsHit, ProviderHits, SearchContext, SearchProvider, WebHit } from '../provider.ts';
import type { SearchCategory, SearchQuery } from '../search-query.ts';
import { highlightsOf } from './local-highlights.ts';
import { includedQuery, queryConfigs, termQuery } from './ts-query.ts';

export interface LocalProviderOptions {
  /** SEARCH_SHARE_PUBLIC_PAGES: other teams' pages fetched without credentials are found too. */
  sharePublicPages: boolean;
  /** Matching pages ranked exactly, at most. */
  candidates: number;
  /** Longest a query of the index may run. */
  statementTimeoutMs: number;
  /** The walk's cost per page against reading a match (default WALK_ROW_COST); 0 always walks, Infinity always reads every match. */
  walkRowCost?: number;
}

/**
 * How much more a page passed by a walk in score order costs than a match read through the
 * indexes: the walk reads the page's tsvector (about 1.1x with small tsvectors cached, several times
 * more from TOAST and for long pages; bench:search at 1,000,000 pages).
 */
export const WALK_ROW_COST = 4;

/**
 * What passing one index entry costs the walk against reading a page's tsvector: the score-ordered
 * indexes hold the date, so a walk within a date range passes the entries outside it in the index
 * (about 0.05 us each against about 10 us for a tsvector, bench:search at 1,000,000 pages; twice
 * that here, to be safe).
 */
const WALK_ENTRY_SHARE = 0.01;

const AND = (parts: Prisma.Sql[]) => (parts.length ? Prisma.join(parts, ' AND ') : Prisma.sql`TRUE`);
const OR = (parts: Prisma.Sql[]) => (parts.length ? Prisma.sql`(${Prisma.join(parts, ' OR ')})` : Prisma.sql`FALSE`);
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Candidates per phrase query, times the usual: phrases are checked on candidates found by their words. */
const PHRASE_POOL = 10;

/** A host and its subdomains; a site may carry a path prefix. */
function siteMatch(site: string): Prisma.Sql {
  const [host, ...rest] = site.replace(/^www\./, '').split('/');
  const path = rest.length ? `/${rest.join('/')}` : '';
  // Subdomains by a prefix of the reversed host, which search_page_host_reversed_idx serves.
  const hostMatch = Prisma.sql`(p.host = ${host} OR reverse(p.host) LIKE ${`${likeEscape([...`.${host}`].reverse().join(''))}%`})`;
  return path ? Prisma.sql`(${hostMatch} AND p.path LIKE ${`${likeEscape(path)}%`})` : hostMatch;
}

function visible(alias: string, teamId: string, share: boolean): Prisma.Sql {
  const a = Prisma.raw(alias);
  return share ? Prisma.sql`(${a}.team_id = ${teamId}::uuid OR ${a}.shareable)` : Prisma.sql`${a}.team_id = ${teamId}::uuid`;
}

/**
 * The date range. Unindexed, the same condition is written so that no index serves it (adding
 * zero): search_page_published_tsv_idx then reads only the words, and the date is checked on
 * the pages they match.
 */
function timeFilters(q: SearchQuery, indexed = true): Prisma.Sql[] {
  const date = indexed ? Prisma.sql`p.published_at` : Prisma.sql`(p.published_at + interval '0 s')`;
  const where: Prisma.Sql[] = [];
  if (q.time.from) where.push(Prisma.sql`${date} >= ${q.time.from.toISOString()}::timestamptz`);
  if (q.time.to) where.push(Prisma.sql`${date} <= ${q.time.to.toISOString()}::timestamptz`);
  return where;
}

/** The planner's estimate of the pages matching `where`. */
async function estimatedRows(tx: Tx, where: Prisma.Sql[]): Promise<number> {
  const [row] = await tx.$queryRaw<
    { 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }[]
  >`EXPLAIN (FORMAT JSON) SELECT 1 FROM search_page p WHERE ${AND(where)}`;
  return row['QUERY PLAN'][0].Plan['Plan Rows'];
}

/** Conditions on the page (alias p) from everything but the text terms and the date. */
function pageFilters(q: SearchQuery, teamId: string, share: boolean): Prisma.Sql[] {
  const where: Prisma.Sql[] = [visible('p', teamId, share)];
  if (q.sites.include.length) where.push(OR(q.sites.include.map(siteMatch)));
  for (const site of q.sites.exclude) where.push(Prisma.sql`NOT ${siteMatch(site)}`);
  if (q.domains.include.length) where.push(OR(q.domains.include.map(siteMatch)));
  for (const domain of q.domains.exclude) where.push(Prisma.sql`NOT ${siteMatch(domain)}`);
  const pdfType = (types: string[]) => (types.includes('pdf') ? Prisma.sql` OR p.content_type = 'application/pdf'` : Prisma.empty);
  if (q.fileTypes.include.length) where.push(Prisma.sql`(p.ext = ANY(${q.fileTypes.include}::text[])${pdfType(q.fileTypes.include)})`);
  if (q.fileTypes.exclude.length) where.push(Prisma.sql`NOT COALESCE(p.ext = ANY(${q.fileTypes.exclude}::text[])${pdfType(q.fileTypes.exclude)}, FALSE)`);
  for (const word of q.inUrl.include) where.push(Prisma.sql`p.url_key ILIKE ${`%${likeEscape(word)}%`}`);
  for (const word of q.inUrl.exclude) where.push(Prisma.sql`p.url_key NOT ILIKE ${`%${likeEscape(word)}%`}`);
  for (const word of q.inTitle.include) where.push(Prisma.sql`p.title ILIKE ${`%${likeEscape(word)}%`}`);
  for (const word of q.inTitle.exclude) where.push(Prisma.sql`p.title NOT ILIKE ${`%${likeEscape(word)}%`}`);
  if (q.terms.exclude.length) {
    const configs = queryConfigs(q);
    where.push(
      Prisma.sql`NOT (p.tsv @@ (${Prisma.join(
        q.terms.exclude.map((t) => termQuery(t, configs)),
        ' || ',
      )}))`,
    );
  }
  if (q.related) {
    // Pages of other domains that link to any domain the given domain's pages link to.
    where.push(Prisma.sql`NOT ${siteMatch(q.related)}`);
    where.push(Prisma.sql`p.outbound_domains && COALESCE((
      SELECT array_agg(DISTINCT d) FROM search_page r, unnest(r.outbound_domains) d
      WHERE ${visible('r', teamId, share)} AND (r.host = ${q.related} OR r.host LIKE ${`%.${likeEscape(q.related)}`})
    ), '{}')`);
  }
  if (q.categories.length) where.push(Prisma.sql`p.category = ANY(${q.categories}::text[])`);
  return where;
}

/** Preference, not filter: pages in the request's language, and on the country's domain. */
function preference(q: SearchQuery): Prisma.Sql {
  const lang = q.language ? Prisma.sql` + CASE WHEN split_part(c.lang, '-', 1) = ${q.language} THEN 0.5 ELSE 0 END` : Prisma.empty;
  const tld = q.country && q.country !== 'US' ? Prisma.sql` + CASE WHEN c.host LIKE ${`%.${q.country.toLowerCase()}`} THEN 0.3 ELSE 0 END` : Prisma.empty;
  return Prisma.sql`${lang}${tld}`;
}

interface PageRow {
  url: string;
  title: string;
  description: string;
  category: SearchCategory | null;
  published_at: Date | null;
  image_url: string | null;
  /** Where the page's document is (job_page), and the configuration its text was indexed with: for highlights. */
  crawl_id: string;
  url_key: string;
  ts_config: string;
}

/**
 * Runs queries planned for their own values (a generic plan, which PostgreSQL switches a prepared
 * statement to after five runs, cannot tell a rare word from a common one), and without sequential
 * scans: the planner does not count the cost of reading each page's tsvector from TOAST, so it
 * scans the table where the full-text index reads a few entries. Its statements share one snapshot:
 * the read plan finds pages by their row versions (ctid) in one statement and fetches them in the
 * next, and a page indexed again in between (a batch retried, a crawl storing it anew) would have
 * left the second statement's snapshot under another version.
 */
function plannedTransaction<T>(db: Db, statementTimeoutMs: number, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SET LOCAL plan_cache_mode = force_custom_plan`;
      await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
      // A query the plans above cannot make fast fails (the search reports it) instead of holding a connection.
      await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${Math.floor(statementTimeoutMs)}`);
      return work(tx);
    },
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
  );
}

/** Estimates of the planner (pages) that choose between reading every match and walking the pages in order. */
export interface PlanEstimates {
  /** Pages matching the whole query. */
  matches: number;
  /** Matches the walk stops at. */
  pool: number;
  /** Visible pages within the date range: the walk reads the tsvector of its share of them. */
  rangeRows: number;
  /** Visible pages whose index entries the walk passes (in date order only those in the range). */
  visibleRows: number;
}

/**
 * True to read every match through the indexes (no tsvector read) and keep the best `pool` in walk
 * order, false to walk the pages in score (or date) order until `pool` match. The walk passes `pool`
 * matches' share of the index entries and reads the tsvector of that share of the range's pages.
 */
export function readsEveryMatch({ matches, pool, rangeRows, visibleRows }: PlanEstimates, walkRowCost: number): boolean {
  const share = pool / Math.max(matches, 1);
  const [walkedRows, walkedEntries] = [share * rangeRows, share * visibleRows];
  return matches <= (walkedRows + walkedEntries * WALK_ENTRY_SHARE) * walkRowCost;
}

async function searchPages(db: Db, opts: LocalProviderOptions, q: SearchQuery, ctx: SearchContext, news: boolean): Promise<PageRow[]> {
  const tsq = includedQuery(q);
  const phrases = q.terms.include.some((t) => t.kind === 'phrase');
  const conditions = (time: Prisma.Sql[]) => {
    const found = [...pageFilters(q, ctx.teamId, opts.sharePublicPages), ...time];
    if (tsq) found.push(Prisma.sql`p.tsv @@ ${phrases ? includedQuery(q, true)! : tsq}`);
    if (news) found.push(Prisma.sql`p.news`);
    return found;
  };
  const where = conditions(timeFilters(q));
  const pool = phrases ? opts.candidates * PHRASE_POOL : opts.candidates;
  const rank = tsq ? Prisma.sql`ts_rank_cd(c.tsv, ${tsq}, 32) * 10 + c.score * 0.1` : Prisma.sql`c.score * 0.1`;
  const order = q.time.sortByDate ? Prisma.sql`c.published_at DESC NULLS LAST, rank DESC` : Prisma.sql`rank DESC, c.url_key`;
  const columns = Prisma.sql`p.url, p.url_key, p.title, p.description, p.category, p.published_at, p.image_url, p.tsv, p.score, p.lang, p.host, p.crawl_id, p.ts_config`;
  const inWalkOrder = q.time.sortByDate ? Prisma.sql`p.published_at DESC NULLS LAST, p.score DESC` : Prisma.sql`p.score DESC`;
  const visiblePages = visible('p', ctx.teamId, opts.sharePublicPages);
  const inRange = [visiblePages, ...timeFilters(q)];
  return plannedTransaction(db, opts.statementTimeoutMs, async (tx) => {
    // Two plans, chosen here from the planner's estimates (the planner cannot choose between
    // them itself: it does not count reading each page's tsvector, which the walk does for
    // every page it passes):
    // - read every match through the indexes (no tsvector read) and keep the best `pool` in
    //   walk order, when there are few enough;
    // - walk the pages in score (or date) order until `pool` match, when matches are common
    //   among the pages walked.
    // The walk passes `pool` matches' share of the visible pages' index entries (in date order
    // only those in the range), and reads the tsvector of those within the date range.
    const matches = await estimatedRows(tx, where);
    const ranged = q.time.from || q.time.to;
    const rangeRows = await estimatedRows(tx, inRange);
    const visibleRows = ranged && !q.time.sortByDate ? await estimatedRows(tx, [visiblePages]) : rangeRows;
    let ids: string[] | undefined;
    if (readsEveryMatch({ matches, pool, rangeRows, visibleRows }, opts.walkRowCost ?? WALK_ROW_COST)) {
      // An estimate far below the truth stops at the cap, and the walk is used instead.
      const cap = Math.ceil(Math.max(4 * matches, 2 * pool));
      // With words and a date range, search_page_published_tsv_idx can read both at once:
      // it collects the range's pages (about 1 us each) and skips through the words' postings
      // to them. Worth it when the range holds fewer pages than the words match without it;
      // otherwise the words alone are read and the date checked on their pages.
      const read =
        tsq && ranged && (await estimatedRows(tx, timeFilters(q))) > (await estimatedRows(tx, conditions([]))) ? conditions(timeFilters(q, false)) : where;
      await tx.$executeRaw`SET LOCAL enable_indexscan = off`;
      const [found] = await tx.$queryRaw<{ n: number; ids: string[] | null }[]>`
        WITH m AS MATERIALIZED (SELECT p.ctid AS id, p.score, p.published_at FROM search_page p WHERE ${AND(read)} LIMIT ${cap + 1})
        SELECT count(*)::int AS n, (array_agg(p.id::text ORDER BY ${inWalkOrder}, p.id))[1:${pool}] AS ids FROM m p`;
      await tx.$executeRaw`SET LOCAL enable_indexscan = on`;
      if (found.n <= cap) ids = found.ids ?? [];
    }
    if (ids?.length === 0) return [];
    const candidates = ids
      ? Prisma.sql`SELECT ${columns} FROM search_page p WHERE p.ctid = ANY(${ids}::tid[])`
      : Prisma.sql`SELECT ${columns} FROM search_page p WHERE ${AND(where)} ORDER BY ${inWalkOrder} LIMIT ${pool}`;
    const exactly = phrases ? Prisma.sql`WHERE c.tsv @@ ${tsq}` : Prisma.empty;
    return tx.$queryRaw<PageRow[]>`
      WITH c AS MATERIALIZED (${candidates})
      SELECT c.url, c.title, c.description, c.category, c.published_at, c.image_url, c.crawl_id::text, c.url_key, c.ts_config, ${rank}${preference(q)} AS rank
      FROM c ${exactly} ORDER BY ${order} LIMIT ${q.limit}`;
  });
}

async function searchImages(db: Db, opts: LocalProviderOptions, q: SearchQuery, ctx: SearchContext): Promise<ImageHit[]> {
  const tsq = includedQuery(q);
  const where = [...pageFilters(q, ctx.teamId, opts.sharePublicPages), ...timeFilters(q)];
  where.push(visible('i', ctx.teamId, opts.sharePublicPages));
  if (tsq) where.push(Prisma.sql`i.tsv @@ ${tsq}`);
  if (q.imageSize) where.push(Prisma.sql`i.width = ${q.imageSize.width} AND i.height = ${q.imageSize.height}`);
  if (q.largerThan) where.push(Prisma.sql`i.width >= ${q.largerThan.width} AND i.height >= ${q.largerThan.height}`);
  const rank = tsq ? Prisma.sql`ts_rank_cd(i.tsv, ${tsq}, 32) * 10 + i.score * 0.1` : Prisma.sql`i.score * 0.1`;
  const rows = await plannedTransaction(
    db,
    opts.statementTimeoutMs,
    (tx) => tx.$queryRaw<{ src: string; page_url: string; title: string; alt: string; width: number | null; height: number | null }[]>`
    SELECT i.src, i.page_url, i.title, i.alt, i.width, i.height
    FROM search_image i JOIN search_page p ON p.team_id = i.team_id AND p.url_key = i.page_url_key
    WHERE ${AND(where)}
    ORDER BY ${rank} DESC, i.src
    LIMIT ${q.limit}`,
  );
  return rows.map((r) => ({
    title: r.alt || r.title,
    imageUrl: r.src,
    url: r.page_url,
    ...(r.width !== null && { imageWidth: r.width }),
    ...(r.height !== null && { imageHeight: r.height }),
  }));
}

function webHit(r: PageRow, description: string): WebHit {
  return {
    url: r.url,
    title: r.title,
    description,
    ...(r.category && { category: r.category }),
    ...(r.published_at && { date: r.published_at }),
  };
}

function newsHit(r: PageRow, snippet: string): NewsHit {
  return {
    url: r.url,
    title: r.title,
    snippet,
    ...(r.published_at && { date: r.published_at }),
    ...(r.image_url && { imageUrl: r.image_url }),
    ...(r.category && { category: r.category }),
  };
}

export function createLocalProvider(db: Db, opts: LocalProviderOptions): SearchProvider {
  return {
    name: 'local',
    async search(q, ctx): Promise<ProviderHits> {
      const hits: ProviderHits = { unhonoured: [], warnings: [] };
      const [web, news, image] = await Promise.all([
        q.sources.includes('web') ? searchPages(db, opts, q, ctx, false) : undefined,
        q.sources.includes('news') ? searchPages(db, opts, q, ctx, true) : undefined,
        q.sources.includes('images') ? searchImages(db, opts, q, ctx) : undefined,
      ]);
      let highlights = new Map<string, string>();
      if (q.highlights) {
        try {
          highlights = await plannedTransaction(db, opts.statementTimeoutMs, (tx) => highlightsOf(tx, q, [...(web ?? []), ...(news ?? [])]));
        } catch (err) {
          // The results stand without them: a slow or failed highlight query costs only the highlights.
          hits.warnings.push(`highlights: ${(err as Error).message}`);
        }
      }
      const described = (r: PageRow) => highlights.get(`${r.crawl_id} ${r.url_key}`) ?? r.description;
      if (web) hits.web = web.map((r) => webHit(r, described(r)));
      if (news) hits.news = news.map((r) => newsHit(r, described(r)));
      if (image) hits.images = image;
      return hits;
    },
  };
}
