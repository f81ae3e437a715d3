// What became of each page since the monitor's previous check: the status the
// change-tracking format gave it (same / changed / new), error for a page that
// failed or answered an HTTP error, and removed for a page of the previous check
// that this check no longer found. Pure.
import type { CheckPageStatus } from './monitor-request.ts';

/** A page one of the check's jobs stored. */
export interface CurrentPage {
  targetId: string;
  urlKey: string;
  url: string;
  /** The job that stored it; none for a search result. */
  jobId?: string;
  success: boolean;
  statusCode: number | null;
  error: string | null;
  /** The document's changeTracking.changeStatus, when the page has one. */
  changeStatus?: string;
  diff?: unknown;
  /** The json mode's changed fields. */
  jsonDiff?: unknown;
  /** A search target's result: same when the previous check listed it, else new. */
  searchResult?: boolean;
}

/** A page of the previous check. */
export interface PreviousPage {
  targetId: string;
  urlKey: string;
  url: string;
  status: CheckPageStatus;
  currentScrapeId: string | null;
}

export interface CheckPageRow {
  targetId: string;
  urlKey: string;
  url: string;
  status: CheckPageStatus;
  previousScrapeId: string | null;
  currentScrapeId: string | null;
  statusCode: number | null;
  error: string | null;
  diff: { text?: string; json?: unknown } | null;
}

export interface MonitorSummary {
  totalPages: number;
  same: number;
  changed: number;
  new: number;
  removed: number;
  error: number;
}

export function emptySummary(): MonitorSummary {
  return { totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 };
}

function pageStatus(page: CurrentPage, before: PreviousPage | undefined): CheckPageStatus {
  if (page.searchResult) return before && before.status !== 'removed' ? 'same' : 'new';
  if (!page.success || (page.statusCode !== null && page.statusCode >= 400)) return 'error';
  if (page.changeStatus === 'same' || page.changeStatus === 'changed') return page.changeStatus;
  return 'new';
}

function diffOf(page: CurrentPage): CheckPageRow['diff'] {
  const git = page.diff as { text?: string; json?: unknown } | undefined;
  if (git === undefined && page.jsonDiff === undefined) return null;
  // The json mode's field diff is the page's json diff; a markdown-only monitor's json is the parse-diff structure.
  return { ...(git?.text !== undefined && { text: git.text }), json: page.jsonDiff ?? git?.json };
}

const key = (p: { targetId: string; urlKey: string }) => `${p.targetId}\n${p.urlKey}`;

/** `unknownTargets`: targets this check could not look at (a refused search); their earlier pages are not reported removed. */
export function checkPageRows(current: CurrentPage[], previous: PreviousPage[], unknownTargets: ReadonlySet<string> = new Set()): CheckPageRow[] {
  const before = new Map(previous.map((p) => [key(p), p]));
  const rows: CheckPageRow[] = [];
  const seen = new Set<string>();
  for (const page of current) {
    const k = key(page);
    // A crawl stores a page once; a URL listed twice in a scrape target is one page.
    if (seen.has(k)) continue;
    seen.add(k);
    const status = pageStatus(page, before.get(k));
    rows.push({
      targetId: page.targetId,
      urlKey: page.urlKey,
      url: page.url,
      status,
      previousScrapeId: before.get(k)?.currentScrapeId ?? null,
      currentScrapeId: page.jobId ?? null,
      statusCode: page.statusCode,
      error: status === 'error' ? (page.error ?? `HTTP ${page.statusCode}`) : null,
      diff: status === 'changed' ? diffOf(page) : null,
    });
  }
  for (const page of previous) {
    // Gone once is reported once: a page already removed in the previous check is not listed again.
    if (page.status === 'removed' || seen.has(key(page)) || unknownTargets.has(page.targetId)) continue;
    rows.push({
      targetId: page.targetId,
      urlKey: page.urlKey,
      url: page.url,
      status: 'removed',
      previousScrapeId: page.currentScrapeId,
      currentScrapeId: null,
      statusCode: null,
      error: null,
      diff: null,
    });
  }
  return rows;
}

export function summarise(rows: { status: CheckPageStatus }[]): MonitorSummary {
  const summary = emptySummary();
  for (const row of rows) summary[row.status]++;
  summary.totalPages = rows.length;
  return summary;
}
