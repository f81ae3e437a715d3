// The product format: the page's product from its schema.org data (drafted in
// the conversion), a model filling what it leaves out (product/product-format.ts).
import { z } from 'zod';
import { MODEL_FORMAT_CREDITS } from '../../../platform/usage/credits.ts';
import { productFormat as completeProduct } from '../../product/product-format.ts';
import { productDraft } from '../../product/product-from-things.ts';
import type { ProductDraft } from '../../product/product-profile.ts';
import { defineFormat } from '../format-module.ts';

export const productFormat = defineFormat({
  type: 'product',
  schema: z.strictObject({ type: z.literal('product') }),
  needs: 'text',
  profile: {
    draft: productDraft,
    run: (draft, page) => completeProduct(draft as ProductDraft | undefined, page),
  },
  // Only when its model call was answered.
  answerCredits: MODEL_FORMAT_CREDITS,
});
