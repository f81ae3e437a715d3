// A map's settings (src/config.ts composes them all): they are read as part of the `scrape`
// section, beside the job engine's scrape settings (jobs/config.ts).
import { positiveInt } from '../../platform/config/env.ts';
import type { JobSettings } from '../../jobs/config.ts';

export function mapConfig() {
  return {
    /** Links fetched from a map's start page (before filters), so a huge page cannot flood the answer. */
    mapMaxPageLinks: positiveInt('MAP_MAX_PAGE_LINKS', 10_000),
    /** How long after its end a map's links stay in the database (they are answered once; kept for the activity log). */
    mapRetentionHours: positiveInt('MAP_RETENTION_HOURS', 24),
  };
}

export type MapSettings = ReturnType<typeof mapConfig>;

/**
 * What a map reads: its settings, the job engine's, the local index's page sharing (the search
 * feature's SEARCH_SHARE_PUBLIC_PAGES) and, as the agent's tool, the agent's tool timeout.
 */
export type MapFeatureSettings = JobSettings & {
  scrape: MapSettings;
  search: { sharePublicPages: boolean };
  agent: { toolTimeoutMs: number };
};
