// The formats a model writes or helps write. Kept apart from scrape-options.ts so the
// conversion threads, which only need the names, load no validation code.

/** Refused without LLM_BASE_URL, and under zero data retention without LLM_IS_LOCAL. */
export const MODEL_FORMATS = ['json', 'question', 'highlights', 'query'] as const;
export type ModelFormat = (typeof MODEL_FORMATS)[number];

/**
 * Read from the page's schema.org data; a model, when the job may use one, only for what that data
 * does not state (so they need none, and are never refused for the lack of one).
 */
export const PROFILE_FORMATS = ['product', 'menu'] as const;
export type ProfileFormat = (typeof PROFILE_FORMATS)[number];

/** A format whose model call, when the model answered, adds to the page's credits. */
export type BilledModelFormat = ModelFormat | ProfileFormat;
