// The product and menu formats of one page, once it is converted: both at once,
// their fields, warnings and model tokens gathered for the document and the
// page's ledger row (product-format.ts, menu-format.ts).
import { addUsage, NO_TOKENS, type TokenUsage } from '../../platform/llm/chat-completion.ts';
import type { DocumentFormat } from '../document-schema.ts';
import { menuFormat } from '../menu/menu-format.ts';
import type { MenuProfile } from '../menu/menu-profile.ts';
import type { ProfileFormat } from '../model-formats/format-names.ts';
import { productFormat } from '../product/product-format.ts';
import type { ProductProfile } from '../product/product-profile.ts';
import type { ProfileDrafts } from './profile-drafts.ts';
import type { ProfilePage } from './profile-page.ts';

export interface ProfileFormatsResult {
  fields: { product?: ProductProfile; menu?: MenuProfile };
  warnings: string[];
  usage: TokenUsage;
  /** The formats whose model call was answered (charged as model formats). */
  answered: ProfileFormat[];
}

/** `drafts` is undefined for a page without HTML (a PDF): its text is all a model can read. */
export async function runProfileFormats(
  formats: readonly DocumentFormat[],
  drafts: ProfileDrafts | undefined,
  input: ProfilePage,
): Promise<ProfileFormatsResult> {
  const result: ProfileFormatsResult = { fields: {}, warnings: [], usage: NO_TOKENS, answered: [] };
  const [product, menu] = await Promise.all([
    formats.includes('product') ? productFormat(drafts?.product, input) : undefined,
    formats.includes('menu') ? menuFormat(drafts?.menu, input) : undefined,
  ]);
  const skipped = drafts?.skipped ?? [];
  if (skipped.length > 0 && (product || menu)) result.warnings.push(`Some of the page's structured data was not read: ${skipped.join('; ')}.`);
  for (const [type, outcome] of [
    ['product', product],
    ['menu', menu],
  ] as const) {
    if (!outcome) continue;
    if (outcome.value) Object.assign(result.fields, { [type]: outcome.value });
    result.warnings.push(...outcome.warnings);
    result.usage = addUsage(result.usage, outcome.usage);
    if (outcome.answered) result.answered.push(type);
  }
  return result;
}
