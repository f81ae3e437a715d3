// The settings this feature reads; it has no section of its own (src/config.ts composes them all).
import type { JobSettings } from '../../jobs/config.ts';
import type { ActivityLogSettings } from '../../platform/http/config.ts';
import type { IdempotencySettings } from '../../platform/http/idempotency.ts';

/** What the purge reads: the retention of everything it deletes, each set by the section of what it keeps. */
export type RetentionFeatureSettings = JobSettings & {
  activityLog: ActivityLogSettings;
  idempotency: IdempotencySettings;
  scrape: { mapRetentionHours: number };
};
