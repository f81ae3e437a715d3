// The product format's draft from the page's schema.org data: the JSON-LD
// shapes shops write (Offer, AggregateOffer, ProductGroup, @graph, sale
// prices), microdata and RDFa, and pages whose products are not theirs.
import { describe, expect, it } from 'vitest';
import { parseHtmlDocument } from '../../../src/page/parse-html.ts';
import { profileDrafts } from '../../../src/page/profiles/profile-drafts.ts';
import { requestedFormats } from '../../../src/page/formats/registry.ts';
import type { ProductDraft } from '../../../src/page/product/product-profile.ts';
import { availabilityOfTerm, parseAmount } from '../../../src/page/structured-data/offer-terms.ts';

const URL = 'https://shop.test/tee';

function ld(...values: unknown[]): string {
  return values.map((v) => `<script type="application/ld+json">${JSON.stringify(v)}</script>`).join('');
}

function product(html: string) {
  return profileDrafts(parseHtmlDocument(html), requestedFormats([{ type: 'product' }]), URL)?.product as ProductDraft | undefined;
}

describe('product from JSON-LD', () => {
  it('a Product with one Offer: one variant that carries the product’s identifiers and images', () => {
    expect(
      product(
        ld({
          '@context': 'https://schema.org',
          '@type': 'Product',
          name: 'Blue Tee',
          brand: { '@type': 'Brand', name: 'Acme' },
          category: 'Apparel > Shirts',
          description: 'A   soft tee.',
          sku: 'T-1',
          productID: 'isbn:1',
          url: '/tee?ref=ld',
          image: ['https://cdn.test/1.jpg', { '@type': 'ImageObject', contentUrl: '/2.jpg', caption: 'Back' }, 'javascript:alert(1)'],
          offers: { '@type': 'Offer', price: '19.99', priceCurrency: 'usd', availability: 'https://schema.org/InStock' },
        }),
      ),
    ).toEqual({
      title: 'Blue Tee',
      brand: 'Acme',
      category: 'Apparel > Shirts',
      url: 'https://shop.test/tee?ref=ld',
      description: 'A soft tee.',
      variants: [
        {
          id: 'isbn:1',
          sku: 'T-1',
          price: { amount: 19.99, currency: 'USD', formatted: '$19.99' },
          availability: { inStock: true, text: 'In stock' },
          images: [{ url: 'https://cdn.test/1.jpg' }, { url: 'https://shop.test/2.jpg', alt: 'Back' }],
        },
      ],
    });
  });

  it('several offers are several variants; a strikethrough price the offer undercuts is its sale', () => {
    const found = product(
      ld({
        '@type': 'Product',
        name: 'Tee',
        offers: [
          {
            '@type': 'Offer',
            name: 'Small',
            sku: 'S',
            price: 15,
            priceCurrency: 'EUR',
            availability: 'OutOfStock',
            priceSpecification: { '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/StrikethroughPrice', price: '20.00' },
          },
          { '@type': 'Offer', name: 'Large', sku: 'L', priceSpecification: { '@type': 'UnitPriceSpecification', price: '1.299,50', priceCurrency: 'EUR' } },
        ],
      }),
    );
    expect(found?.variants).toEqual([
      {
        sku: 'S',
        title: 'Small',
        price: { amount: 15, currency: 'EUR', formatted: '€15.00' },
        sale: { originalPrice: { amount: 20, currency: 'EUR', formatted: '€20.00' } },
        availability: { inStock: false, text: 'Out of stock' },
      },
      { sku: 'L', title: 'Large', price: { amount: 1299.5, currency: 'EUR', formatted: '€1,299.50' } },
    ]);
  });

  it('an AggregateOffer is its listed offers, or one variant at its lowPrice', () => {
    const listed = product(
      ld({
        '@type': 'Product',
        name: 'Tee',
        offers: {
          '@type': 'AggregateOffer',
          lowPrice: 5,
          offers: [
            { '@type': 'Offer', price: 5 },
            { '@type': 'Offer', price: 7 },
          ],
        },
      }),
    );
    expect(listed?.variants.map((v) => v.price?.amount)).toEqual([5, 7]);
    const aggregate = product(
      ld({ '@type': 'Product', name: 'Tee', offers: { '@type': 'AggregateOffer', lowPrice: '4.50', highPrice: '9', priceCurrency: 'GBP' } }),
    );
    expect(aggregate?.variants).toEqual([{ price: { amount: 4.5, currency: 'GBP', formatted: '£4.50' } }]);
  });

  it('a ProductGroup in @graph: its hasVariant products (references resolved) are the variants, with the values they vary by', () => {
    const found = product(
      ld(
        { '@type': 'WebSite', name: 'Shop' },
        {
          '@context': 'https://schema.org',
          '@graph': [
            { '@type': 'BreadcrumbList', itemListElement: [] },
            {
              '@type': 'ProductGroup',
              '@id': '#group',
              name: 'Tee',
              productGroupID: 'G1',
              variesBy: ['https://schema.org/color', 'size'],
              image: 'https://cdn.test/tee.jpg',
              hasVariant: [
                { '@id': '#red' },
                { '@id': '#missing' },
                {
                  '@type': 'Product',
                  name: 'Tee Blue S',
                  color: 'Blue',
                  size: { '@type': 'SizeSpecification', name: 'S' },
                  sku: 'B-S',
                  image: '/b.jpg',
                  offers: { '@type': 'Offer', price: 10, priceCurrency: 'USD', availability: 'https://schema.org/PreOrder' },
                },
              ],
            },
            {
              '@type': 'Product',
              '@id': '#red',
              name: 'Tee Red M',
              color: 'Red',
              size: 'M',
              gtin13: '0001',
              offers: { '@type': 'Offer', price: 12, priceCurrency: 'USD', availability: 'InStock' },
            },
          ],
        },
      ),
    );
    expect(found?.title).toBe('Tee');
    expect(found?.variants).toEqual([
      {
        id: '0001',
        title: 'Tee Red M',
        values: { color: 'Red', size: 'M' },
        price: { amount: 12, currency: 'USD', formatted: '$12.00' },
        availability: { inStock: true, text: 'In stock' },
        images: [{ url: 'https://cdn.test/tee.jpg' }],
      },
      {
        sku: 'B-S',
        title: 'Tee Blue S',
        values: { color: 'Blue', size: 'S' },
        price: { amount: 10, currency: 'USD', formatted: '$10.00' },
        availability: { inStock: false, text: 'Pre-order' },
        images: [{ url: 'https://shop.test/b.jpg' }],
      },
    ]);
  });

  it('the page’s product may be a WebPage’s mainEntity; a listing’s products and related products are not the page’s', () => {
    expect(product(ld({ '@type': 'WebPage', mainEntity: { '@type': 'Product', name: 'Main' } }))?.title).toBe('Main');
    expect(
      product(
        ld({
          '@type': 'ItemList',
          itemListElement: [
            { '@type': 'ListItem', item: { '@type': 'Product', name: 'A' } },
            { '@type': 'ListItem', item: { '@type': 'Product', name: 'B' } },
          ],
        }),
      ),
    ).toBeUndefined();
    expect(product(ld({ '@type': 'Product', name: 'Mine', isRelatedTo: { '@type': 'Product', name: 'Other' } }))?.title).toBe('Mine');
  });

  it('leaves open what the page does not state: title, availability; a product without offers has no variants', () => {
    expect(product(ld({ '@type': 'Product', offers: { '@type': 'Offer', price: 3 } }))).toEqual({ url: URL, variants: [{ price: { amount: 3 } }] });
    expect(product(ld({ '@type': 'Product', name: 'Catalogue entry' }))).toEqual({ title: 'Catalogue entry', url: URL, variants: [] });
    expect(product('<h1>Nothing structured</h1>')).toBeUndefined();
  });
});

