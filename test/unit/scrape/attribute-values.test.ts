import { describe, expect, it } from 'vitest';
import { attributeValues, MAX_ATTRIBUTE_VALUES } from '../../../src/page/attribute-values.ts';
import { parseHtmlDocument } from '../../../src/page/parse-html.ts';

const page = parseHtmlDocument(`<html><body>
  <div class="item" data-id="1" data-price="9.99">One</div>
  <div class="item" data-id="2">Two</div>
  <div class="item">No id</div>
  <div class="item" data-id="1">Duplicate id</div>
  <a href="/a" rel="next">a</a><a href="/b">b</a><a>no href</a>
</body></html>`);

describe('attributeValues', () => {
  it('gives each selector the attribute values of its matches in document order, skipping elements without it', () => {
    expect(
      attributeValues(page, [
        { selector: '.item', attribute: 'data-id' },
        { selector: '.item', attribute: 'data-price' },
        { selector: 'a', attribute: 'href' },
      ]),
    ).toEqual([
      { selector: '.item', attribute: 'data-id', values: ['1', '2', '1'] },
      { selector: '.item', attribute: 'data-price', values: ['9.99'] },
      { selector: 'a', attribute: 'href', values: ['/a', '/b'] },
    ]);
  });

  it('answers an empty list for a selector that matches nothing or an attribute nobody has', () => {
    expect(attributeValues(page, [{ selector: 'table', attribute: 'id' }])).toEqual([{ selector: 'table', attribute: 'id', values: [] }]);
    expect(attributeValues(page, [{ selector: 'a', attribute: 'target' }])).toEqual([{ selector: 'a', attribute: 'target', values: [] }]);
  });

  it('keeps the empty value of a present attribute', () => {
    expect(attributeValues(parseHtmlDocument('<input disabled value="">'), [{ selector: 'input', attribute: 'disabled' }])[0].values).toEqual(['']);
  });

  it(`stops at ${MAX_ATTRIBUTE_VALUES} values per selector`, () => {
    const many = parseHtmlDocument(Array.from({ length: MAX_ATTRIBUTE_VALUES + 10 }, (_, i) => `<p data-n="${i}"></p>`).join(''));
    const [result] = attributeValues(many, [{ selector: 'p', attribute: 'data-n' }]);
    expect(result.values).toHaveLength(MAX_ATTRIBUTE_VALUES);
    expect(result.values.at(-1)).toBe(String(MAX_ATTRIBUTE_VALUES - 1));
  });
});
