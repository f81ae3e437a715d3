// The menu format's draft from the page's schema.org data: a Restaurant's
// hasMenu, a Menu of its own, sections and items outside a menu, microdata.
import { describe, expect, it } from 'vitest';
import { parseHtmlDocument } from '../../../src/page/parse-html.ts';
import { profileDrafts } from '../../../src/page/profiles/profile-drafts.ts';
import { requestedFormats } from '../../../src/page/formats/registry.ts';
import type { MenuDraft } from '../../../src/page/menu/menu-profile.ts';

const URL = 'https://cafe.test/menu';

function ld(...values: unknown[]): string {
  return values.map((v) => `<script type="application/ld+json">${JSON.stringify(v)}</script>`).join('');
}

function menu(html: string) {
  return profileDrafts(parseHtmlDocument(html), requestedFormats([{ type: 'menu' }]), URL)?.menu as MenuDraft | undefined;
}

const RESTAURANT = {
  '@context': 'https://schema.org',
  '@type': 'Restaurant',
  name: 'Chez Test',
  currenciesAccepted: 'EUR, USD',
  address: { '@type': 'PostalAddress', streetAddress: '1 Rue Test', addressLocality: 'Paris', postalCode: '75001', addressCountry: 'FR' },
  geo: { '@type': 'GeoCoordinates', latitude: '48.86', longitude: 2.34 },
  hasMenu: {
    '@type': 'Menu',
    name: 'Dinner',
    hasMenuItem: { '@type': 'MenuItem', name: 'Bread' },
    hasMenuSection: [
      {
        '@type': 'MenuSection',
        name: 'Starters',
        description: 'To share',
        hasMenuItem: [
          {
            '@type': 'MenuItem',
            name: 'Soup',
            description: 'Of the day',
            identifier: 'soup-1',
            url: '/menu#soup',
            image: 'https://cdn.test/soup.jpg',
            suitableForDiet: ['https://schema.org/VeganDiet', 'https://schema.org/GlutenFreeDiet'],
            nutrition: { '@type': 'NutritionInformation', calories: '250 calories' },
            offers: { '@type': 'Offer', price: '7.50', priceCurrency: 'EUR' },
            menuAddOn: [
              {
                '@type': 'MenuSection',
                name: 'Toppings',
                hasMenuItem: [{ '@type': 'MenuItem', name: 'Croutons', offers: { '@type': 'Offer', price: 1, priceCurrency: 'EUR' } }],
              },
              { '@type': 'MenuItem', name: 'Extra bread' },
            ],
          },
          { '@type': 'MenuItem', description: 'A nameless dish is no item' },
        ],
        hasMenuSection: {
          '@type': 'MenuSection',
          name: 'Cold starters',
          hasMenuItem: { '@type': 'MenuItem', name: 'Salad', offers: { '@type': 'Offer', price: 6, availability: 'https://schema.org/SoldOut' } },
        },
      },
      { '@type': 'MenuSection', name: 'Mains', hasMenuItem: [] },
    ],
  },
};

