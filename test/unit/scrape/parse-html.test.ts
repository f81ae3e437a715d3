import { describe, expect, it } from 'vitest';
import { parseHtmlDocument } from '../../../src/page/parse-html.ts';

describe('parseHtmlDocument', () => {
  it('wraps fragments and empty input in <html><body>', () => {
    expect(parseHtmlDocument('').documentElement.outerHTML).toBe('<html><body></body></html>');
    expect(parseHtmlDocument('text <p>para</p>').documentElement.outerHTML).toBe('<html><body>text <p>para</p></body></html>');
  });

  it('keeps <head> apart from the content when <html> or <body> are missing', () => {
    const document = parseHtmlDocument('<!DOCTYPE html><head><title>T</title></head><p>content</p>');
    expect(document.documentElement.outerHTML).toBe('<html><head><title>T</title></head><body><p>content</p></body></html>');
    expect(parseHtmlDocument('<html lang="fr"><p>x</p></html>').documentElement.outerHTML).toBe('<html lang="fr"><body><p>x</p></body></html>');
  });

  it('leaves a complete document as it is', () => {
    const html = '<html><head><title>T</title></head><body><p>b</p></body></html>';
    expect(parseHtmlDocument(html).documentElement.outerHTML).toBe(html);
  });

  it('lowercases HTML attribute names, not SVG ones, keeping the lowercase of two spellings', () => {
    const document = parseHtmlDocument('<A HREF="/a" Title="t">x</A><svg viewBox="0 0 1 1"><path FILL="red"/></svg><p ID="lower" id="kept"></p>');
    expect(document.querySelector('a')!.getAttribute('href')).toBe('/a');
    expect(document.querySelector('a')!.getAttributeNames()).toEqual(['href', 'title']);
    expect(document.querySelector('svg')!.getAttributeNames()).toEqual(['viewBox']);
    expect(document.querySelector('path')!.getAttributeNames()).toEqual(['FILL']);
    expect(document.querySelector('p')!.getAttributeNames()).toEqual(['id']);
    expect(document.querySelector('p')!.id).toBe('kept');
  });

  it("gives tables their rows: the head section's, then the body's and the table's own, then the foot's", () => {
    const document = parseHtmlDocument(
      '<table><tfoot><tr id="f"></tr></tfoot><tr id="t1"></tr><tbody><tr id="b"></tr></tbody><thead><tr id="h"></tr></thead><tr id="t2"></tr></table>',
    );
    const rows = (document.querySelector('table') as HTMLTableElement).rows;
    expect([...rows].map((row) => row.id)).toEqual(['h', 't1', 'b', 't2', 'f']);
  });
});
