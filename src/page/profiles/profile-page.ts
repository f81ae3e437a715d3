// What the product and menu formats know of a page once it is converted, and
// what each of them gives back. Their drafts come from the conversion (the
// page's schema.org data); the rest is here.
import type { LlmSettings, TokenUsage } from '../../platform/llm/chat-completion.ts';
import type { PageMetadata } from '../document-schema.ts';

export interface ProfilePage {
  /** The page's markdown (a PDF's text), what a model reads. */
  text: string;
  /** The page's URL after redirects. */
  url: string;
  metadata: PageMetadata;
  /** The model the job may use, if any. */
  llm?: LlmSettings;
  fetchImpl?: typeof fetch;
}

export interface ProfileOutcome<T> {
  /** Absent when the page has no such thing. */
  value?: T;
  warnings: string[];
  usage: TokenUsage;
  /** Whether a model call was answered (it costs what a model format costs). */
  answered: boolean;
}

export const NO_MODEL_REASON = 'no model may read the page (LLM_BASE_URL; LLM_IS_LOCAL under zero data retention)';

/** The page's own words for a name it does not state in its data: its og: tag, else its title. */
export function pageName(metadata: PageMetadata, ogTag: string): string | undefined {
  const og = metadata[ogTag];
  const name = (typeof og === 'string' ? og : undefined) ?? metadata.title;
  return name?.trim() || undefined;
}
