// Extract's section of the settings (src/config.ts composes them all).
import { positiveInt } from '../../platform/config/env.ts';
import type { JobSettings } from '../../jobs/config.ts';

export function extractConfig() {
  return {
    /** URLs one POST /v2/extract may name (plain URLs and `/*` wildcards together); more is a 400. */
    maxUrls: positiveInt('EXTRACT_MAX_URLS', 10),
    /** Pages a `/*` wildcard URL of an extract crawls (its crawl job's limit). */
    maxPages: positiveInt('EXTRACT_MAX_PAGES', 10),
    /** Model calls over chunks of LLM_MAX_INPUT_CHARS one extract makes before its merge; pages beyond them are left out with a warning. */
    maxChunks: positiveInt('EXTRACT_MAX_CHUNKS', 8),
    /** How long after it was made an extract's row (its data and sources) stays readable; the scheduled purge deletes it. */
    retentionHours: positiveInt('EXTRACT_RETENTION_HOURS', 24),
  };
}

export type ExtractSettings = ReturnType<typeof extractConfig>;

/** What extract reads: its section and the job engine's (a wildcard URL runs a crawl). */
export type ExtractFeatureSettings = JobSettings & { extract: ExtractSettings };
