// The page's product from its schema.org data: JSON-LD first, microdata and
// RDFa when there is none. A ProductGroup's hasVariant products are its
// variants; otherwise each offer is one (an AggregateOffer's listed offers, or
// the AggregateOffer itself with its lowPrice). Products in listings and
// related products are not the page's product.
import { absoluteWebUrl, imagesOf, offerAvailability, offerPrice, offersOf } from '../structured-data/offer-terms.ts';
import type { StructuredData } from '../structured-data/read-structured-data.ts';
import { findThings, termsOf, textOf, thingsOf, type Thing, type ThingGraph } from '../structured-data/things.ts';
import { MAX_VARIANT_IMAGES, MAX_VARIANTS, type ProductDraft, type VariantDraft } from './product-profile.ts';

const PRODUCT_TYPES = new Set(['Product', 'ProductGroup', 'ProductModel', 'IndividualProduct', 'SomeProducts']);

/** Properties through which a page names products that are not its own. */
const OTHER_PRODUCTS = new Set([
  'itemListElement',
  'isRelatedTo',
  'isSimilarTo',
  'isAccessoryOrSparePartFor',
  'isConsumableFor',
  'isVariantOf',
  'hasVariant',
  'review',
  'itemReviewed',
]);

/** What a variant differs by when its group does not say (variesBy). */
const COMMON_VARIANT_PROPERTIES = ['color', 'size', 'material', 'pattern'];

type Images = { url: string; alt?: string }[];

function withImages(variant: VariantDraft, images: Images): VariantDraft {
  return images.length > 0 ? { ...variant, images } : variant;
}

function offerVariant(graph: ThingGraph, offer: Thing): VariantDraft {
  const { price, originalPrice } = offerPrice(graph, offer);
  const availability = offerAvailability(offer);
  const sku = textOf(graph, offer, 'sku');
  const title = textOf(graph, offer, 'name');
  return {
    ...(sku && { sku }),
    ...(title && { title }),
    ...(price && { price }),
    ...(originalPrice && { sale: { originalPrice } }),
    ...(availability && { availability }),
  };
}

function productId(graph: ThingGraph, product: Thing): string | undefined {
  return textOf(graph, product, 'productID') ?? textOf(graph, product, 'gtin') ?? textOf(graph, product, 'gtin13') ?? textOf(graph, product, 'gtin12');
}

/** A ProductGroup's variant: its own offer, and the values it differs by. */
function groupVariant(graph: ThingGraph, variant: Thing, variesBy: string[], fallbackImages: Images, baseUrl: string): VariantDraft {
  const offer = offersOf(graph, variant)[0];
  const fromOffer = offer ? offerVariant(graph, offer) : {};
  // fromEntries: the property names are the page's, "__proto__" included.
  const values: Record<string, string> = Object.fromEntries(
    (variesBy.length > 0 ? variesBy : COMMON_VARIANT_PROPERTIES).flatMap((prop) => {
      const value = textOf(graph, variant, prop);
      return value === undefined ? [] : [[prop, value]];
    }),
  );
  const id = productId(graph, variant);
  const sku = textOf(graph, variant, 'sku') ?? fromOffer.sku;
  const title = textOf(graph, variant, 'name') ?? fromOffer.title;
  const images = imagesOf(graph, variant, baseUrl, MAX_VARIANT_IMAGES);
  return withImages(
    {
      ...fromOffer,
      ...(id && { id }),
      ...(sku && { sku }),
      ...(title && { title }),
      ...(Object.keys(values).length > 0 && { values }),
    },
    images.length > 0 ? images : fallbackImages,
  );
}

function variantsOf(graph: ThingGraph, product: Thing, images: Images, baseUrl: string): VariantDraft[] {
  // A reference the page never resolves names no variant.
  const variants = thingsOf(graph, product, 'hasVariant').filter((v) => v.props.size > 0);
  if (variants.length > 0) {
    const variesBy = termsOf(product, 'variesBy');
    return variants.slice(0, MAX_VARIANTS).map((v) => groupVariant(graph, v, variesBy, images, baseUrl));
  }
  const offers = offersOf(graph, product).slice(0, MAX_VARIANTS);
  const id = productId(graph, product);
  const sku = textOf(graph, product, 'sku');
  return offers.map((offer) => {
    const variant = offerVariant(graph, offer);
    // A single offer is the product itself: it takes the product's identifiers.
    const own = offers.length === 1 ? { ...(id && { id }), ...(!variant.sku && sku && { sku }) } : {};
    return withImages({ ...variant, ...own }, images);
  });
}

function productFrom(graph: ThingGraph, product: Thing, pageUrl: string): ProductDraft {
  const images = imagesOf(graph, product, pageUrl, MAX_VARIANT_IMAGES);
  const title = textOf(graph, product, 'name');
  const brand = textOf(graph, product, 'brand') ?? textOf(graph, product, 'manufacturer');
  const category = textOf(graph, product, 'category');
  const description = textOf(graph, product, 'description');
  return {
    ...(title && { title }),
    ...(brand && { brand }),
    ...(category && { category }),
    url: absoluteWebUrl(textOf(graph, product, 'url'), pageUrl) ?? pageUrl,
    ...(description && { description }),
    variants: variantsOf(graph, product, images, pageUrl),
  };
}

function pageProduct(graph: ThingGraph): Thing | undefined {
  const candidates = findThings(graph, PRODUCT_TYPES, OTHER_PRODUCTS);
  return candidates.find((t) => t.types.includes('ProductGroup')) ?? candidates[0];
}

/** The page's product as its structured data states it, or undefined when it states none. */
export function productDraft(data: StructuredData, pageUrl: string): ProductDraft | undefined {
  const fromJsonLd = pageProduct(data.jsonLd);
  if (fromJsonLd) return productFrom(data.jsonLd, fromJsonLd, pageUrl);
  const fromMicrodata = pageProduct(data.microdata);
  return fromMicrodata && productFrom(data.microdata, fromMicrodata, pageUrl);
}
