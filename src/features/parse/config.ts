// Parse's section of the settings (src/config.ts composes them all).
import { MB, positiveInt } from '../../platform/config/env.ts';
import type { JobSettings } from '../../jobs/config.ts';

export function parseConfig() {
  return {
    /** Largest file POST /v2/parse accepts; the upload is cut off (413) as soon as it passes this. */
    maxFileBytes: positiveInt('PARSE_MAX_FILE_BYTES', 50 * MB),
    /** Upload bytes one gateway holds at once (read, waiting for a slot, converting); beyond it a parse is a 503. */
    maxInflightBytes: positiveInt('PARSE_MAX_INFLIGHT_BYTES', 200 * MB),
    /** Largest total a DOCX's zip entries may inflate to (a zip bomb is refused before it is unpacked). */
    maxUnpackedBytes: positiveInt('PARSE_MAX_UNPACKED_BYTES', 200 * MB),
    /** Threads of the gateway that convert uploads beside its event loop (started on the first upload). */
    conversionThreads: positiveInt('PARSE_CONVERSION_THREADS', 1),
    /** Longest one upload's conversion may take; its thread is then replaced and the request fails (422). */
    conversionTimeoutMs: positiveInt('PARSE_CONVERSION_TIMEOUT_MS', 60_000),
  };
}

export type ParseSettings = ReturnType<typeof parseConfig>;

/** What parse reads: its section and the job engine's (an upload is stored as a scrape's page). */
export type ParseFeatureSettings = JobSettings & { parse: ParseSettings };
