// The profile formats of one page (product, menu: a format module with
// `profile`), once it is converted: all at once, their fields, warnings and
// model tokens gathered for the document and the page's ledger row.
import { addUsage, NO_TOKENS, type TokenUsage } from '../../platform/llm/chat-completion.ts';
import type { DocumentPart } from '../formats/format-module.ts';
import { requestedFormats, type ScrapeFormat } from '../formats/registry.ts';
import type { ProfileDrafts } from './profile-drafts.ts';
import type { ProfilePage } from './profile-page.ts';

export interface ProfileFormatsResult {
  fields: DocumentPart;
  warnings: string[];
  usage: TokenUsage;
  /** The formats whose model call was answered (charged as model formats). */
  answered: string[];
}

/** `drafts` is undefined for a page without HTML (a PDF): its text is all a model can read. */
export async function runProfileFormats(
  formats: readonly ScrapeFormat[],
  drafts: ProfileDrafts | undefined,
  input: ProfilePage,
): Promise<ProfileFormatsResult> {
  const result: ProfileFormatsResult = { fields: {}, warnings: [], usage: NO_TOKENS, answered: [] };
  const profiles = requestedFormats(formats).flatMap(({ module }) => (module.profile ? [{ type: module.type, profile: module.profile }] : []));
  const outcomes = await Promise.all(profiles.map(({ type, profile }) => profile.run(drafts?.[type], input)));
  const skipped = drafts?.skipped ?? [];
  if (skipped.length > 0 && outcomes.length > 0) result.warnings.push(`Some of the page's structured data was not read: ${skipped.join('; ')}.`);
  outcomes.forEach((outcome, i) => {
    const { type } = profiles[i]!;
    if (outcome.value) Object.assign(result.fields, { [type]: outcome.value });
    result.warnings.push(...outcome.warnings);
    result.usage = addUsage(result.usage, outcome.usage);
    if (outcome.answered) result.answered.push(type);
  });
  return result;
}
