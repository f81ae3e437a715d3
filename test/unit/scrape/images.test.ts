import { describe, expect, it } from 'vitest';
import { extractImages, MAX_IMAGE_URL_CHARS, MAX_IMAGES } from '../../../src/page/images.ts';
import { parseHtmlDocument } from '../../../src/page/parse-html.ts';

const images = (html: string, url = 'https://example.com/dir/page.html') => extractImages(parseHtmlDocument(html), url);

describe('extractImages', () => {
  it('lists every image source of the page, absolute, each once, in document order', () => {
    const html = `<html><head>
      <link rel="icon" href="/favicon.png"><link rel="Apple-Touch-Icon" href="touch.png"><link rel="stylesheet" href="a.css">
      <meta property="og:image" content="https://cdn.example.com/card.jpg"><meta name="twitter:image" content="/card.jpg">
    </head><body>
      <img src="a.png"><img src="a.png" alt="again">
      <img data-src="/lazy.webp" src="placeholder.gif">
      <img src="small.jpg" srcset="medium.jpg 640w, large.jpg 1280w">
      <picture><source srcset="art.avif 1x, art@2x.avif 2x" type="image/avif"><img src="art.jpg"></picture>
      <video poster="poster.jpg"></video>
      <input type="image" src="go.png">
      <a href="not-an-image.png">link</a>
    </body></html>`;
    expect(images(html)).toEqual([
      'https://example.com/favicon.png',
      'https://example.com/dir/touch.png',
      'https://cdn.example.com/card.jpg',
      'https://example.com/card.jpg',
      'https://example.com/dir/a.png',
      'https://example.com/dir/placeholder.gif',
      'https://example.com/lazy.webp',
      'https://example.com/dir/small.jpg',
      'https://example.com/dir/medium.jpg',
      'https://example.com/dir/large.jpg',
      'https://example.com/dir/art.avif',
      'https://example.com/dir/art@2x.avif',
      'https://example.com/dir/art.jpg',
      'https://example.com/dir/poster.jpg',
      'https://example.com/dir/go.png',
    ]);
  });

  it('resolves against <base href> as links do', () => {
    expect(images('<base href="https://static.example.org/img/"><img src="x.png">')).toEqual(['https://static.example.org/img/x.png']);
  });

  it('leaves out data:, blob: and javascript: URLs, empty sources and over-long URLs', () => {
    const long = `https://example.com/${'a'.repeat(MAX_IMAGE_URL_CHARS)}.png`;
    const html = `<img src="data:image/png;base64,iVBORw0KGgo="><img src="blob:https://example.com/1"><img src="javascript:alert(1)">
      <img src=""><img src="   "><img src="${long}"><img srcset="data:image/gif;base64,R0lGOD,lh 1x, ok.png 2x">`;
    expect(images(html)).toEqual(['https://example.com/dir/ok.png']);
  });

  it('keeps a data: URL out even when it is the only source of the page', () => {
    expect(images('<img src="data:image/svg+xml,%3Csvg%3E%3C/svg%3E">')).toEqual([]);
  });

  it(`stops at ${MAX_IMAGES} images`, () => {
    const html = Array.from({ length: MAX_IMAGES + 50 }, (_, i) => `<img src="/i/${i}.png">`).join('');
    const found = images(html);
    expect(found).toHaveLength(MAX_IMAGES);
    expect(found.at(-1)).toBe(`https://example.com/i/${MAX_IMAGES - 1}.png`);
  });
});
