// The product and menu formats after the conversion: structured data as it is,
// the fake model (test/support/fake-llm.ts) for what it leaves out or for a
// page without any, the documented fallbacks without a model, and warnings.
import type { MenuProfile as SdkMenuProfile, ProductProfile as SdkProductProfile } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { LlmSettings } from '../../../src/platform/llm/chat-completion.ts';
import { menuFormat } from '../../../src/page/menu/menu-format.ts';
import type { MenuDraft, MenuProfile } from '../../../src/page/menu/menu-profile.ts';
import { productFormat } from '../../../src/page/product/product-format.ts';
import type { ProductDraft, ProductProfile } from '../../../src/page/product/product-profile.ts';
import type { ProfilePage } from '../../../src/page/profiles/profile-page.ts';
import { runProfileFormats } from '../../../src/page/profiles/run-profile-formats.ts';
import { startFakeLlm, type FakeLlm } from '../../support/fake-llm.ts';

let fake: FakeLlm;
let llm: LlmSettings;

beforeAll(async () => {
  fake = await startFakeLlm();
  llm = { baseUrl: fake.url, model: 'big', smallModel: 'small', timeoutMs: 2000 };
});
afterAll(() => fake.close());

const URL = 'https://shop.test/tee';
const TEXT = '# Blue Tee\n\nA soft tee by Acme. In stock now.';
const CALL = { promptTokens: 100, completionTokens: 20 };

function page(withModel: boolean, extra: Partial<ProfilePage> = {}): ProfilePage {
  return {
    text: TEXT,
    url: URL,
    metadata: { title: 'Blue Tee | Shop', 'og:title': 'Blue Tee', 'og:site_name': 'Shop', sourceURL: URL, url: URL, statusCode: 200 },
    ...(withModel && { llm }),
    ...extra,
  };
}

const COMPLETE: ProductDraft = {
  title: 'Blue Tee',
  url: URL,
  variants: [{ sku: 'T-1', price: { amount: 5, currency: 'USD', formatted: '$5.00' }, availability: { inStock: true, text: 'In stock' } }],
};
const OPEN: ProductDraft = { url: URL, brand: 'Acme', variants: [{ sku: 'T-1', price: { amount: 5 } }] };

it('match the SDKs’ ProductProfile and MenuProfile types', () => {
  expectTypeOf<ProductProfile>().toExtend<SdkProductProfile>();
  expectTypeOf<MenuProfile>().toExtend<SdkMenuProfile>();
});

