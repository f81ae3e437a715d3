// Change tracking's snapshots, read and written in the transaction that stores
// the pages: a page is compared with the team's last snapshot of its URL and tag,
// and becomes the next one. Because both happen with the page row, a retried
// batch whose pages were stored finds them with their result and reuses it; one
// whose write rolled back finds the snapshot as it was. Never a page against itself.
import type { SqlTx } from '../../platform/db/sql-transactions.ts';
import { storableJson } from '../../platform/db/storable.ts';
import { trackChange, type Snapshot, type TrackedChange } from '../../page/change-tracking/track-change.ts';
import type { ChangeTracking } from '../../page/document-schema.ts';
import type { ChangeTrackingFormat } from '../../page/formats/change-tracking/change-tracking-format.ts';

/** What a page with the changeTracking format brings to the page store. */
export interface ChangeSnapshotWrite {
  teamId: string;
  /** The snapshot's key: the URL's dedup key (query kept). */
  url: string;
  /** '' when the format has no tag. */
  tag: string;
  format: Pick<ChangeTrackingFormat, 'modes'>;
  markdown: string;
  /** The json mode's fields, when they were extracted. */
  fields?: Record<string, unknown>;
}

export interface TrackedPage {
  crawlId: string;
  urlKey: string;
  changeTracking?: ChangeSnapshotWrite;
}

const keyOf = (s: { url: string; tag: string }) => JSON.stringify([s.url, s.tag]);

/** Results stored with these pages by an earlier attempt that committed. */
async function storedResults(tx: SqlTx, crawlId: string, urlKeys: string[]): Promise<Map<string, ChangeTracking>> {
  const rows = await tx.$queryRaw<{ url_key: string; change_tracking: ChangeTracking }[]>`
    SELECT url_key, document->'changeTracking' AS change_tracking FROM job_page
    WHERE job_id = ${crawlId}::uuid AND url_key = ANY(${urlKeys}::text[]) AND success AND document ? 'changeTracking'`;
  return new Map(rows.map((r) => [r.url_key, r.change_tracking]));
}

/** The snapshots of these keys, locked (in key order, so two batches never wait on each other in a cycle). */
async function lockedSnapshots(tx: SqlTx, teamId: string, keys: { url: string; tag: string }[]): Promise<Map<string, Snapshot>> {
  const rows = await tx.$queryRaw<{ url: string; tag: string; markdown: string; json: Record<string, unknown> | null; scraped_at: Date }[]>`
    SELECT url, tag, markdown, json, scraped_at FROM change_snapshot
    WHERE team_id = ${teamId}::uuid AND (url, tag) IN (SELECT * FROM unnest(${keys.map((k) => k.url)}::text[], ${keys.map((k) => k.tag)}::text[]))
    ORDER BY url, tag
    FOR UPDATE`;
  return new Map(rows.map((r) => [keyOf(r), { markdown: r.markdown, fields: r.json ?? undefined, scrapedAt: r.scraped_at }]));
}

async function writeSnapshots(tx: SqlTx, teamId: string, snapshots: Map<string, Snapshot & { url: string; tag: string }>): Promise<void> {
  const rows = [...snapshots.values()];
  await tx.$executeRaw`
    INSERT INTO change_snapshot (team_id, url, tag, markdown, json, scraped_at)
    SELECT ${teamId}::uuid, s.url, s.tag, s.markdown, s.json::jsonb, s.scraped_at
    FROM unnest(${rows.map((r) => r.url)}::text[], ${rows.map((r) => r.tag)}::text[], ${rows.map((r) => r.markdown)}::text[],
                ${rows.map((r) => (r.fields ? storableJson(r.fields).json : null))}::text[], ${rows.map((r) => r.scrapedAt)}::timestamptz[])
      AS s(url, tag, markdown, json, scraped_at)
    ON CONFLICT (team_id, url, tag) DO UPDATE SET markdown = EXCLUDED.markdown, json = EXCLUDED.json, scraped_at = EXCLUDED.scraped_at`;
}

/**
 * The change tracking result of each page (undefined for pages without the format), in order;
 * writes each tracked page as its URL's new snapshot. Pages of one transaction share a team and a
 * time; a URL twice among them is compared with itself as it was just before.
 */
export async function trackPageChanges(tx: SqlTx, pages: TrackedPage[]): Promise<(TrackedChange | undefined)[]> {
  const tracked = pages.filter((p) => p.changeTracking);
  if (tracked.length === 0) return pages.map(() => undefined);
  const stored = await storedResults(
    tx,
    tracked[0]!.crawlId,
    tracked.map((p) => p.urlKey),
  );
  const fresh = tracked.filter((p) => !stored.has(p.urlKey)).map((p) => p.changeTracking!);
  const teamId = fresh[0]?.teamId;
  const snapshots = teamId ? await lockedSnapshots(tx, teamId, fresh) : new Map<string, Snapshot>();
  const written = new Map<string, Snapshot & { url: string; tag: string }>();
  const scrapedAt = new Date();
  const results = pages.map((page): TrackedChange | undefined => {
    const write = page.changeTracking;
    if (!write) return undefined;
    const reused = stored.get(page.urlKey);
    if (reused) return { changeTracking: reused };
    const key = keyOf(write);
    const previous = snapshots.get(key);
    const result = trackChange(previous, write, write.format);
    // A failed extraction leaves the fields of the last scrape that had them.
    const next = { url: write.url, tag: write.tag, markdown: write.markdown, fields: write.fields ?? previous?.fields, scrapedAt };
    snapshots.set(key, next);
    written.set(key, next);
    return result;
  });
  if (teamId) await writeSnapshots(tx, teamId, written);
  return results;
}
