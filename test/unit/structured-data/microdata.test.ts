// Microdata and RDFa Lite as things: property values by element, nesting, and
// pages built to make the walk slow or deep.
import { describe, expect, it } from 'vitest';
import { parseHtmlDocument } from '../../../src/page/parse-html.ts';
import { readMicrodata } from '../../../src/page/structured-data/microdata.ts';
import { readStructuredData } from '../../../src/page/structured-data/read-structured-data.ts';
import { MAX_STRUCTURED_THINGS, StructuredDataBudget } from '../../../src/page/structured-data/structured-data-budget.ts';
import { textOf, thingsOf, type ThingGraph } from '../../../src/page/structured-data/things.ts';

function read(html: string, url = 'https://shop.test/p/1'): { graph: ThingGraph; skipped: string[] } {
  const budget = new StructuredDataBudget();
  const document = parseHtmlDocument(html);
  return { graph: readMicrodata(document.documentElement, url, budget), skipped: [...budget.skipped] };
}

describe('readMicrodata', () => {
  it('reads each element’s value as the microdata spec says, URLs absolute', () => {
    const { graph } = read(`
      <div itemscope itemtype="https://schema.org/Product" itemid="#p">
        <h1 itemprop="name">  Blue
          Tee </h1>
        <meta itemprop="sku" content="T-1">
        <img itemprop="image" src="/tee.jpg">
        <a itemprop="url" href="../tee">link text</a>
        <data itemprop="productID" value="42">forty-two</data>
        <time itemprop="releaseDate" datetime="2024-01-02">Jan 2</time>
        <span itemprop="color material">Cotton blue</span>
        <script itemprop="description">not text</script>
      </div>`);
    expect(graph.roots).toHaveLength(1);
    const [tee] = graph.roots;
    expect(tee!.types).toEqual(['Product']);
    expect(tee!.id).toBe('#p');
    expect(Object.fromEntries(tee!.props)).toEqual({
      name: ['Blue Tee'],
      sku: ['T-1'],
      image: ['https://shop.test/tee.jpg'],
      url: ['https://shop.test/tee'],
      productID: ['42'],
      releaseDate: ['2024-01-02'],
      color: ['Cotton blue'],
      material: ['Cotton blue'],
    });
    expect(graph.byId.get('#p')).toBe(tee);
  });

  it('nests items as property values; properties belong to their nearest item', () => {
    const { graph } = read(`
      <div itemscope itemtype="http://schema.org/Product">
        <span itemprop="name">Tee</span>
        <div itemprop="offers" itemscope itemtype="http://schema.org/Offer">
          <span itemprop="price" content="9.99">$9.99</span>
          <link itemprop="availability" href="https://schema.org/InStock">
        </div>
        <div><span itemprop="brand">Acme</span></div>
      </div>
      <span itemprop="name">belongs to no item</span>`);
    expect(graph.roots).toHaveLength(1);
    const [tee] = graph.roots;
    expect(textOf(graph, tee!, 'brand')).toBe('Acme');
    const [offer] = thingsOf(graph, tee!, 'offers');
    expect(Object.fromEntries(offer!.props)).toEqual({ price: ['9.99'], availability: ['https://schema.org/InStock'] });
  });

  it('reads RDFa Lite (typeof, property, resource) the same way', () => {
    const { graph } = read(`
      <div vocab="https://schema.org/" typeof="Product" resource="#tee">
        <span property="name">Tee</span>
        <div property="offers" typeof="Offer"><span property="price" content="5">five</span><span property="schema:priceCurrency">EUR</span></div>
      </div>
      <meta property="og:title" content="no item">`);
    expect(graph.roots.map((r) => [r.types, r.id])).toEqual([[['Product'], '#tee']]);
    const [offer] = thingsOf(graph, graph.roots[0]!, 'offers');
    expect(Object.fromEntries(offer!.props)).toEqual({ price: ['5'], priceCurrency: ['EUR'] });
  });

  it('reads the whole page with readStructuredData only when it has items', () => {
    const data = readStructuredData(parseHtmlDocument('<p>No data</p>'), 'https://shop.test/');
    expect(data).toEqual({ jsonLd: { roots: [], byId: new Map() }, microdata: { roots: [], byId: new Map() }, skipped: [] });
  });
});

describe('hostile microdata', () => {
  it('walks a tree nested far deeper than the stack, once', () => {
    const depth = 15_000;
    const html = `<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">P</span>${'<div>'.repeat(depth)}<b itemprop="sku">S</b>${'</div>'.repeat(depth)}</div>`;
    const { graph } = read(html);
    expect(Object.fromEntries(graph.roots[0]!.props)).toEqual({ name: ['P'], sku: ['S'] });
  });

  it('takes nested properties’ text from a shared allowance: not quadratic, and says what it left out', () => {
    const depth = 5000;
    const html = `<div itemscope itemtype="https://schema.org/Product">${'<div itemprop="description">'.repeat(depth)}deep text${'</div>'.repeat(depth)}</div>`;
    const started = performance.now();
    const { graph, skipped } = read(html);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(graph.roots[0]!.props.get('description')!.length).toBe(depth);
    expect(skipped).toEqual(['the text of some microdata properties was not read (too many elements)']);
  });

  it('stops making items at MAX_STRUCTURED_THINGS; properties of items past it land on no other item', () => {
    const items = MAX_STRUCTURED_THINGS + 10;
    const html = `${'<div itemscope itemtype="https://schema.org/Offer"><i itemprop="price">1</i></div>'.repeat(items)}`;
    const { graph, skipped } = read(html);
    expect(graph.roots).toHaveLength(MAX_STRUCTURED_THINGS);
    expect(graph.roots.every((r) => r.props.get('price')!.length === 1)).toBe(true);
    expect(skipped).toEqual([`structured data past its first ${MAX_STRUCTURED_THINGS} items was not read`]);
  });
});
