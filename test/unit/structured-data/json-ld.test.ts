// JSON-LD as things: the shapes pages write, and what hostile scripts cannot do
// (block for long, overflow the stack, pollute prototypes, exceed the budget).
import { describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan, readJsonLd } from '../../../src/page/structured-data/json-ld.ts';
import {
  MAX_JSON_LD_DEPTH,
  MAX_JSON_LD_SCRIPT_CHARS,
  MAX_STRUCTURED_THINGS,
  StructuredDataBudget,
} from '../../../src/page/structured-data/structured-data-budget.ts';
import { findThings, textOf, thingsOf, type ThingGraph } from '../../../src/page/structured-data/things.ts';

function read(...scripts: string[]): { graph: ThingGraph; skipped: string[] } {
  const budget = new StructuredDataBudget();
  const graph = readJsonLd(scripts, budget);
  return { graph, skipped: [...budget.skipped] };
}

const PRODUCT = new Set(['Product']);

describe('readJsonLd', () => {
  it('reads a node: types and properties with schema.org prefixes stripped, numbers as text, @value literals', () => {
    const { graph } = read(
      JSON.stringify({
        '@context': 'https://schema.org',
        '@type': ['http://schema.org/Product', 'schema:Thing'],
        'http://schema.org/name': 'Tee',
        price: 19.5,
        inStock: true,
        description: { '@value': 'Soft', '@language': 'en' },
        color: ['Red', null, 'Blue'],
      }),
    );
    expect(graph.roots).toHaveLength(1);
    const [tee] = graph.roots;
    expect(tee!.types).toEqual(['Product', 'Thing']);
    expect(Object.fromEntries(tee!.props)).toEqual({ name: ['Tee'], price: ['19.5'], inStock: ['true'], description: ['Soft'], color: ['Red', 'Blue'] });
  });

  it('takes the nodes of a top-level array, of @graph, and of every script, and resolves @id references', () => {
    const { graph } = read(
      JSON.stringify([
        { '@type': 'WebSite', name: 'Shop' },
        { '@type': 'Organization', '@id': '#org', name: 'Acme' },
      ]),
      JSON.stringify({ '@context': 'https://schema.org', '@graph': [{ '@type': 'Product', name: 'Tee', brand: { '@id': '#org' } }] }),
      '<!-- {"@type": "BreadcrumbList"} -->',
      '//<![CDATA[\n{"@type": "Organization", "name": "In CDATA"}\n//]]>',
    );
    expect(graph.roots.map((r) => r.types[0])).toEqual(['WebSite', 'Organization', 'Product', 'BreadcrumbList', 'Organization']);
    const tee = findThings(graph, PRODUCT)[0]!;
    expect(textOf(graph, tee, 'brand')).toBe('Acme');
  });

  it('reads strings with raw line breaks (as pages write them) and skips what is not JSON, saying so', () => {
    const { graph, skipped } = read('{"@type": "Product", "name": "Two\nlines"}', '{"@type": "Product", "name": }', '');
    expect(graph.roots).toHaveLength(1);
    expect(textOf(graph, graph.roots[0]!, 'name')).toBe('Two lines');
    expect(skipped).toEqual(['a JSON-LD script that is not valid JSON was skipped']);
  });

  it('keeps "__proto__" and "constructor" as property names, and pollutes nothing', () => {
    const { graph } = read('{"@type": "Product", "__proto__": {"polluted": "yes"}, "constructor": "c", "name": "P"}');
    const [product] = graph.roots;
    expect(product!.props.get('constructor')).toEqual(['c']);
    expect(thingsOf(graph, product!, '__proto__')[0]!.props.get('polluted')).toEqual(['yes']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('follows references in circles without looping', () => {
    const { graph } = read(
      JSON.stringify({
        '@graph': [
          { '@id': 'a', '@type': 'Product', isRelatedTo: { '@id': 'b' } },
          { '@id': 'b', '@type': 'Product', isRelatedTo: { '@id': 'a' } },
        ],
      }),
    );
    expect(findThings(graph, PRODUCT)).toHaveLength(2);
  });
});

describe('hostile JSON-LD', () => {
  it('measures nesting in one pass, strings and escapes aside', () => {
    expect(jsonNestsDeeperThan('[[["]]]]]]\\"[[[["]]]', 3)).toBe(false);
    expect(jsonNestsDeeperThan('[[[[]]]]', 3)).toBe(true);
  });

  it('skips a script nested deeper than MAX_JSON_LD_DEPTH before parsing it: no stack to overflow, fast', () => {
    const deep = '['.repeat(400_000) + ']'.repeat(400_000);
    const objects = '{"a":'.repeat(MAX_JSON_LD_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_LD_DEPTH + 1);
    const started = performance.now();
    const { graph, skipped } = read(deep, objects, '{"@type":"Product","name":"still read"}');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(graph.roots.map((r) => r.types)).toEqual([['Product']]);
    expect(skipped).toEqual([`a JSON-LD script nested more than ${MAX_JSON_LD_DEPTH} levels deep was skipped`]);
    const justDeepEnough = '{"@type":"Product","a":'.repeat(MAX_JSON_LD_DEPTH) + '1' + '}'.repeat(MAX_JSON_LD_DEPTH);
    expect(read(justDeepEnough).graph.roots).toHaveLength(1);
  });

  it('skips a script over MAX_JSON_LD_SCRIPT_CHARS and scripts past the page’s allowance', () => {
    const big = JSON.stringify({ '@type': 'Product', name: 'x'.repeat(MAX_JSON_LD_SCRIPT_CHARS) });
    expect(read(big).skipped).toEqual([`a JSON-LD script larger than ${MAX_JSON_LD_SCRIPT_CHARS} characters was skipped`]);
    const nearlyBig = JSON.stringify({ '@type': 'Product', name: 'x'.repeat(MAX_JSON_LD_SCRIPT_CHARS - 100) });
    const { graph, skipped } = read(nearlyBig, nearlyBig, nearlyBig, nearlyBig, nearlyBig);
    expect(graph.roots).toHaveLength(4);
    expect(skipped).toEqual(['JSON-LD scripts past the first 4000000 characters of them were skipped']);
  });

  it('stops at MAX_STRUCTURED_THINGS things, however many scripts and nodes a page has', () => {
    const wide = JSON.stringify(Array.from({ length: MAX_STRUCTURED_THINGS + 5 }, (_, i) => ({ '@type': 'Offer', price: i })));
    const started = performance.now();
    const { graph, skipped } = read(wide, '{"@type":"Product"}');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(graph.roots).toHaveLength(MAX_STRUCTURED_THINGS);
    expect(skipped).toEqual([`structured data past its first ${MAX_STRUCTURED_THINGS} items was not read`]);
  });
});
