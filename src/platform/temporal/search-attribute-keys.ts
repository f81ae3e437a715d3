// Custom search attributes operators filter by in the Temporal UI. Workflow code
// imports this file, so it may import nothing but @temporalio/common.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const TeamIdAttribute = defineSearchAttributeKey('TeamId', SearchAttributeType.KEYWORD);
export const CrawlIdAttribute = defineSearchAttributeKey('CrawlId', SearchAttributeType.KEYWORD);
export const CrawlStatusAttribute = defineSearchAttributeKey('CrawlStatus', SearchAttributeType.KEYWORD);
export const PagesCrawledAttribute = defineSearchAttributeKey('PagesCrawled', SearchAttributeType.INT);
/** URLs still queued in the crawl's frontier, kept current while it runs (at most every CRAWL_PROGRESS_INTERVAL_MS). */
export const PagesQueuedAttribute = defineSearchAttributeKey('PagesQueued', SearchAttributeType.INT);

/** A browser session's state: starting, active, destroyed or error. */
export const SessionStatusAttribute = defineSearchAttributeKey('SessionStatus', SearchAttributeType.KEYWORD);

/** The monitor a schedule or check workflow belongs to (`monitor-<id>` schedules and their checks). */
export const MonitorIdAttribute = defineSearchAttributeKey('MonitorId', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [
  TeamIdAttribute,
  CrawlIdAttribute,
  CrawlStatusAttribute,
  PagesCrawledAttribute,
  PagesQueuedAttribute,
  SessionStatusAttribute,
  MonitorIdAttribute,
];
