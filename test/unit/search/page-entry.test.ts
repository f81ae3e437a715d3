import { describe, expect, it } from 'vitest';
import { pageEntryFromHtml, withImageSizes } from '../../../src/page/index-entry/page-entry.ts';
import { parseHtmlDocument } from '../../../src/page/parse-html.ts';

const BASE = 'https://shop.test/';

function imagesOf(body: string, imageSizes?: Record<string, [number, number]>) {
  const doc = parseHtmlDocument(`<!doctype html><html><head><title>T</title></head><body>${body}</body></html>`);
  return pageEntryFromHtml(doc, { url: BASE, urlKey: BASE, links: [], imageSizes }).images.map(({ src, width, height }) => ({ src, width, height }));
}

describe('image sizes in the index', () => {
  it('takes both attributes when the HTML gives them, whatever the browser decoded', () => {
    expect(imagesOf('<img src="/a.png" width="10" height="20">', { [`${BASE}a.png`]: [300, 200] })).toEqual([{ src: `${BASE}a.png`, width: 10, height: 20 }]);
  });

  it('takes the decoded size when an attribute is missing', () => {
    expect(imagesOf('<img src="/a.png" width="10"><img src="/b.png">', { [`${BASE}a.png`]: [300, 200], [`${BASE}b.png`]: [64, 32] })).toEqual([
      { src: `${BASE}a.png`, width: 300, height: 200 },
      { src: `${BASE}b.png`, width: 64, height: 32 },
    ]);
  });

  it('keeps what attributes there are for an image the browser did not decode', () => {
    expect(imagesOf('<img src="/a.png" width="10"><img src="/b.png">', {})).toEqual([
      { src: `${BASE}a.png`, width: 10, height: undefined },
      { src: `${BASE}b.png`, width: undefined, height: undefined },
    ]);
  });

  it('is not fooled by an image named like an object property', () => {
    expect(imagesOf('<img src="/constructor">', {})).toEqual([{ src: `${BASE}constructor`, width: undefined, height: undefined }]);
  });

  it('gives the same sizes when they are measured after the entry was made (the HTTP path)', () => {
    const pages = [
      '<img src="/a.png" width="10" height="20">',
      '<img src="/a.png" width="10"><img src="/b.png"><img src="/c.png" height="7">',
      '<img src="/constructor">',
      '<img src="/a.png" width="auto" height="5"><img src="/a.png">',
    ];
    const sizes: Record<string, [number, number]> = { [`${BASE}a.png`]: [300, 200], [`${BASE}b.png`]: [64, 32] };
    for (const body of pages) {
      const later = withImageSizes(imagesOf(body) as Parameters<typeof withImageSizes>[0], sizes).map(({ src, width, height }) => ({ src, width, height }));
      expect(later, body).toEqual(imagesOf(body, sizes));
    }
  });
});
