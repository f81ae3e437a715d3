// imageDimensions reads sizes from file headers written by hand here, byte by
// byte, in every format it knows; test/integration/image-probe.test.ts checks
// the same reading against what Chromium decodes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { imageDimensions } from '../../../src/page/rendering/image-dimensions.ts';
import { avif, bmp, gif, jpeg, webpExtended, webpLossless, webpLossy } from '../../support/image-files.ts';
import { solidPng } from '../../support/png.ts';

describe('imageDimensions', () => {
  it('reads PNG, GIF, BMP, WebP (lossy, lossless, extended) and AVIF headers', () => {
    expect(imageDimensions(solidPng(640, 160))).toEqual([640, 160]);
    expect(imageDimensions(gif(33, 17))).toEqual([33, 17]);
    expect(imageDimensions(bmp(300, 200))).toEqual([300, 200]);
    expect(imageDimensions(bmp(300, -200))).toEqual([300, 200]);
    expect(imageDimensions(bmp(64, 48, true))).toEqual([64, 48]);
    expect(imageDimensions(webpLossy(1024, 768))).toEqual([1024, 768]);
    expect(imageDimensions(webpLossless(5, 16384))).toEqual([5, 16384]);
    expect(imageDimensions(webpExtended(4000, 3000))).toEqual([4000, 3000]);
    expect(imageDimensions(avif(1920, 1080))).toEqual([1920, 1080]);
  });

  it('reads JPEG frames past other segments and fill bytes, baseline and progressive', () => {
    expect(imageDimensions(jpeg(800, 600))).toEqual([800, 600]);
    expect(imageDimensions(jpeg(800, 600, { sof: 0xc2, fill: true }))).toEqual([800, 600]);
  });

  it('turns the sides as the browser does: EXIF orientations 5-8, AVIF irot of 90 or 270 degrees', () => {
    for (const orientation of [1, 2, 3, 4]) expect(imageDimensions(jpeg(800, 600, { orientation }))).toEqual([800, 600]);
    for (const orientation of [5, 6, 7, 8]) expect(imageDimensions(jpeg(800, 600, { orientation, littleEndian: orientation % 2 === 0 }))).toEqual([600, 800]);
    expect(imageDimensions(avif(1920, 1080, 1))).toEqual([1080, 1920]);
    expect(imageDimensions(avif(1920, 1080, 2))).toEqual([1920, 1080]);
  });

  it('gives no size for formats it does not read, cut-off headers, and sizes the index refuses', () => {
    expect(imageDimensions(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'))).toBeUndefined();
    expect(imageDimensions(Buffer.alloc(0))).toBeUndefined();
    expect(imageDimensions(solidPng(10, 10).subarray(0, 20))).toBeUndefined();
    expect(imageDimensions(jpeg(800, 600).subarray(0, 40))).toBeUndefined();
    expect(imageDimensions(gif(0, 10))).toBeUndefined();
    expect(imageDimensions(webpExtended(200_000, 10))).toBeUndefined();
    expect(imageDimensions(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x00, 0x00]))).toBeUndefined();
  });

  it('never throws on hostile bytes, whole or cut anywhere', () => {
    const samples = [
      solidPng(3, 4),
      gif(1, 2),
      jpeg(5, 6, { orientation: 6 }),
      webpLossy(7, 8),
      webpLossless(9, 10),
      webpExtended(11, 12),
      avif(13, 14, 1),
      bmp(15, 16),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...samples), fc.nat(), fc.uint8Array({ maxLength: 64 }), fc.nat(), (sample, cut, noise, at) => {
        const cutAt = cut % (sample.length + 1);
        const spoiled = Buffer.from(sample);
        Buffer.from(noise).copy(spoiled, at % sample.length);
        for (const b of [sample.subarray(0, cutAt), spoiled, Buffer.from(noise)]) {
          const size = imageDimensions(b);
          if (size) expect(size.every((n) => Number.isInteger(n) && n > 0 && n < 100_000)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
