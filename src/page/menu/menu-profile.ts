// The document's `menu` field: the SDKs' MenuProfile (JS index.d.ts, Python
// firecrawl/v2/types.py), the one source of its type and OpenAPI schema. What
// the page's structured data gives is a draft: the same shape with the
// merchant's name, which the SDKs require, possibly missing.
import { z } from 'zod';
import { availabilitySchema, imageSchema, priceSchema } from '../product/product-profile.ts';

const menuItemSchema = z.object({
  id: z.string().describe('Unique within the menu: "section-<n>-item-<m>".'),
  name: z.string(),
  description: z.string().optional(),
  images: z.array(imageSchema),
  price: priceSchema.optional(),
  availability: availabilitySchema,
  dietary: z.array(z.string()).describe('e.g. "vegan", "gluten-free" (schema.org suitableForDiet).'),
  calories: z.number().optional(),
  optionGroups: z.array(z.unknown()).describe('Add-ons (schema.org menuAddOn): {name, options: [{name, price?}]}.'),
  identifiers: z.object({ merchantItemId: z.string().optional() }),
  url: z.string().optional(),
  sourceUrl: z.string(),
});

const menuSectionSchema = z.object({
  id: z.string().describe('"section-<n>", in page order.'),
  name: z.string(),
  description: z.string().optional(),
  items: z.array(menuItemSchema),
});

const merchantSchema = z.object({
  name: z.string(),
  type: z.string().nullable().optional().describe('The schema.org type, e.g. "Restaurant".'),
  location: z.unknown().optional().describe('{address?, latitude?, longitude?}'),
});

export const menuProfileSchema = z.object({
  isMenu: z.boolean(),
  confidence: z.number().describe('1 when the page’s structured data states the menu; the model’s own estimate (0 to 1) otherwise.'),
  merchant: merchantSchema,
  currency: z.string().nullable().optional(),
  sections: z.array(menuSectionSchema),
  sourceUrl: z.string(),
});

export type MenuProfile = z.infer<typeof menuProfileSchema>;
export type MenuSection = z.infer<typeof menuSectionSchema>;
export type MenuItem = z.infer<typeof menuItemSchema>;
export type MenuMerchant = z.infer<typeof merchantSchema>;

export type MenuDraft = Omit<MenuProfile, 'merchant'> & {
  merchant: Omit<MenuMerchant, 'name'> & { name?: string };
};

/** Most sections kept. */
export const MAX_MENU_SECTIONS = 200;
/** Most items kept, all sections together. */
export const MAX_MENU_ITEMS = 2000;
/** Most images kept per item. */
export const MAX_MENU_ITEM_IMAGES = 10;

export function sectionId(section: number): string {
  return `section-${section + 1}`;
}

export function itemId(section: number, item: number): string {
  return `${sectionId(section)}-item-${item + 1}`;
}
