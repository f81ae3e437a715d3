// A crawl row is one job of the crawl pipeline: a crawl, a batch scrape (URLs given, no
// discovery) or a single scrape (one URL, answered synchronously). All three share the
// workflow, the frontier, the page store and the kill -9 guarantees; this module holds the
// few names that differ between them.
import type { Charge } from '../platform/usage/credits.ts';

export const JOB_KINDS = ['crawl', 'batch_scrape', 'scrape'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** The kind column holds only JOB_KINDS values (every row is created by commitJob). */
export function jobKind(row: { kind: string }): JobKind {
  return row.kind as JobKind;
}

/** The spec's activity endpoint name, under which the job's pages are charged. */
export function chargeEndpoint(kind: JobKind): Charge['endpoint'] {
  return kind;
}

/** Whether pages of the job add the links they hold to its frontier. */
export function discoversLinks(kind: JobKind): boolean {
  return kind === 'crawl';
}
