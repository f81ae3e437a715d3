// The conversion's part of the product and menu formats: the page's schema.org
// data read into drafts, on the parsed tree before it is cleaned. The drafts are
// plain data, copied out of the conversion thread.
import type { DocumentFormat } from '../document-schema.ts';
import { menuDraft } from '../menu/menu-from-things.ts';
import type { MenuDraft } from '../menu/menu-profile.ts';
import { productDraft } from '../product/product-from-things.ts';
import type { ProductDraft } from '../product/product-profile.ts';
import { readStructuredData } from '../structured-data/read-structured-data.ts';

export interface ProfileDrafts {
  product?: ProductDraft;
  menu?: MenuDraft;
  /** Why some of the page's structured data was not read. */
  skipped: string[];
}

/** Drafts of the profile formats asked for; undefined when none is. */
export function profileDrafts(parsed: Document, formats: ReadonlySet<DocumentFormat>, pageUrl: string): ProfileDrafts | undefined {
  const wantsProduct = formats.has('product');
  const wantsMenu = formats.has('menu');
  if (!wantsProduct && !wantsMenu) return undefined;
  const data = readStructuredData(parsed, pageUrl);
  const product = wantsProduct ? productDraft(data, pageUrl) : undefined;
  const menu = wantsMenu ? menuDraft(data, pageUrl) : undefined;
  return { ...(product && { product }), ...(menu && { menu }), skipped: data.skipped };
}
