import { describe, expect, it } from 'vitest';
import { parseHtmlDocument } from '../../../src/page/parse-html.ts';
import { elementsMatching, simpleSelectors } from '../../../src/page/simple-selectors.ts';

const PAGE = `<html class="top"><body><nav id="n">a</nav><div class="x  side
  y"><p class="sidebar-item">b</p><HEADER>c</HEADER></div><div id="header-2">d</div><svg><g class="side"></g></svg></body></html>`;

describe('simple selectors', () => {
  it('match what querySelectorAll matches for the same list, in document order', () => {
    const list = ['header', 'nav', '.side', '#n', '#header', '.top', 'g'];
    const document = parseHtmlDocument(PAGE);
    const engine = [...document.querySelectorAll(list.join(', '))];
    const walked = elementsMatching(document, simpleSelectors(list));
    expect(walked).toEqual(engine);
    expect(walked.map((e) => e.localName)).toEqual(['html', 'nav', 'div', 'header', 'g']);
  });

  it('compare whole class names and ids, not parts of them', () => {
    const document = parseHtmlDocument(PAGE);
    expect(elementsMatching(document, simpleSelectors(['.sidebar', '#header', '.x-y']))).toEqual([]);
  });

  it('refuse a selector that is not one tag, id or class', () => {
    for (const bad of ['div p', 'a[href]', '.a.b', '#', 'nav,aside', '*']) expect(() => simpleSelectors([bad])).toThrow(/not a simple selector/);
  });
});
