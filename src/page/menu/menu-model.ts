// The model's part of the menu format: reading a menu out of a page that states
// none in its structured data, or the merchant's name when the data leaves it
// out. Ids, images, option groups and identifiers are not asked: a menu read
// from text has none, and ids are made here.
import type { LlmSettings, TokenUsage } from '../../platform/llm/chat-completion.ts';
import type { JsonSchema } from '../../platform/llm/json-schema.ts';
import { askModel } from '../model-formats/page-as-data.ts';
import { currencyCode, makePrice, parseAmount } from '../structured-data/offer-terms.ts';
import { cleanText } from '../structured-data/things.ts';
import { itemId, MAX_MENU_ITEMS, MAX_MENU_SECTIONS, sectionId, type MenuDraft, type MenuItem, type MenuSection } from './menu-profile.ts';

const TEXT = { type: 'string' };

const EXTRACT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    isMenu: { type: 'boolean' },
    confidence: { type: 'number' },
    merchantName: TEXT,
    merchantType: TEXT,
    currency: TEXT,
    sections: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: TEXT,
          description: TEXT,
          items: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: TEXT,
                description: TEXT,
                price: { type: 'number' },
                dietary: { type: 'array', items: TEXT },
                calories: { type: 'number' },
                available: { type: 'boolean' },
              },
              required: ['name'],
              additionalProperties: false,
            },
          },
        },
        required: ['name', 'items'],
        additionalProperties: false,
      },
    },
  },
  required: ['isMenu'],
  additionalProperties: false,
};

const EXTRACT_TASK = [
  'You read a web page and tell whether it shows a menu: the dishes or drinks a restaurant, café, bar or other food business serves, with or without prices.',
  'If it does not, reply {"isMenu": false}.',
  'If it does, reply with isMenu true; confidence (0 to 1, how sure you are it is a menu); merchantName and merchantType (e.g. "Restaurant", "Cafe"); currency (ISO 4217 code of the prices); and its sections in page order, each with its name, description and items, each item with its name, description, price (a number), dietary (e.g. "vegan", "gluten-free"), calories and available (false only where the page says it is not served now).',
  'Use only what the page states; leave out any field it does not state.',
].join('\n');

interface ExtractAnswer {
  isMenu: boolean;
  confidence?: number;
  merchantName?: string;
  merchantType?: string;
  currency?: string;
  sections?: {
    name: string;
    description?: string;
    items: { name: string; description?: string; price?: number; dietary?: string[]; calories?: number; available?: boolean }[];
  }[];
}

function sectionsOf(answer: ExtractAnswer, currency: string | undefined, pageUrl: string): MenuSection[] {
  let itemsLeft = MAX_MENU_ITEMS;
  return (answer.sections ?? []).slice(0, MAX_MENU_SECTIONS).map((s, si) => {
    const items: MenuItem[] = [];
    for (const i of s.items) {
      const name = cleanText(i.name, 500);
      if (!name || itemsLeft <= 0) continue;
      itemsLeft--;
      const description = cleanText(i.description);
      const price = i.price === undefined ? undefined : parseAmount(String(i.price));
      const calories = i.calories !== undefined && Number.isFinite(i.calories) && i.calories >= 0 ? i.calories : undefined;
      items.push({
        id: itemId(si, items.length),
        name,
        ...(description && { description }),
        images: [],
        ...(price !== undefined && { price: makePrice(price, currency) }),
        availability: { inStock: i.available !== false },
        dietary: [...new Set((i.dietary ?? []).map((d) => cleanText(d, 100)?.toLowerCase()).filter((d) => d !== undefined))],
        ...(calories !== undefined && { calories }),
        optionGroups: [],
        identifiers: {},
        sourceUrl: pageUrl,
      });
    }
    const description = cleanText(s.description);
    return { id: sectionId(si), name: cleanText(s.name, 500) ?? 'Menu', ...(description && { description }), items };
  });
}

/** The menu the model reads out of the page, or undefined when it says the page shows none. */
export async function extractMenu(
  text: string,
  pageUrl: string,
  llm: LlmSettings,
  fetchImpl?: typeof fetch,
): Promise<{ draft?: MenuDraft; usage: TokenUsage }> {
  const { value, usage } = await askModel('menu', EXTRACT_SCHEMA, EXTRACT_TASK, text, llm, fetchImpl);
  const answer = value as ExtractAnswer;
  if (!answer.isMenu) return { usage };
  const currency = currencyCode(answer.currency);
  const name = cleanText(answer.merchantName, 500);
  const confidence = Number.isFinite(answer.confidence) ? Math.min(1, Math.max(0, answer.confidence!)) : 0.5;
  return {
    draft: {
      isMenu: true,
      confidence,
      merchant: { ...(name && { name }), type: cleanText(answer.merchantType, 100) ?? null },
      currency: currency ?? null,
      sections: sectionsOf(answer, currency, pageUrl),
      sourceUrl: pageUrl,
    },
    usage,
  };
}

const MERCHANT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { merchantName: TEXT, merchantType: TEXT },
  required: ['merchantName'],
  additionalProperties: false,
};

const MERCHANT_TASK = [
  'The structured data of a web page describes a menu but not whose it is. Read from the page’s text the name of the restaurant, café, bar or other food business whose menu it is (merchantName), and what kind of business it is (merchantType, e.g. "Restaurant").',
  'Use only what the page states.',
].join('\n');

/** The draft with the merchant the model read (its name left open when the model gave none). */
export async function fillMerchant(
  draft: MenuDraft,
  text: string,
  llm: LlmSettings,
  fetchImpl?: typeof fetch,
): Promise<{ draft: MenuDraft; usage: TokenUsage }> {
  const { value, usage } = await askModel('merchant', MERCHANT_SCHEMA, MERCHANT_TASK, text, llm, fetchImpl);
  const answer = value as { merchantName: string; merchantType?: string };
  const name = cleanText(answer.merchantName, 500);
  const type = draft.merchant.type ?? cleanText(answer.merchantType, 100) ?? null;
  return { draft: { ...draft, merchant: { ...draft.merchant, ...(name && { name }), type } }, usage };
}
