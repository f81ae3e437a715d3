// A page against the team's previous snapshot of it: its status, and in
// git-diff mode the diff of the markdown, in json mode the fields that changed.
// Pure: the page store reads and writes the snapshot around it, in the page's
// own transaction.
import type { ChangeTracking } from '../document-schema.ts';
import type { ChangeTrackingFormat } from '../formats/change-tracking/change-tracking-format.ts';
import { compareFields } from './compare-fields.ts';
import { unifiedDiff } from './unified-diff.ts';

/**
 * Markdown longer than this (characters or lines) on either side gets a status but no diff, and a
 * warning: the diff runs inside the page's transaction and must stay a matter of milliseconds. Its
 * cost grows with lines × MAX_DIFF_EDIT_LINES; at these bounds it is about 100 ms at worst.
 */
export const MAX_DIFF_MARKDOWN_CHARS = 500_000;
export const MAX_DIFF_MARKDOWN_LINES = 10_000;
/** Past this many differing lines the diff shows the changed region as one removal and one addition. */
export const MAX_DIFF_EDIT_LINES = 1000;

export interface Snapshot {
  markdown: string;
  /** The json mode's fields, when that scrape extracted them. */
  fields?: Record<string, unknown>;
  scrapedAt: Date;
}

export interface CurrentVersion {
  markdown: string;
  fields?: Record<string, unknown>;
}

export interface TrackedChange {
  changeTracking: ChangeTracking;
  warning?: string;
}

export const DIFF_TOO_LARGE_WARNING = `The page's markdown (or its previous version) is over ${MAX_DIFF_MARKDOWN_CHARS} characters or ${MAX_DIFF_MARKDOWN_LINES} lines: changeTracking has its status but no diff.`;

function tooLargeToDiff(markdown: string): boolean {
  if (markdown.length > MAX_DIFF_MARKDOWN_CHARS) return true;
  // Counted as the diff splits them: a final newline ends the last line.
  let lines = markdown.endsWith('\n') ? 0 : 1;
  for (let i = markdown.indexOf('\n'); i !== -1; i = markdown.indexOf('\n', i + 1)) if (++lines > MAX_DIFF_MARKDOWN_LINES) return true;
  return false;
}

/** A page with no snapshot to compare with (the first scrape, or a zero-data-retention job). */
export function newPage(): ChangeTracking {
  return { previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' };
}

export function trackChange(previous: Snapshot | undefined, current: CurrentVersion, format: Pick<ChangeTrackingFormat, 'modes'>): TrackedChange {
  if (!previous) return { changeTracking: newPage() };
  const base = { previousScrapeAt: previous.scrapedAt.toISOString(), visibility: 'visible' as const };
  if (previous.markdown === current.markdown) return { changeTracking: { ...base, changeStatus: 'same' } };
  const changeTracking: ChangeTracking = { ...base, changeStatus: 'changed' };
  let warning: string | undefined;
  if (format.modes.includes('git-diff')) {
    if (tooLargeToDiff(previous.markdown) || tooLargeToDiff(current.markdown)) warning = DIFF_TOO_LARGE_WARNING;
    else changeTracking.diff = unifiedDiff(previous.markdown, current.markdown, MAX_DIFF_EDIT_LINES);
  }
  if (format.modes.includes('json') && previous.fields && current.fields) changeTracking.json = compareFields(previous.fields, current.fields);
  return { changeTracking, ...(warning && { warning }) };
}