describe('productFormat', () => {
  it('takes a draft that states everything as it is: no model call, no warning', async () => {
    const before = fake.requests.length;
    expect(await productFormat(COMPLETE, page(true))).toEqual({
      value: COMPLETE,
      warnings: [],
      usage: { promptTokens: 0, completionTokens: 0 },
      answered: false,
    });
    expect(fake.requests.length).toBe(before);
  });

  it('without a model, fills the title from the page and availability as not in stock, and says so', async () => {
    expect(await productFormat(OPEN, page(false))).toEqual({
      value: { title: 'Blue Tee', url: URL, brand: 'Acme', variants: [{ sku: 'T-1', price: { amount: 5 }, availability: { inStock: false } }] },
      warnings: [
        "The page does not state the product's title (the page’s title is used) or the availability of 1 of the product's 1 variant(s) (given as not in stock); no model may read the page (LLM_BASE_URL; LLM_IS_LOCAL under zero data retention).",
      ],
      usage: { promptTokens: 0, completionTokens: 0 },
      answered: false,
    });
  });

  it('with a model, asks it only for what the draft leaves out, the variants listed before the page', async () => {
    const before = fake.requests.length;
    const outcome = await productFormat(OPEN, page(true));
    expect(outcome).toEqual({
      value: {
        title: 'Blue Tee',
        brand: 'Acme',
        category: 'Blue Tee',
        description: 'Blue Tee',
        url: URL,
        variants: [{ sku: 'T-1', price: { amount: 5 }, availability: { inStock: true, text: 'Blue Tee' } }],
      },
      warnings: [],
      usage: CALL,
      answered: true,
    });
    const [sent] = fake.requests.slice(before);
    expect(sent!.model).toBe('big');
    expect(Object.keys(sent!.response_format!.json_schema!.schema.properties as object)).toEqual(['title', 'category', 'description', 'availability']);
    expect(sent!.messages[1]!.content).toMatch(/^Variants:\n1\. sku T-1; 5\n\n# Blue Tee/);
  });

  it('keeps the structured data and falls back when the model fails', async () => {
    fake.script = () => 'no JSON here';
    try {
      const outcome = await productFormat(OPEN, page(true));
      expect(outcome.value?.title).toBe('Blue Tee');
      expect(outcome.answered).toBe(false);
      expect(outcome.usage).toEqual({ promptTokens: 200, completionTokens: 40 });
      expect(outcome.warnings[0]).toMatch(/the model call that was to read it failed: the answer is not valid JSON \(after one retry\)\.$/);
    } finally {
      fake.script = undefined;
    }
  });

  it('reads a product out of a page without structured data when a model may', async () => {
    const outcome = await productFormat(undefined, page(true));
    expect(outcome.value).toEqual({
      title: 'Blue Tee',
      brand: 'Blue Tee',
      category: 'Blue Tee',
      description: 'Blue Tee',
      url: URL,
      variants: [
        { sku: 'Blue Tee', title: 'Blue Tee', values: { 'Blue Tee': 'Blue Tee' }, price: { amount: 4.5 }, availability: { inStock: true, text: 'Blue Tee' } },
      ],
    });
    expect(outcome.answered).toBe(true);
  });

  it('a page that is no product page has no product and a warning, with or without a model', async () => {
    fake.script = () => JSON.stringify({ isProduct: false });
    try {
      expect(await productFormat(undefined, page(true))).toEqual({
        warnings: ['No product found on this page; it does not appear to be a product page.'],
        usage: CALL,
        answered: true,
      });
    } finally {
      fake.script = undefined;
    }
    expect((await productFormat(undefined, page(false))).warnings).toEqual([
      'No product found on this page: it has no schema.org Product data (JSON-LD, microdata or RDFa), and no model may read the page (LLM_BASE_URL; LLM_IS_LOCAL under zero data retention).',
    ]);
    expect((await productFormat(undefined, page(true, { text: ' ' }))).warnings).toEqual([
      'No product found on this page: it has no schema.org Product data (JSON-LD, microdata or RDFa) and no text.',
    ]);
  });
});

const MENU: MenuDraft = {
  isMenu: true,
  confidence: 1,
  merchant: { type: null },
  currency: 'USD',
  sections: [{ id: 'section-1', name: 'Drinks', items: [] }],
  sourceUrl: URL,
};

describe('menuFormat', () => {
  it('without a model, names the merchant after the site, and says so', async () => {
    const outcome = await menuFormat(MENU, page(false));
    expect(outcome.value?.merchant).toEqual({ name: 'Shop', type: null });
    expect(outcome.warnings).toEqual([
      'The page does not state whose menu it is (merchant.name: the page’s site name or title is used); no model may read the page (LLM_BASE_URL; LLM_IS_LOCAL under zero data retention).',
    ]);
  });

  it('with a model, asks it for the merchant only', async () => {
    const before = fake.requests.length;
    const outcome = await menuFormat(MENU, page(true));
    expect(outcome).toMatchObject({ value: { ...MENU, merchant: { name: 'Blue Tee', type: 'Blue Tee' } }, warnings: [], answered: true });
    expect(fake.requests.slice(before).map((r) => r.response_format?.json_schema?.name)).toEqual(['merchant']);
  });

  it('reads a menu out of a page without structured data; the model’s confidence kept within 0 to 1', async () => {
    const outcome = await menuFormat(undefined, page(true));
    expect(outcome.value).toEqual({
      isMenu: true,
      confidence: 1,
      merchant: { name: 'Blue Tee', type: 'Blue Tee' },
      currency: null,
      sections: [
        {
          id: 'section-1',
          name: 'Blue Tee',
          description: 'Blue Tee',
          items: [
            {
              id: 'section-1-item-1',
              name: 'Blue Tee',
              description: 'Blue Tee',
              images: [],
              price: { amount: 4.5 },
              availability: { inStock: true },
              dietary: ['blue tee'],
              calories: 4.5,
              optionGroups: [],
              identifiers: {},
              sourceUrl: URL,
            },
          ],
        },
      ],
      sourceUrl: URL,
    });
  });

  it('a page without a menu has none, and a warning', async () => {
    fake.script = () => JSON.stringify({ isMenu: false });
    try {
      expect((await menuFormat(undefined, page(true))).warnings).toEqual(['No menu found on this page; it does not appear to be a menu page.']);
    } finally {
      fake.script = undefined;
    }
  });
});

describe('runProfileFormats', () => {
  it('runs the formats asked for, gathers their fields, warnings and tokens, and names the structured data it skipped once', async () => {
    const result = await runProfileFormats(
      [{ type: 'product' }, { type: 'menu' }],
      { product: COMPLETE, menu: MENU, skipped: ['a JSON-LD script that is not valid JSON was skipped'] },
      page(true),
    );
    expect(result.fields.product).toEqual(COMPLETE);
    expect(result.fields.menu?.merchant.name).toBe('Blue Tee');
    expect(result.warnings).toEqual(["Some of the page's structured data was not read: a JSON-LD script that is not valid JSON was skipped."]);
    expect(result.usage).toEqual(CALL);
    expect(result.answered).toEqual(['menu']);
    expect(await runProfileFormats([{ type: 'markdown' }], undefined, page(true))).toEqual({
      fields: {},
      warnings: [],
      usage: { promptTokens: 0, completionTokens: 0 },
      answered: [],
    });
  });
});
