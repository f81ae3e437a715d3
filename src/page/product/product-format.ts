// The product format of one page: the product its structured data states
// (product-from-things.ts, read in the conversion), with a model, when the job
// may use one, for what that data leaves out, or for the whole product when it
// states none. Without a model what the SDKs require and the page does not
// state is filled from the page's title (the product's title) or as not in
// stock (a variant's availability), and the warning says so. A page without a
// product gets no `product` and a warning; the page itself never fails.
// As a format it is src/page/formats/product/product-format.ts.
import { LlmError, NO_TOKENS } from '../../platform/llm/chat-completion.ts';
import { NO_MODEL_REASON, pageName, type ProfileOutcome, type ProfilePage } from '../profiles/profile-page.ts';
import { extractProduct, fillProduct, productGaps } from './product-model.ts';
import type { ProductDraft, ProductProfile } from './product-profile.ts';

const NOT_A_PRODUCT_PAGE = 'No product found on this page; it does not appear to be a product page.';
const NO_PRODUCT_DATA = 'No product found on this page: it has no schema.org Product data (JSON-LD, microdata or RDFa)';

/** The draft made whole: gaps filled the documented way, and a sentence naming what was filled so. */
function complete(draft: ProductDraft, page: ProfilePage, why: string): { product: ProductProfile; warning?: string } {
  const gaps = productGaps(draft);
  const product: ProductProfile = {
    ...draft,
    title: draft.title ?? pageName(page.metadata, 'og:title') ?? '',
    variants: draft.variants.map((v) => ({ ...v, availability: v.availability ?? { inStock: false } })),
  };
  const filled = [
    ...(gaps.title ? [`the product's title (${product.title === '' ? 'left empty: the page has no title either' : 'the page’s title is used'})`] : []),
    ...(gaps.openVariants.length > 0
      ? [`the availability of ${gaps.openVariants.length} of the product's ${draft.variants.length} variant(s) (given as not in stock)`]
      : []),
  ];
  return { product, ...(filled.length > 0 && { warning: `The page does not state ${filled.join(' or ')}; ${why}.` }) };
}

async function withoutData(page: ProfilePage): Promise<ProfileOutcome<ProductProfile>> {
  const { llm } = page;
  if (!llm) return { warnings: [`${NO_PRODUCT_DATA}, and ${NO_MODEL_REASON}.`], usage: NO_TOKENS, answered: false };
  if (page.text.trim() === '') return { warnings: [`${NO_PRODUCT_DATA} and no text.`], usage: NO_TOKENS, answered: false };
  try {
    const { draft, usage } = await extractProduct(page.text, page.url, llm, page.fetchImpl);
    if (!draft) return { warnings: [NOT_A_PRODUCT_PAGE], usage, answered: true };
    const { product, warning } = complete(draft, page, 'the model did not find it either');
    return { value: product, warnings: warning ? [warning] : [], usage, answered: true };
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    return { warnings: [`${NO_PRODUCT_DATA}, and the model call that was to read its text failed: ${err.message}.`], usage: err.usage, answered: false };
  }
}

async function fromData(draft: ProductDraft, page: ProfilePage): Promise<ProfileOutcome<ProductProfile>> {
  const gaps = productGaps(draft);
  const open = gaps.title || gaps.openVariants.length > 0;
  const outcome = (d: ProductDraft, why: string, usage = NO_TOKENS, answered = false): ProfileOutcome<ProductProfile> => {
    const { product, warning } = complete(d, page, why);
    return { value: product, warnings: warning ? [warning] : [], usage, answered };
  };
  if (!open) return outcome(draft, '');
  if (!page.llm) return outcome(draft, NO_MODEL_REASON);
  if (page.text.trim() === '') return outcome(draft, 'the page has no text a model could read it from');
  try {
    const filled = await fillProduct(draft, page.text, page.llm, page.fetchImpl);
    return outcome(filled.draft, 'the model did not find it either', filled.usage, true);
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    return outcome(draft, `the model call that was to read it failed: ${err.message}`, err.usage);
  }
}

/** The page's `product`, its warnings, and what its model call used. */
export async function productFormat(draft: ProductDraft | undefined, page: ProfilePage): Promise<ProfileOutcome<ProductProfile>> {
  return draft ? fromData(draft, page) : withoutData(page);
}