describe('product from microdata and RDFa', () => {
  it('reads a microdata product when there is no JSON-LD one', () => {
    const found = product(`
      <div itemscope itemtype="https://schema.org/Product">
        <h1 itemprop="name">Mug</h1><img itemprop="image" src="mug.png" alt="Mug">
        <span itemprop="brand" itemscope itemtype="https://schema.org/Brand"><span itemprop="name">Potter</span></span>
        <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
          <span itemprop="priceCurrency" content="USD">$</span><span itemprop="price">8.00</span>
          <link itemprop="availability" href="https://schema.org/LimitedAvailability">Few left
        </div>
      </div>`);
    expect(found).toEqual({
      title: 'Mug',
      brand: 'Potter',
      url: URL,
      variants: [
        {
          price: { amount: 8, currency: 'USD', formatted: '$8.00' },
          availability: { inStock: true, text: 'Limited availability' },
          images: [{ url: 'https://shop.test/mug.png' }],
        },
      ],
    });
  });

  it('prefers JSON-LD, and reads RDFa Lite', () => {
    const rdfa =
      '<div vocab="https://schema.org/" typeof="Product"><span property="name">RDFa lamp</span><div property="offers" typeof="Offer"><span property="price">30</span></div></div>';
    expect(product(rdfa)?.title).toBe('RDFa lamp');
    expect(product(rdfa + ld({ '@type': 'Product', name: 'JSON-LD lamp' }))?.title).toBe('JSON-LD lamp');
  });
});

describe('offer terms', () => {
  it.each([
    ['49.99', 49.99],
    ['$1,299.00', 1299],
    ['1.299,00 €', 1299],
    ['49,99', 49.99],
    ['1,299', 1299],
    ['1.299.000', 1299000],
    ['from 10 to 20', 10],
    ['free', undefined],
    ['', undefined],
  ])('reads the price %j as %j', (text, amount) => {
    expect(parseAmount(text)).toBe(amount);
  });

  it('maps availability terms however they are written; unknown words are not stated', () => {
    expect(availabilityOfTerm('SoldOut')).toEqual({ inStock: false, text: 'Sold out' });
    expect(availabilityOfTerm('in stock')).toEqual({ inStock: true, text: 'In stock' });
    expect(availabilityOfTerm('Available soon')).toBeUndefined();
  });
});

describe('hostile product data', () => {
  it('keeps what a variant varies by as plain values, whatever the names', () => {
    const script =
      '{"@type": "ProductGroup", "name": "G", "variesBy": ["__proto__", "constructor"], "hasVariant": {"@type": "Product", "__proto__": "p", "constructor": "c", "name": "V"}}';
    const values = product(`<script type="application/ld+json">${script}</script>`)?.variants[0]?.values;
    expect(Object.keys(values!)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(values)).toBe('{"__proto__":"p","constructor":"c"}');
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
  });
});
