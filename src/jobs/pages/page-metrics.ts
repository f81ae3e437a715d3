// Pages as the page store writes them: a page row counts once, when it is
// inserted, so a retried batch that writes the same page again adds nothing.
import { counter, DURATION_BUCKETS, histogram } from '../../platform/metrics/registry.ts';
import { failureReason } from './failure-reason.ts';
import type { JobKind } from '../job-kind.ts';

/** How a stored page was loaded: a cached copy, an HTTP fetch, Chromium, or a file fetch (PDFs). */
export type LoadPath = 'cache' | 'http' | 'browser' | 'file';

const stored = counter({
  name: 'pages_stored_total',
  help: 'Pages stored with their document, by job kind and by how they were loaded (cache, http, browser, file)',
  labelNames: ['kind', 'path'],
});

const failed = counter({
  name: 'pages_failed_total',
  help: 'Pages stored as failed, by job kind and reason class',
  labelNames: ['kind', 'reason'],
});

const loadDuration = histogram({
  name: 'page_load_duration_seconds',
  help: 'Time to load a page that was then stored (fetch or navigation to captured page, no slot wait), by path (http, browser, file)',
  labelNames: ['path'],
  buckets: DURATION_BUCKETS,
});

export function observePageLoad(path: LoadPath, ms: number): void {
  loadDuration.observe({ path }, ms / 1000);
}

export function countStoredPages(kind: JobKind, paths: LoadPath[]): void {
  for (const path of paths) stored.inc({ kind, path });
}

export function countFailedPage(kind: JobKind, error: string): void {
  failed.inc({ kind, reason: failureReason(error) });
}
