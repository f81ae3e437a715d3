// The page cache behind scrapeOptions storeInCache / maxAge / minAge, shared
// by a team's crawls. It holds what the browser produced (not the finished
// document), so one cached load serves any formats and still yields links.
// The key covers every option that changes what the browser sees.
import { createHash } from 'node:crypto';
import type { ScrapeOptions } from '../../page/scrape-options.ts';
import { MODULES, requestedFormats } from '../../page/formats/registry.ts';
import type { Db } from '../../platform/db/prisma.ts';
import type { SqlTx } from '../../platform/db/sql-transactions.ts';
import { storableJson } from '../../platform/db/storable.ts';
import type { PageLoad } from '../../page/page-load.ts';

/** The formats' parts of a key: those every key holds (null when not asked for), and those of the formats asked for. */
function formatParts(so: ScrapeOptions): { always: Record<string, unknown>; asked: Record<string, unknown> } {
  const always: Record<string, unknown> = {};
  for (const { type, cacheKey } of MODULES) {
    if (!cacheKey?.alwaysInKey) continue;
    const format = so.formats.find((f) => f.type === type);
    always[type] = format ? cacheKey.value(format) : null;
  }
  const asked: Record<string, unknown> = {};
  for (const { module, format } of requestedFormats(so.formats)) {
    if (module.cacheKey && !module.cacheKey.alwaysInKey) asked[module.type] = module.cacheKey.value(format);
  }
  return { always, asked };
}

export function cacheKey(url: string, so: ScrapeOptions): string {
  const { always, asked } = formatParts(so);
  const shaping = {
    url,
    ...always,
    mobile: so.mobile,
    location: so.location ?? null,
    waitFor: so.waitFor,
    blockAds: so.blockAds,
    parsers: so.parsers,
    // Only when asked for, so the keys of every other request stay what they were.
    ...asked,
  };
  return createHash('sha256').update(JSON.stringify(shaping)).digest('hex');
}

/**
 * Pages loaded with caller-specific headers or actions are neither shared nor
 * served from the cache, and zero data retention crawls stay out of it.
 */
function cacheUsable(so: ScrapeOptions, zeroDataRetention: boolean): boolean {
  return !zeroDataRetention && !so.headers && !so.actions?.length;
}

export function cacheWritable(so: ScrapeOptions, zeroDataRetention: boolean): boolean {
  return so.storeInCache && cacheUsable(so, zeroDataRetention);
}

/**
 * minAge set: only the cache answers, with a copy at least that old (else the
 * page fails). Otherwise a copy younger than maxAge is used; maxAge 0 never reads,
 * nor does a format that a cached copy cannot serve (change tracking, which would compare a past version as the current one).
 */
export async function lookupCache(
  db: Db,
  teamId: string,
  keys: string[],
  so: ScrapeOptions,
  zeroDataRetention: boolean,
  now = new Date(),
): Promise<Map<string, PageLoad>> {
  if (!cacheUsable(so, zeroDataRetention) || keys.length === 0) return new Map();
  const createdAt =
    so.minAge !== undefined
      ? { lte: new Date(now.getTime() - so.minAge) }
      : so.maxAge > 0 && !requestedFormats(so.formats).some(({ module }) => module.bypassesCache)
        ? { gte: new Date(now.getTime() - so.maxAge) }
        : undefined;
  if (!createdAt) return new Map();
  const rows = await db.pageCache.findMany({ where: { teamId, cacheKey: { in: keys }, createdAt }, select: { cacheKey: true, document: true } });
  return new Map(rows.map((r) => [r.cacheKey, r.document as unknown as PageLoad]));
}

export interface CacheWrite {
  teamId: string;
  key: string;
  load: PageLoad;
}

/**
 * Writes copies of loads in one statement (a group of pages stored together). A key given twice
 * keeps its last copy; rows are written in key order, so that two groups never wait on each other crosswise.
 */
export async function storeInCache(db: SqlTx, copies: CacheWrite[], now = new Date()): Promise<void> {
  const writes = [...new Map(copies.map((c) => [`${c.teamId} ${c.key}`, c])).values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (writes.length === 0) return;
  await db.$executeRaw`
    INSERT INTO page_cache (team_id, cache_key, url, status_code, document, created_at)
    SELECT w.team_id, w.cache_key, w.url, w.status_code, w.document::jsonb, ${now}::timestamptz
    FROM unnest(${writes.map((w) => w.teamId)}::uuid[], ${writes.map((w) => w.key)}::text[], ${writes.map((w) => w.load.finalUrl)}::text[],
                ${writes.map((w) => w.load.statusCode)}::int[], ${writes.map((w) => storableJson(w.load).json)}::text[])
      AS w(team_id, cache_key, url, status_code, document)
    ON CONFLICT (team_id, cache_key) DO UPDATE SET
      url = EXCLUDED.url, status_code = EXCLUDED.status_code, document = EXCLUDED.document, created_at = EXCLUDED.created_at`;
}

export const NO_CACHED_DATA = 'No cached copy of this page is old enough for minAge; with minAge set the page is served from the cache only.';
