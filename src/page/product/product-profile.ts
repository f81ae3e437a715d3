// The document's `product` field: the SDKs' ProductProfile (JS index.d.ts,
// Python firecrawl/v2/types.py), the one source of its type and OpenAPI schema.
// What the page's structured data gives before any model is a draft: the same
// shape with the fields the SDKs require but the page may not state left open.
import { z } from 'zod';

export const priceSchema = z.object({
  amount: z.number(),
  currency: z.string().optional().describe('ISO 4217 code, as the page gives it.'),
  formatted: z.string().optional().describe('The amount written in the currency, e.g. "$49.99".'),
});

export const availabilitySchema = z.object({
  inStock: z.boolean(),
  text: z.string().optional().describe('What the page says, e.g. "In stock", "Pre-order".'),
});

export const imageSchema = z.object({ url: z.string(), alt: z.string().optional() });

const variantSchema = z.object({
  id: z.string().optional(),
  sku: z.string().optional(),
  title: z.string().optional(),
  values: z.record(z.string(), z.string()).optional().describe('What sets the variant apart, e.g. {"color": "Blue", "size": "M"}.'),
  price: priceSchema.optional(),
  sale: z.object({ originalPrice: priceSchema }).optional().describe('When the price undercuts a list price the page states.'),
  availability: availabilitySchema,
  images: z.array(imageSchema).optional(),
});

export const productProfileSchema = z.object({
  title: z.string(),
  brand: z.string().optional(),
  category: z.string().optional(),
  url: z.string(),
  description: z.string().optional(),
  variants: z.array(variantSchema),
});

export type ProductProfile = z.infer<typeof productProfileSchema>;
export type ProductVariant = z.infer<typeof variantSchema>;
export type ProductPrice = z.infer<typeof priceSchema>;

export type VariantDraft = Omit<ProductVariant, 'availability'> & { availability?: ProductVariant['availability'] };

/** The product as the page's structured data states it; `title` and variants' `availability` may be missing. */
export type ProductDraft = Omit<ProductProfile, 'title' | 'variants'> & {
  title?: string;
  variants: VariantDraft[];
};

/** Most variants kept; a product listing more is cut at this many, in page order. */
export const MAX_VARIANTS = 500;
/** Most images kept per variant. */
export const MAX_VARIANT_IMAGES = 20;