describe('menu from JSON-LD', () => {
  it('a restaurant’s hasMenu: merchant, currency, sections in page order with nested ones after their parent, items with everything they state', () => {
    expect(menu(ld(RESTAURANT))).toEqual({
      isMenu: true,
      confidence: 1,
      merchant: { name: 'Chez Test', type: 'Restaurant', location: { address: '1 Rue Test, Paris, 75001, FR', latitude: 48.86, longitude: 2.34 } },
      currency: 'EUR',
      sections: [
        {
          id: 'section-1',
          name: 'Dinner',
          items: [
            {
              id: 'section-1-item-1',
              name: 'Bread',
              images: [],
              availability: { inStock: true },
              dietary: [],
              optionGroups: [],
              identifiers: {},
              sourceUrl: URL,
            },
          ],
        },
        {
          id: 'section-2',
          name: 'Starters',
          description: 'To share',
          items: [
            {
              id: 'section-2-item-1',
              name: 'Soup',
              description: 'Of the day',
              images: [{ url: 'https://cdn.test/soup.jpg' }],
              price: { amount: 7.5, currency: 'EUR', formatted: '€7.50' },
              availability: { inStock: true },
              dietary: ['vegan', 'gluten-free'],
              calories: 250,
              optionGroups: [
                { name: 'Toppings', options: [{ name: 'Croutons', price: { amount: 1, currency: 'EUR', formatted: '€1.00' } }] },
                { name: 'Add-ons', options: [{ name: 'Extra bread' }] },
              ],
              identifiers: { merchantItemId: 'soup-1' },
              url: 'https://cafe.test/menu#soup',
              sourceUrl: URL,
            },
          ],
        },
        {
          id: 'section-3',
          name: 'Cold starters',
          items: [
            {
              id: 'section-3-item-1',
              name: 'Salad',
              images: [],
              price: { amount: 6 },
              availability: { inStock: false, text: 'Sold out' },
              dietary: [],
              optionGroups: [],
              identifiers: {},
              sourceUrl: URL,
            },
          ],
        },
        { id: 'section-4', name: 'Mains', items: [] },
      ],
      sourceUrl: URL,
    });
  });

  it('a Menu without an establishment leaves the merchant’s name open; currency from the establishment when no price states one', () => {
    const own = menu(ld({ '@type': 'Menu', hasMenuSection: { '@type': 'MenuSection', hasMenuItem: { '@type': 'MenuItem', name: 'Tea' } } }));
    expect(own?.merchant).toEqual({ type: null });
    expect(own?.currency).toBeNull();
    expect(own?.sections.map((s) => s.name)).toEqual(['Menu']);
    const noPrices = menu(
      ld({
        '@type': 'CafeOrCoffeeShop',
        name: 'Beans',
        currenciesAccepted: 'usd',
        hasMenu: { '@type': 'Menu', hasMenuItem: { '@type': 'MenuItem', name: 'Tea' } },
      }),
    );
    expect(noPrices?.merchant).toEqual({ name: 'Beans', type: 'CafeOrCoffeeShop' });
    expect(noPrices?.currency).toBe('USD');
  });

  it('sections or items stated outside any menu make one; an establishment whose menu is elsewhere (a URL) has none here', () => {
    const loose = menu(ld({ '@type': 'MenuSection', name: 'Drinks', hasMenuItem: { '@type': 'MenuItem', name: 'Water' } }));
    expect(loose?.sections.map((s) => [s.name, s.items.map((i) => i.name)])).toEqual([['Drinks', ['Water']]]);
    expect(menu(ld({ '@type': 'Restaurant', name: 'Elsewhere', hasMenu: 'https://cafe.test/menu.pdf' }))).toBeUndefined();
  });

  it('sections that name each other in a circle are each listed once', () => {
    const looped = menu(
      ld({
        '@type': 'Menu',
        '@graph': [],
        hasMenuSection: {
          '@id': '#a',
          '@type': 'MenuSection',
          name: 'A',
          hasMenuSection: { '@id': '#b', '@type': 'MenuSection', name: 'B', hasMenuSection: { '@id': '#a' } },
        },
      }),
    );
    expect(looped?.sections.map((s) => s.name)).toEqual(['A', 'B']);
  });
});

describe('menu from microdata', () => {
  it('reads a restaurant’s microdata menu', () => {
    const found = menu(`
      <div itemscope itemtype="https://schema.org/Restaurant"><h1 itemprop="name">Pizzeria</h1>
        <div itemprop="hasMenu" itemscope itemtype="https://schema.org/Menu">
          <section itemprop="hasMenuSection" itemscope itemtype="https://schema.org/MenuSection"><h2 itemprop="name">Pizza</h2>
            <div itemprop="hasMenuItem" itemscope itemtype="https://schema.org/MenuItem"><span itemprop="name">Margherita</span>
              <link itemprop="suitableForDiet" href="https://schema.org/VegetarianDiet">
              <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">9</span><meta itemprop="priceCurrency" content="EUR"></div>
            </div>
          </section>
        </div>
      </div>`);
    expect(found?.merchant).toEqual({ name: 'Pizzeria', type: 'Restaurant' });
    expect(found?.sections[0]?.items[0]).toMatchObject({ name: 'Margherita', dietary: ['vegetarian'], price: { amount: 9, currency: 'EUR' } });
  });
});

describe('hostile menu data', () => {
  it('takes diet and variant names from the page as words, never as the properties of an object', () => {
    const found = menu(ld({ '@type': 'Menu', hasMenuItem: { '@type': 'MenuItem', name: 'Tea', suitableForDiet: ['constructor', 'toString', '__proto__'] } }));
    expect(found?.sections[0]?.items[0]?.dietary).toEqual(['constructor', 'tostring', '__proto__']);
  });
});
