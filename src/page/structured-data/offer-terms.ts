// What schema.org offers say about price and availability, as the SDKs' price
// and availability objects (shared by the product and menu formats). Prices are
// read as pages write them ("49.99", 49.99, "$1,299.00", "1.299,00").
import { resolve, termsOf, textOf, thingsOf, valuesOf, type Thing, type ThingGraph } from './things.ts';

export interface Price {
  amount: number;
  currency?: string;
  formatted?: string;
}

export interface Availability {
  inStock: boolean;
  text?: string;
}

/** schema.org ItemAvailability members, with the text a shopper reads and whether the item can be had now. */
const AVAILABILITY: Record<string, Availability> = {
  InStock: { inStock: true, text: 'In stock' },
  LimitedAvailability: { inStock: true, text: 'Limited availability' },
  OnlineOnly: { inStock: true, text: 'Online only' },
  InStoreOnly: { inStock: true, text: 'In store only' },
  OutOfStock: { inStock: false, text: 'Out of stock' },
  SoldOut: { inStock: false, text: 'Sold out' },
  Discontinued: { inStock: false, text: 'Discontinued' },
  PreOrder: { inStock: false, text: 'Pre-order' },
  PreSale: { inStock: false, text: 'Pre-sale' },
  BackOrder: { inStock: false, text: 'Back order' },
  MadeToOrder: { inStock: false, text: 'Made to order' },
  Reserved: { inStock: false, text: 'Reserved' },
};
const AVAILABILITY_BY_KEY = new Map(Object.entries(AVAILABILITY).map(([term, a]) => [term.toLowerCase(), a]));

/** Price types of a list price that a sale price is compared with. */
const ORIGINAL_PRICE_TYPES = new Set(['StrikethroughPrice', 'ListPrice', 'MSRP', 'SRP']);

const CURRENCY = /^[A-Za-z]{3}$/;

/** A price as pages write it, or undefined when it is no non-negative number. */
export function parseAmount(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  // The first number in it ("from 49.99 to 59.99" is 49.99); a price is short, so the rest of a long value is not looked at.
  const raw = /\d[\d.,]*/.exec(text.slice(0, 64))?.[0].replace(/[.,]+$/, '');
  if (raw === undefined) return undefined;
  const lastDot = raw.lastIndexOf('.');
  const lastComma = raw.lastIndexOf(',');
  let normalized: string;
  if (lastDot >= 0 && lastComma >= 0) {
    // Both: the later one separates the decimals.
    normalized = lastDot > lastComma ? raw.replace(/,/g, '') : raw.replace(/\./g, '').replace(',', '.');
  } else if (lastComma >= 0) {
    const decimals = raw.length - lastComma - 1;
    normalized = raw.split(',').length === 2 && decimals > 0 && decimals <= 2 ? raw.replace(',', '.') : raw.replace(/,/g, '');
  } else {
    normalized = raw.split('.').length > 2 ? raw.replace(/\./g, '') : raw;
  }
  const amount = Number(normalized);
  return Number.isFinite(amount) && amount >= 0 ? amount : undefined;
}

export function currencyCode(text: string | undefined): string | undefined {
  const code = text?.trim();
  return code && CURRENCY.test(code) ? code.toUpperCase() : undefined;
}

export function formatPrice(amount: number, currency: string | undefined): string | undefined {
  if (!currency) return undefined;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
  } catch {
    return undefined;
  }
}

export function makePrice(amount: number, currency: string | undefined): Price {
  const formatted = formatPrice(amount, currency);
  return { amount, ...(currency && { currency }), ...(formatted && { formatted }) };
}

/** An ItemAvailability term (an IRI, a prefixed or bare name, or words like "in stock"), or undefined for anything else. */
export function availabilityOfTerm(term: string): Availability | undefined {
  const found = AVAILABILITY_BY_KEY.get(term.replace(/[\s_-]/g, '').toLowerCase());
  return found && { ...found };
}

export function offerAvailability(offer: Thing): Availability | undefined {
  for (const term of termsOf(offer, 'availability')) {
    const found = availabilityOfTerm(term);
    if (found) return found;
  }
  return undefined;
}

export interface OfferPrice {
  price?: Price;
  /** The list price when the offer's price is below it. */
  originalPrice?: Price;
}

/** An offer's price: `price` (or an AggregateOffer's `lowPrice`), else its price specifications, and a list price it undercuts. */
export function offerPrice(graph: ThingGraph, offer: Thing): OfferPrice {
  const offerCurrency = currencyCode(textOf(graph, offer, 'priceCurrency'));
  let amount = parseAmount(textOf(graph, offer, 'price')) ?? parseAmount(textOf(graph, offer, 'lowPrice'));
  let currency = offerCurrency;
  let original: { amount: number; currency?: string } | undefined;
  for (const spec of thingsOf(graph, offer, 'priceSpecification')) {
    const specAmount = parseAmount(textOf(graph, spec, 'price'));
    if (specAmount === undefined) continue;
    const specCurrency = currencyCode(textOf(graph, spec, 'priceCurrency')) ?? offerCurrency;
    if (termsOf(spec, 'priceType').some((t) => ORIGINAL_PRICE_TYPES.has(t))) {
      original ??= { amount: specAmount, currency: specCurrency };
    } else if (amount === undefined) {
      amount = specAmount;
      currency = specCurrency;
    }
  }
  if (amount === undefined) return {};
  const price = makePrice(amount, currency);
  const undercut = original && original.amount > amount && (original.currency ?? currency) === currency;
  return { price, ...(undercut && { originalPrice: makePrice(original!.amount, currency) }) };
}

/** The offers a thing carries, an AggregateOffer standing for the offers it lists (itself when it lists none). */
export function offersOf(graph: ThingGraph, thing: Thing): Thing[] {
  return thingsOf(graph, thing, 'offers').flatMap((offer) => {
    const inner = offer.types.includes('AggregateOffer') ? thingsOf(graph, offer, 'offers') : [];
    return inner.length > 0 ? inner : [offer];
  });
}

/** Image URLs (absolute http(s)) a thing names in `image`, with their captions. */
export function imagesOf(graph: ThingGraph, thing: Thing, baseUrl: string, max: number): { url: string; alt?: string }[] {
  const images: { url: string; alt?: string }[] = [];
  const seen = new Set<string>();
  for (const value of valuesOf(thing, 'image')) {
    let raw: string | undefined;
    let alt: string | undefined;
    if (typeof value === 'string') raw = value;
    else {
      const image = resolve(graph, value);
      raw = textOf(graph, image, 'contentUrl') ?? textOf(graph, image, 'url') ?? image.id;
      alt = textOf(graph, image, 'caption') ?? textOf(graph, image, 'name');
    }
    const url = absoluteWebUrl(raw, baseUrl);
    if (!url || seen.has(url)) continue;
    seen.add(url);
    images.push({ url, ...(alt && { alt }) });
    if (images.length >= max) break;
  }
  return images;
}

/** Longest URL kept in a profile. */
const MAX_URL_CHARS = 8192;

export function absoluteWebUrl(raw: string | undefined, baseUrl: string): string | undefined {
  const trimmed = raw?.trim();
  if (!trimmed || trimmed.length > MAX_URL_CHARS) return undefined;
  const url = URL.parse(trimmed, baseUrl);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.href : undefined;
}
