// The model's part of the product format: reading a product out of a page that
// states none in its structured data, or filling in what its structured data
// leaves out (the title, variants' availability, and then also brand, category
// and description where missing). The page, and what its data lists, go in the
// user message: they are the page's words, data, never instructions.
import type { LlmSettings, TokenUsage } from '../../platform/llm/chat-completion.ts';
import type { JsonSchema } from '../../platform/llm/json-schema.ts';
import { askModel } from '../model-formats/page-as-data.ts';
import { currencyCode, makePrice, parseAmount } from '../structured-data/offer-terms.ts';
import { cleanText } from '../structured-data/things.ts';
import { MAX_VARIANTS, type ProductDraft, type VariantDraft } from './product-profile.ts';

/** Most variants whose availability one call asks for (the listing must fit beside the page). */
export const MAX_VARIANTS_ASKED = 50;

const TEXT = { type: 'string' };

const AVAILABILITY_SCHEMA = {
  type: 'object',
  properties: { inStock: { type: 'boolean' }, text: TEXT },
  required: ['inStock'],
  additionalProperties: false,
};

const EXTRACT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    isProduct: { type: 'boolean' },
    title: TEXT,
    brand: TEXT,
    category: TEXT,
    description: TEXT,
    variants: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          title: TEXT,
          sku: TEXT,
          options: {
            type: 'array',
            items: { type: 'object', properties: { name: TEXT, value: TEXT }, required: ['name', 'value'], additionalProperties: false },
          },
          price: { type: 'number' },
          currency: TEXT,
          originalPrice: { type: 'number' },
          inStock: { type: 'boolean' },
          availability: TEXT,
        },
        required: ['inStock'],
        additionalProperties: false,
      },
    },
  },
  required: ['isProduct'],
  additionalProperties: false,
};

const EXTRACT_TASK = [
  'You read a web page and tell whether it is a product page: one product offered for sale, possibly in variants (sizes, colours...). A listing of many products, an article or a home page is not.',
  'If it is not, reply {"isProduct": false}.',
  'If it is, reply with isProduct true and the product: title (its name), brand, category, description, and its variants, each with its title, sku, options (what sets it apart, as name/value pairs), price (a number), currency (ISO 4217 code), originalPrice (a list price it undercuts, if stated), inStock (whether it can be bought now) and availability (the page’s words about it). A product without variants is one variant.',
  'Use only what the page states; leave out any field it does not state (except inStock).',
].join('\n');

interface ExtractAnswer {
  isProduct: boolean;
  title?: string;
  brand?: string;
  category?: string;
  description?: string;
  variants?: {
    title?: string;
    sku?: string;
    options?: { name: string; value: string }[];
    price?: number;
    currency?: string;
    originalPrice?: number;
    inStock: boolean;
    availability?: string;
  }[];
}

function amount(value: number | undefined): number | undefined {
  return value === undefined ? undefined : parseAmount(String(value));
}

function modelVariant(v: NonNullable<ExtractAnswer['variants']>[number]): VariantDraft {
  const currency = currencyCode(v.currency);
  const price = amount(v.price);
  const original = amount(v.originalPrice);
  const values = Object.fromEntries(
    (v.options ?? []).map((o) => [cleanText(o.name, 200), cleanText(o.value, 200)] as const).filter((e): e is [string, string] => !!e[0] && !!e[1]),
  );
  const title = cleanText(v.title);
  const sku = cleanText(v.sku, 200);
  const text = cleanText(v.availability, 200);
  return {
    ...(sku && { sku }),
    ...(title && { title }),
    ...(Object.keys(values).length > 0 && { values }),
    ...(price !== undefined && { price: makePrice(price, currency) }),
    ...(price !== undefined && original !== undefined && original > price && { sale: { originalPrice: makePrice(original, currency) } }),
    availability: { inStock: v.inStock, ...(text && { text }) },
  };
}

