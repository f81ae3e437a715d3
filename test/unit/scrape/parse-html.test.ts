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
});
