// The formats only a model can produce. Kept apart from scrape-options.ts so the
// conversion threads, which only need the names, load no validation code.

/** Refused without LLM_BASE_URL, and under zero data retention without LLM_IS_LOCAL. */
export const MODEL_FORMATS = ['json', 'question', 'highlights'] as const;
export type ModelFormat = (typeof MODEL_FORMATS)[number];