/** The product the model reads out of the page, or undefined when it says the page is no product page. */
export async function extractProduct(
  text: string,
  pageUrl: string,
  llm: LlmSettings,
  fetchImpl?: typeof fetch,
): Promise<{ draft?: ProductDraft; usage: TokenUsage }> {
  const { value, usage } = await askModel('product', EXTRACT_SCHEMA, EXTRACT_TASK, text, llm, fetchImpl);
  const answer = value as ExtractAnswer;
  if (!answer.isProduct) return { usage };
  const title = cleanText(answer.title);
  const brand = cleanText(answer.brand);
  const category = cleanText(answer.category);
  const description = cleanText(answer.description);
  return {
    draft: {
      ...(title && { title }),
      ...(brand && { brand }),
      ...(category && { category }),
      url: pageUrl,
      ...(description && { description }),
      variants: (answer.variants ?? []).slice(0, MAX_VARIANTS).map(modelVariant),
    },
    usage,
  };
}

/** Where the draft leaves out what the SDKs require: its title, and the variants without availability. */
export function productGaps(draft: Pick<ProductDraft, 'title' | 'variants'>): { title: boolean; openVariants: number[] } {
  return {
    title: draft.title === undefined,
    openVariants: draft.variants.flatMap((v, i) => (v.availability === undefined ? [i] : [])),
  };
}

function describeVariant(v: VariantDraft): string {
  const parts = [
    v.title,
    v.sku && `sku ${v.sku}`,
    v.values &&
      Object.entries(v.values)
        .map(([k, val]) => `${k}: ${val}`)
        .join(', '),
    v.price?.formatted ?? v.price?.amount,
  ];
  return parts.filter((p) => p !== undefined && p !== '').join('; ') || 'the product';
}

interface FillAnswer {
  title?: string;
  brand?: string;
  category?: string;
  description?: string;
  availability?: { inStock: boolean; text?: string }[];
}

/** The draft with what the model read for its gaps (variants past MAX_VARIANTS_ASKED stay open). */
export async function fillProduct(
  draft: ProductDraft,
  text: string,
  llm: LlmSettings,
  fetchImpl?: typeof fetch,
): Promise<{ draft: ProductDraft; usage: TokenUsage }> {
  const gaps = productGaps(draft);
  const asked = gaps.openVariants.slice(0, MAX_VARIANTS_ASKED);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const wanted: string[] = [];
  if (gaps.title) {
    properties.title = TEXT;
    required.push('title');
    wanted.push('title: the product’s name');
  }
  for (const field of ['brand', 'category', 'description'] as const) {
    if (draft[field] !== undefined) continue;
    properties[field] = TEXT;
    wanted.push(`${field}: only if the page states it`);
  }
  if (asked.length > 0) {
    properties.availability = { type: 'array', items: AVAILABILITY_SCHEMA };
    required.push('availability');
    wanted.push(
      `availability: for each of the ${asked.length} variants listed at the start of the user message, in that order, whether it can be bought now (inStock) and the page’s words about it (text)`,
    );
  }
  const schema = { type: 'object', properties, required, additionalProperties: false };
  const task = [
    'The structured data of a web page describes a product but leaves some things out. Read them from the page’s text.',
    `Reply with a JSON object with: ${wanted.join('; ')}.`,
    'Use only what the page states.',
  ].join('\n');
  const listing = asked.length > 0 ? `Variants:\n${asked.map((i, n) => `${n + 1}. ${describeVariant(draft.variants[i]!)}`).join('\n')}\n\n` : '';
  const { value, usage } = await askModel('product', schema, task, listing + text, llm, fetchImpl);
  const answer = value as FillAnswer;
  const filled: ProductDraft = { ...draft, variants: [...draft.variants] };
  const title = cleanText(answer.title);
  if (gaps.title && title) filled.title = title;
  for (const field of ['brand', 'category', 'description'] as const) {
    const found = cleanText(answer[field]);
    if (draft[field] === undefined && found) filled[field] = found;
  }
  asked.forEach((variantIndex, n) => {
    const said = answer.availability?.[n];
    if (!said) return;
    const text = cleanText(said.text, 200);
    filled.variants[variantIndex] = { ...filled.variants[variantIndex]!, availability: { inStock: said.inStock, ...(text && { text }) } };
  });
  return { draft: filled, usage };
}
