// The pages an extract's jobs stored, as the model is given them: in the order the
// request named them, the failed ones left out and named in the warning. Pure.
import type { PageText } from './extract-with-model.ts';

/** Failed pages named one by one in the warning; the rest are counted. */
const NAMED_FAILURES = 5;

/** A page a job stored, its markdown clipped to what the model may read. */
export interface PageRow {
  url: string;
  success: boolean;
  error: string | null;
  markdown: string | null;
}

/** The pages in the order the request named them (a batch stores them as they finish), a crawl's after them as stored. */
export function inRequestOrder(rows: PageRow[], urls: string[]): PageRow[] {
  const position = (url: string) => {
    const i = urls.indexOf(url);
    return i === -1 ? urls.length : i;
  };
  return [...rows].sort((a, b) => position(a.url) - position(b.url));
}

/** The text the model reads: the pages that were fetched and have markdown. */
export function pageTexts(rows: PageRow[]): PageText[] {
  return rows.filter((r) => r.success && r.markdown).map((r) => ({ url: r.url, markdown: r.markdown! }));
}

export function failedPagesWarning(failed: PageRow[]): string {
  const named = failed.slice(0, NAMED_FAILURES).map((r) => `${r.url} (${r.error ?? 'failed'})`);
  const more = failed.length > NAMED_FAILURES ? ` and ${failed.length - NAMED_FAILURES} more` : '';
  return `${failed.length} page(s) could not be fetched and were left out: ${named.join('; ')}${more}.`;
}

/** The extract's warnings before the model answers: the commit's (URLs that could not be seeded), web search's, the failed pages. */
export function pageWarnings(committed: string | null, enableWebSearch: boolean | undefined, failed: PageRow[]): string[] {
  return [
    ...(committed ? [committed] : []),
    ...(enableWebSearch ? ['Web search is not used by this service: only the given URLs were read (enableWebSearch is ignored).'] : []),
    ...(failed.length > 0 ? [failedPagesWarning(failed)] : []),
  ];
}

/** The error of an extract none of whose pages could be given to the model. */
export function noPagesError(rows: PageRow[]): string {
  const failed = rows.filter((r) => !r.success);
  return rows.length === 0 ? 'No page could be fetched from the given URLs.' : `No page could be fetched: ${failedPagesWarning(failed)}`;
}
